package fhir

// This file holds the helpers the resource types share: identifiers as tokens, id lists,
// the patient of a search.

import (
	"net/http"
	"strings"
	"time"
)

// identifierCodings are identifiers as a token parameter reads them: system and value.
func identifierCodings(list []Identifier) []Coding {
	out := make([]Coding, len(list))
	for i, id := range list {
		out[i] = Coding{System: id.System, Code: id.Value}
	}
	return out
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

func flat(values [][]string) []string {
	var out []string
	for _, v := range values {
		out = append(out, v...)
	}
	return out
}

func latest(first time.Time, more ...*time.Time) time.Time {
	for _, t := range more {
		if t != nil && t.After(first) {
			first = *t
		}
	}
	return first
}

// patientOf reads a search's patient (or subject): 0 when absent, -1 when it names none.
func patientOf(q query) (int64, error) {
	var pid int64
	for _, name := range []string{"patient", "subject"} {
		p, err := q.reference(name, "Patient")
		if err != nil {
			return 0, err
		}
		if p < 0 || (p > 0 && pid > 0 && p != pid) {
			return -1, nil
		}
		if p > 0 {
			pid = p
		}
	}
	return pid, nil
}

// preferHandling is the handling the client asked for in its Prefer header ("strict" or
// "lenient", RFC 7240 preferences separated by commas, each possibly with parameters after a
// semicolon), or "" when it named none.
func preferHandling(r *http.Request) string {
	for _, header := range r.Header.Values("Prefer") {
		for _, pref := range strings.Split(header, ",") {
			token, _, _ := strings.Cut(pref, ";")
			name, value, ok := strings.Cut(strings.TrimSpace(token), "=")
			if ok && strings.EqualFold(strings.TrimSpace(name), "handling") {
				return strings.ToLower(strings.Trim(strings.TrimSpace(value), `"`))
			}
		}
	}
	return ""
}
