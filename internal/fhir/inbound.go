package fhir

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"emr/internal/i18n"
)

// A resource as another system sends it: what a type keeps is read, an element it does not
// keep is dropped and named in a warning (notes), and an element that changes the meaning of
// the rest — a modifierExtension, or a modifier element the type does not keep — refuses
// the write, as the specification requires (extensibility.html#modifierExtension): ignoring
// it would keep a record that says something else than was sent.

// note is an element a write did not keep.
type note struct {
	code       string // the issue type: "extension" for an extension, "not-supported" else
	expression string // where it was, e.g. Patient.extension[0]
	url        string // an extension's url
}

// notes collects what a write dropped.
type notes []note

func (n *notes) drop(code, expression, url string) {
	*n = append(*n, note{code: code, expression: expression, url: url})
}

// issues are the notes as an OperationOutcome's warnings, in lang.
func (n notes) issues(lang string) []Issue {
	out := make([]Issue, len(n))
	for i, x := range n {
		key, args := "fhir.element_dropped", []any{x.expression}
		if x.url != "" {
			key, args = "fhir.extension_dropped", []any{x.url, x.expression}
		}
		out[i] = Issue{Severity: "warning", Code: x.code, Diagnostics: i18n.T(lang, key, args...), Expression: []string{x.expression}}
	}
	return out
}

// modifierElements are the modifier elements (isModifier in R4) of the writable types that
// the clinic does not keep, and the one value of each that changes nothing.
var modifierElements = map[string]string{
	"Patient.deceasedBoolean": "false", "Patient.deceasedDateTime": "", "Patient.link": "",
	"Patient.implicitRules": "", "Observation.implicitRules": "", "Appointment.implicitRules": "", "Encounter.implicitRules": "",
}

// decodeResource decodes a written resource of kind into v (a pointer to its input type),
// noting in dropped every element v's type has no place for; a modifier not understood is an
// error (422).
func decodeResource(data []byte, kind string, v any, dropped *notes) error {
	var tree any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&tree); err != nil || dec.More() {
		return invalid("fhir.bad_json", "")
	}
	if _, ok := tree.(map[string]any); !ok {
		return invalid("fhir.bad_json", "")
	}
	if err := sift(tree, reflect.TypeOf(v).Elem(), kind, dropped); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		var wrong *json.UnmarshalTypeError
		if errors.As(err, &wrong) {
			return invalid("fhir.wrong_type", wrong.Field, wrong.Field)
		}
		return invalid("fhir.bad_json", "")
	}
	return nil
}

// sift walks value (decoded JSON) against t, the Go type it is read into, at path.
func sift(value any, t reflect.Type, path string, dropped *notes) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice:
		list, ok := value.([]any)
		if !ok || t.Elem().Kind() == reflect.Uint8 { // json.RawMessage: taken whole
			return nil
		}
		for i, item := range list {
			if err := sift(item, t.Elem(), path+"["+strconv.Itoa(i)+"]", dropped); err != nil {
				return err
			}
		}
	case reflect.Struct:
		object, ok := value.(map[string]any)
		if !ok {
			return nil // a wrong type: json.Unmarshal names it
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(object))
		for k := range object {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			at := path + "." + k
			if field, ok := fields[k]; ok {
				if err := sift(object[k], field, at, dropped); err != nil {
					return err
				}
				continue
			}
			if err := unkept(k, object[k], at, dropped); err != nil {
				return err
			}
		}
	}
	return nil
}

// unkept handles an element the type does not keep: a modifier refuses the write, anything
// else is dropped and noted (an extension by its url).
func unkept(name string, value any, at string, dropped *notes) error {
	if name == "modifierExtension" {
		url := ""
		if list, ok := value.([]any); ok && len(list) > 0 {
			if x, ok := list[0].(map[string]any); ok {
				url, _ = x["url"].(string)
			}
		}
		return &Error{Status: http.StatusUnprocessableEntity, Code: "extension", Key: "fhir.modifier_extension", Args: []any{url}, Expression: at}
	}
	if harmless, ok := modifierElements[at]; ok {
		if harmless == "" || jsonText(value) != harmless {
			return &Error{Status: http.StatusUnprocessableEntity, Code: "not-supported", Key: "fhir.modifier_element", Args: []any{at}, Expression: at}
		}
		return nil
	}
	if name == "extension" || strings.HasPrefix(name, "_") {
		list, _ := value.([]any)
		if strings.HasPrefix(name, "_") {
			if x, ok := value.(map[string]any); ok {
				list, _ = x["extension"].([]any)
			}
		}
		for i, item := range list {
			x, _ := item.(map[string]any)
			url, _ := x["url"].(string)
			dropped.drop("extension", at+"["+strconv.Itoa(i)+"]", url)
		}
		if len(list) == 0 {
			dropped.drop("extension", at, "")
		}
		return nil
	}
	dropped.drop("not-supported", at, "")
	return nil
}

func jsonText(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// fieldsOf caches each type's JSON names and their types (embedded structs flattened).
var fieldsOf sync.Map

func jsonFields(t reflect.Type) map[string]reflect.Type {
	if cached, ok := fieldsOf.Load(t); ok {
		return cached.(map[string]reflect.Type)
	}
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous && name == "" {
			for k, v := range jsonFields(f.Type) {
				if _, shadowed := out[k]; !shadowed {
					out[k] = v
				}
			}
			continue
		}
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f.Type // an outer field shadows an embedded one of the same name
	}
	fieldsOf.Store(t, out)
	return out
}

// DroppedHeader names, in a write's answer, the elements it did not keep (as HAPI's
// validating interceptor reports in a header of its own): the answer's body is the resource
// as kept, and with Prefer: return=OperationOutcome an OperationOutcome says why, per element.
const DroppedHeader = "X-FHIR-Dropped"

// droppedHeader names in the answer's header the elements a write did not keep.
func droppedHeader(w http.ResponseWriter, dropped notes) {
	if len(dropped) == 0 {
		return
	}
	where := make([]string, len(dropped))
	for i, d := range dropped {
		where[i] = d.expression
	}
	w.Header().Set(DroppedHeader, strings.Join(where, ", "))
}
