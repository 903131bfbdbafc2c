// Package i18n translates the server's own messages (errors, validation) into the four
// interface languages. The language comes from the "language" cookie the web app sets,
// else the Accept-Language header, else English.
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"

	"golang.org/x/text/language"
)

// Languages are the supported interface languages, English first (the fallback).
var Languages = []string{"en", "ru", "zh", "vi"}

//go:embed messages/*.json
var files embed.FS

var (
	catalogue = map[string]map[string]string{} // lang -> key -> text
	matcher   = language.NewMatcher([]language.Tag{language.English, language.Russian, language.Chinese, language.Vietnamese})
)

func init() {
	for _, lang := range Languages {
		b, err := files.ReadFile("messages/" + lang + ".json")
		if err != nil {
			panic(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			panic(fmt.Sprintf("i18n: %s.json: %v", lang, err))
		}
		// A feature may keep its messages apart, in messages/LANG-FEATURE.json; a key in two
		// files is a mistake.
		more, _ := fs.Glob(files, "messages/"+lang+"-*.json")
		for _, name := range more {
			b, err := files.ReadFile(name)
			if err != nil {
				panic(err)
			}
			part := map[string]string{}
			if err := json.Unmarshal(b, &part); err != nil {
				panic(fmt.Sprintf("i18n: %s: %v", name, err))
			}
			for k, v := range part {
				if _, dup := m[k]; dup {
					panic(fmt.Sprintf("i18n: %s: key %s is in another file too", name, k))
				}
				m[k] = v
			}
		}
		catalogue[lang] = m
	}
}

// Keys returns the message keys of a language, for tests of completeness.
func Keys(lang string) []string {
	keys := make([]string, 0, len(catalogue[lang]))
	for k := range catalogue[lang] {
		keys = append(keys, k)
	}
	return keys
}

// T translates key into lang, formatting args into it; unknown keys fall back to English,
// then to the key itself.
func T(lang, key string, args ...any) string {
	s, ok := catalogue[lang][key]
	if !ok {
		if s, ok = catalogue["en"][key]; !ok {
			s = key
		}
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// FromRequest picks the language of a request.
func FromRequest(r *http.Request) string {
	if c, err := r.Cookie("language"); err == nil {
		for _, l := range Languages {
			if c.Value == l {
				return l
			}
		}
	}
	if h := r.Header.Get("Accept-Language"); h != "" {
		tags, _, err := language.ParseAcceptLanguage(h)
		if err == nil && len(tags) > 0 {
			_, i, conf := matcher.Match(tags...)
			if conf != language.No {
				return Languages[i]
			}
		}
	}
	return "en"
}
