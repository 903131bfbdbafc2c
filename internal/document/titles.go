package document

import (
	"strings"
	"sync"

	"emr/internal/i18n"
)

// defaultTitles are, by kind, the titles a document of the kind has when nobody named it: the
// starter templates' names in every language, and the kind's own name in every language.
var defaultTitles = sync.OnceValue(func() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	add := func(kind, title string) {
		if out[kind] == nil {
			out[kind] = map[string]bool{}
		}
		out[kind][strings.ToLower(strings.TrimSpace(title))] = true
	}
	for _, st := range starterTemplates() {
		add(st.Kind, st.Name)
	}
	for _, kind := range Kinds {
		for _, lang := range i18n.Languages {
			add(kind, i18n.T(lang, "document.kind."+kind))
		}
	}
	return out
})

// TitleIn is how a document of kind titled title is named to a reader of lang: a title the
// clinic gave it stays as written (it is the clinic's own words), while a starter template's
// name, or the kind's name, in whatever language the template was written, is the kind's name
// in lang ("Laboratory request" read in Russian is «Направление на анализы»).
func TitleIn(lang, kind, title string) string {
	if defaultTitles()[kind][strings.ToLower(strings.TrimSpace(title))] {
		return i18n.T(lang, "document.kind."+kind)
	}
	return title
}
