package fhir

import "strings"

// token is one value of a token search parameter as FHIR's search rules read it: "code"
// (the code in any system), "system|code", "|code" (the code with no system) and "system|"
// (any code of the system).
type token struct {
	system    string
	code      string
	hasSystem bool // a "|" was given: the coding's system must equal system ("" for none)
}

func parseToken(v string) token {
	system, code, ok := strings.Cut(v, "|")
	if !ok {
		return token{code: v}
	}
	return token{system: system, code: code, hasSystem: true}
}

// matches reports whether a coding of system and code meets t.
func (t token) matches(system, code string) bool {
	if t.hasSystem && t.system != system {
		return false
	}
	return t.code == "" || t.code == code
}
