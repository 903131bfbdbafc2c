// Package apperr defines the error kinds the domain packages return, so that one place
// (httpjson) can map them to HTTP statuses without the stores knowing about HTTP.
package apperr

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind classifies an error for its caller.
type Kind int

// The kinds of error a domain operation can end in.
const (
	KindInternal Kind = iota
	KindInvalid
	KindNotFound
	KindConflict
	KindUnauthenticated
	KindForbidden
	KindThrottled
	KindTooLarge        // the request body is over the limit
	KindUnsupportedType // the request body is not of the type the route reads
)

// Error is a domain error: a kind, a message key for the user's language, and, for
// validation, the message keys per field.
type Error struct {
	Kind   Kind
	Key    string              // i18n message key, e.g. "auth.invalid_credentials"
	Args   []any               // arguments for the message
	Fields map[string][]string // field -> message keys (validation only)
	// FieldArgs holds the arguments of Fields' messages, by field and position; nil when
	// none has any.
	FieldArgs map[string][][]any
	// RetryAfterSeconds is set on throttling errors.
	RetryAfterSeconds int
	Err               error // the wrapped cause, never shown to the user
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Key, e.Err)
	}
	return e.Key
}

func (e *Error) Unwrap() error { return e.Err }

// Is lets errors.Is(err, apperr.ErrNotFound) match any error of the same kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Key == "" && t.Kind == e.Kind
}

// Sentinels to test an error's kind with errors.Is.
var (
	ErrInvalid         = &Error{Kind: KindInvalid}
	ErrNotFound        = &Error{Kind: KindNotFound}
	ErrConflict        = &Error{Kind: KindConflict}
	ErrUnauthenticated = &Error{Kind: KindUnauthenticated}
	ErrForbidden       = &Error{Kind: KindForbidden}
	ErrThrottled       = &Error{Kind: KindThrottled}
)

// NotFound reports that the named thing does not exist (or is not visible to the caller).
func NotFound(key string) *Error { return &Error{Kind: KindNotFound, Key: key} }

// Conflict reports a stale version or a clash with another record.
func Conflict(key string, args ...any) *Error {
	return &Error{Kind: KindConflict, Key: key, Args: args}
}

// Forbidden reports that the caller lacks the permission for an action.
func Forbidden(key string) *Error { return &Error{Kind: KindForbidden, Key: key} }

// Unauthenticated reports a missing, expired or invalid session or credentials.
func Unauthenticated(key string) *Error { return &Error{Kind: KindUnauthenticated, Key: key} }

// Throttled reports too many attempts; retry after the given number of seconds.
func Throttled(key string, retryAfterSeconds int) *Error {
	return &Error{Kind: KindThrottled, Key: key, Args: []any{retryAfterSeconds}, RetryAfterSeconds: retryAfterSeconds}
}

// Validation collects field errors; it is empty until Add is called.
type Validation struct {
	fields  map[string][]string
	args    map[string][][]any
	hasArgs bool
}

// Add records the message key for a field.
func (v *Validation) Add(field, key string) { v.AddWith(field, key) }

// AddWith records the message key for a field with its message's arguments.
func (v *Validation) AddWith(field, key string, args ...any) {
	if v.fields == nil {
		v.fields, v.args = map[string][]string{}, map[string][][]any{}
	}
	v.fields[field] = append(v.fields[field], key)
	v.args[field] = append(v.args[field], args)
	v.hasArgs = v.hasArgs || len(args) > 0
}

// Merge adds the field errors of e (a validation error), with their arguments.
func (v *Validation) Merge(e *Error) {
	for field, keys := range e.Fields {
		for i, k := range keys {
			var args []any
			if i < len(e.FieldArgs[field]) {
				args = e.FieldArgs[field][i]
			}
			v.AddWith(field, k, args...)
		}
	}
}

// Err returns the validation error, or nil when no field failed.
func (v *Validation) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	e := &Error{Kind: KindInvalid, Key: "validation.failed", Fields: v.fields}
	if v.hasArgs {
		e.FieldArgs = v.args
	}
	return e
}

// MaxReason is the longest reason (for archiving, cancelling, amending) a user may give.
const MaxReason = 500

// Reason trims a reason the user must give (for archiving, cancelling, amending) and checks
// it is there and not too long; the error names the field "reason".
// A reason a reader can use is MinReason characters at least, or MinIdeographReason when it
// is written in ideographs or syllables, which say as much in fewer ("溶血", haemolysed): "x"
// tells a reader nothing. Retractions, a kept pair of medicines and a wrong-patient result's
// resolution count their reasons so.
const (
	MinReason          = 5
	MinIdeographReason = 2
)

// ReasonTooShort reports whether reason is shorter than a reader can use.
func ReasonTooShort(reason string) bool {
	n := utf8.RuneCountInString(reason)
	if strings.ContainsFunc(reason, func(r rune) bool {
		return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul)
	}) {
		return n < MinIdeographReason
	}
	return n < MinReason
}

func Reason(s string) (string, error) {
	s = strings.TrimSpace(s)
	var v Validation
	if s == "" {
		v.Add("reason", "validation.reason_required")
	} else if utf8.RuneCountInString(s) > MaxReason {
		v.Add("reason", "validation.too_long")
	}
	return s, v.Err()
}

// Email is the e-mail check of spec §5, shared with the web app's: local part, @, a dotted
// domain ending in two letters or a bracketed IPv4 address, shorter than 255 characters.
// A control character (a CR or LF in a quoted local part) is never part of an address: it
// would split a mail header.
func Email(s string) bool {
	return len(s) < 255 && !strings.ContainsFunc(s, unicode.IsControl) && emailPattern.MatchString(s)
}

var emailPattern = regexp.MustCompile(`^(([^<>()\[\]\\.,;:\s@"]+(\.[^<>()\[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$`)

// Invalid reports a single problem with the request as a whole.
func Invalid(key string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Key: key, Args: args}
}

// KindOf returns the kind of err, KindInternal for errors that are not *Error.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindInternal
}
