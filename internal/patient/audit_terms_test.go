package patient_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"emr/internal/i18n"
	pt "emr/internal/patient"
)

// Every field a patient update can change is named in the audit log in each language: a field
// added to the record without its audit.field term would read as a message key.
func TestEveryChangedFieldIsNamedInEachLanguage(t *testing.T) {
	var names []string
	var walk func(prefix string, typ reflect.Type)
	walk = func(prefix string, typ reflect.Type) {
		for f := range typ.Fields() {
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			if name == "-" || name == "allergy_seq" { // the store's count of allergy keys, never named
				continue
			}
			if prefix != "" {
				name = prefix + "." + name
			}
			if f.Type.Kind() == reflect.Struct && prefix == "" {
				walk(name, f.Type)
				continue
			}
			names = append(names, name)
		}
	}
	walk("", reflect.TypeFor[pt.Input]())
	terms := append(pt.FieldTerms(names), "audit.field.received")
	for _, lang := range []string{"en", "ru", "zh", "vi"} {
		keys := i18n.Keys(lang)
		for _, term := range terms {
			if !slices.Contains(keys, term) {
				t.Errorf("%s: no %s", lang, term)
			}
		}
	}
}
