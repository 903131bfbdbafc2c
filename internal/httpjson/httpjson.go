// Package httpjson is the only writer of API responses: it decodes JSON bodies, writes JSON
// answers, and maps apperr kinds to HTTP statuses with messages in the caller's language.
package httpjson

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"emr/internal/apperr"
	"emr/internal/i18n"
)

// MaxBody is the largest JSON body the API reads.
const MaxBody = 1 << 20

// Decode reads a JSON body into v: a body of another type is refused (415), one over MaxBody
// too (413), and malformed JSON, a null body or trailing data are Invalid. A string anywhere
// in it with a control character other than tab, newline or carriage return (a NUL byte
// above all) is refused with a 422 naming the field, before any handler or database sees it.
func Decode(w http.ResponseWriter, r *http.Request, v any) error {
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return &apperr.Error{Kind: apperr.KindUnsupportedType, Key: "error.content_type"}
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &apperr.Error{Kind: apperr.KindTooLarge, Key: "error.body_too_large"}
		}
		return &apperr.Error{Kind: apperr.KindInvalid, Key: "error.bad_json", Err: err}
	}
	if t := bytes.TrimSpace(data); len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return apperr.Invalid("error.bad_json")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		// A value of the wrong kind names its field ("items.quantity"), not the whole body.
		var wrong *json.UnmarshalTypeError
		if errors.As(err, &wrong) && wrong.Field != "" {
			// The path names embedded Go structs too ("Input.first_name"); the API's names are
			// its JSON ones, all lower case.
			var path []string
			for _, p := range strings.Split(wrong.Field, ".") {
				if p != "" && !unicode.IsUpper([]rune(p)[0]) {
					path = append(path, p)
				}
			}
			var val apperr.Validation
			val.Add(cmp.Or(strings.Join(path, "."), "body"), "validation.wrong_type")
			return val.Err()
		}
		return &apperr.Error{Kind: apperr.KindInvalid, Key: "error.bad_json", Err: err}
	}
	if _, err := dec.Token(); err != io.EOF {
		return apperr.Invalid("error.bad_json")
	}
	if field, bad := ControlField(reflect.ValueOf(v), ""); bad {
		var val apperr.Validation
		val.Add(cmp.Or(field, "body"), "validation.control_characters")
		return val.Err()
	}
	return nil
}

// HasBidiControl reports whether s holds a bidirectional embedding, override or isolate
// (U+202A–U+202E, U+2066–U+2069): invisible, they reorder what a printed line shows (a lot
// number read backwards), so a one-line field of a record refuses them.
func HasBidiControl(s string) bool {
	return strings.ContainsFunc(s, func(c rune) bool { return c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069 })
}

// HasControl reports whether s holds a control character other than tab, newline and
// carriage return (C0, DEL and C1), or a noncharacter.
func HasControl(s string) bool {
	for _, c := range s {
		if c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if c < 0x20 || c >= 0x7f && c < 0xa0 || c == 0xfffe || c == 0xffff {
			return true
		}
	}
	return false
}

// ControlField finds the first string in v with a control character and returns its path
// as the API names fields ("history.allergies.0.substance").
func ControlField(v reflect.Value, path string) (string, bool) {
	join := func(name string) string {
		if path == "" {
			return name
		}
		return path + "." + name
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", false
		}
		return ControlField(v.Elem(), path)
	case reflect.String:
		return path, HasControl(v.String())
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if f.Anonymous && f.Tag.Get("json") == "" {
				if p, bad := ControlField(v.Field(i), path); bad {
					return p, true
				}
				continue
			}
			if p, bad := ControlField(v.Field(i), join(name)); bad {
				return p, true
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "", false // raw bytes (json.RawMessage)
		}
		for i := range v.Len() {
			if p, bad := ControlField(v.Index(i), join(strconv.Itoa(i))); bad {
				return p, true
			}
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			k := fmt.Sprint(iter.Key().Interface())
			if HasControl(k) {
				return join(k), true
			}
			if p, bad := ControlField(iter.Value(), join(k)); bad {
				return p, true
			}
		}
	}
	return "", false
}

// File reads the one multipart field "file" of an upload within limit bytes. A missing or
// empty file and one over the limit are Invalid errors the user can act on.
func File(w http.ResponseWriter, r *http.Request, limit int64) (data []byte, name string, err error) {
	tooLarge := apperr.Invalid("file.too_large", limit>>20)
	r.Body = http.MaxBytesReader(w, r.Body, limit+1<<20) // room for the multipart framing
	file, header, err := r.FormFile("file")
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, "", tooLarge
		}
		return nil, "", apperr.Invalid("file.required")
	}
	defer file.Close()
	data, err = io.ReadAll(io.LimitReader(file, limit+1))
	if err != nil || int64(len(data)) > limit {
		return nil, "", tooLarge
	}
	if len(data) == 0 {
		return nil, "", apperr.Invalid("file.required")
	}
	return data, header.Filename, nil
}

// Respond writes v as JSON with the given status.
func Respond(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if v != nil {
		_ = json.NewEncoder(w).Encode(v)
	}
}

// Result answers what a handler's one store call returned: err when it failed, else v with
// status. It ends the one shape of a handler: read the input (answering its error at once),
// call the store, Result.
func Result(w http.ResponseWriter, r *http.Request, status int, v any, err error) {
	if err != nil {
		Error(w, r, err)
		return
	}
	Respond(w, status, v)
}

// NoContent answers 204.
func NoContent(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusNoContent)
}

// ErrorBody is the JSON error envelope of every failed API call.
type ErrorBody struct {
	Error  string              `json:"error"`
	Code   string              `json:"code"`
	Errors map[string][]string `json:"errors,omitempty"`
}

var statusOf = map[apperr.Kind]int{
	apperr.KindInvalid:         http.StatusUnprocessableEntity,
	apperr.KindNotFound:        http.StatusNotFound,
	apperr.KindConflict:        http.StatusConflict,
	apperr.KindUnauthenticated: http.StatusUnauthorized,
	apperr.KindForbidden:       http.StatusForbidden,
	apperr.KindThrottled:       http.StatusTooManyRequests,
	apperr.KindTooLarge:        http.StatusRequestEntityTooLarge,
	apperr.KindUnsupportedType: http.StatusUnsupportedMediaType,
}

// Route is the route pattern r matched, for logs: never its path, which may hold a code or
// a token ("(no route)" before or without a match).
func Route(r *http.Request) string {
	if r.Pattern == "" {
		return "(no route)"
	}
	return r.Pattern
}

// Error writes err as the error envelope, translated into the request's language.
// Errors that are not apperr kinds are logged and answered as a generic 500.
func Error(w http.ResponseWriter, r *http.Request, err error) {
	lang := i18n.FromRequest(r)
	var e *apperr.Error
	if !errors.As(err, &e) || e.Kind == apperr.KindInternal {
		slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "route", Route(r), "err", err)
		Respond(w, http.StatusInternalServerError, ErrorBody{Error: i18n.T(lang, "error.internal"), Code: "error.internal"})
		return
	}
	body := ErrorBody{Error: i18n.T(lang, e.Key, e.Args...), Code: e.Key}
	if len(e.Fields) > 0 {
		body.Errors = make(map[string][]string, len(e.Fields))
		for field, keys := range e.Fields {
			for i, k := range keys {
				var args []any
				if i < len(e.FieldArgs[field]) {
					args = e.FieldArgs[field][i]
				}
				body.Errors[field] = append(body.Errors[field], i18n.T(lang, k, args...))
			}
		}
	}
	if e.Kind == apperr.KindThrottled && e.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfterSeconds))
	}
	Respond(w, statusOf[e.Kind], body)
}

// Page sizes a list offers; DefaultPerPage is the one it starts with.
var (
	PageSizes      = []int{10, 15, 20, 30, 50}
	DefaultPerPage = 15
)

// Page reads ?page= and ?per_page= of a list, recording bad values in v.
func Page(get func(string) string, v *apperr.Validation) (page, perPage int) {
	page, perPage = 1, DefaultPerPage
	if s := get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 100000 {
			v.Add("page", "validation.query")
		}
		page = max(n, 1)
	}
	if s := get("per_page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || !slices.Contains(PageSizes, n) {
			v.Add("per_page", "validation.query")
		} else {
			perPage = n
		}
	}
	return page, perPage
}

// ListBody is the answer of a paged list: {data, meta: {total, page, per_page}}.
type ListBody[T any] struct {
	Data []T      `json:"data"`
	Meta ListMeta `json:"meta"`
}

// Items is an unpaged list: every item there is, under "data" as in a paged one.
type Items[T any] struct {
	Data []T `json:"data"`
}

// List answers an unpaged list (an empty one as [], never null).
func List[T any](w http.ResponseWriter, items []T) {
	if items == nil {
		items = []T{}
	}
	Respond(w, http.StatusOK, Items[T]{Data: items})
}

// ListMeta is a paged list's position.
type ListMeta struct {
	Total   int `json:"total"`
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
}

// DecodeOn reads the path's {id} (anything but a positive integer is notFound, as PathID)
// and the JSON body into a T; false when either failed, and the caller was answered. The
// first step of a handler acting on one record.
func DecodeOn[T any](w http.ResponseWriter, r *http.Request, notFound string) (int64, T, bool) {
	var in T
	id, err := PathID(r, "id", notFound)
	if err != nil {
		Error(w, r, err)
		return 0, in, false
	}
	if err := Decode(w, r, &in); err != nil {
		Error(w, r, err)
		return 0, in, false
	}
	return id, in, true
}

// PathID reads the positive integer path value name ({id}); anything else is notFound (a
// message key such as "patient.not_found"), since no such record can exist.
func PathID(r *http.Request, name, notFound string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.NotFound(notFound)
	}
	return id, nil
}

// CSVCell keeps a spreadsheet from reading an exported value as a formula: a cell that
// starts with = + - @ or a tab or carriage return is written behind an apostrophe, unless it
// is a plain number ("-12.50" stays a number).
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) && !plainNumber.MatchString(s) {
		return "'" + s
	}
	return s
}

var plainNumber = regexp.MustCompile(`^[-+]?[0-9]+(\.[0-9]+)?$`)

// CSV writes CSV rows with every cell guarded against formulas (CSVCell): the one writer of
// every export, so that no column is forgotten.
type CSV struct{ w *csv.Writer }

// NewCSV returns a guarded CSV writer on w.
func NewCSV(w io.Writer) *CSV { return &CSV{w: csv.NewWriter(w)} }

// Write writes one row, each cell guarded.
func (c *CSV) Write(cells ...string) {
	row := make([]string, len(cells))
	for i, cell := range cells {
		row[i] = CSVCell(cell)
	}
	_ = c.w.Write(row)
}

// Flush writes what is buffered and reports the first error of any write.
func (c *CSV) Flush() error {
	c.w.Flush()
	return c.w.Error()
}
