package fhir

import "slices"

// token is one value of a token search parameter as FHIR's search rules read it: "code"
// (the code in any system), "system|code", "|code" (the code with no system) and "system|"
// (any code of the system).
type token struct {
	system    string
	code      string
	hasSystem bool // a "|" was given: the coding's system must equal system ("" for none)
}

// parseToken reads one value of a token parameter. v is as the query gave it, escapes and all (splitValues): the "|" that separates is the
// first unescaped one, and each part is then unescaped ("a\|b" is the code "a|b").
func parseToken(v string) token {
	system, code, ok := cutEscaped(v, '|')
	if !ok {
		return token{code: unescape(v)}
	}
	return token{system: unescape(system), code: unescape(code), hasSystem: true}
}

// matches reports whether a coding of system and code meets t.
func (t token) matches(system, code string) bool {
	if t.hasSystem && t.system != system {
		return false
	}
	return t.code == "" || t.code == code
}

// tokenParam is a token parameter of a type: the code systems the server writes in it, and
// the codings it reads from a resource built. A value naming another system can match
// nothing the server holds: it matches nothing, and the search says so in a warning rather
// than answer a bare "none" (a safety question, such as "is this allergy active?", must not
// read as answered).
type tokenParam struct {
	systems []string
	codings func(Resource) []Coding
}

// codingParam is a parameter on a CodeableConcept or Coding the server writes codes of
// systems in.
func codingParam(codings func(Resource) []Coding, systems ...string) tokenParam {
	return tokenParam{systems: systems, codings: codings}
}

// codeParam is a parameter on a code element (a status, a gender): its code is of the
// system of the element's value set, and is also sought with no system ("|final") or with
// none named ("final").
func codeParam(system string, code func(Resource) string) tokenParam {
	return tokenParam{systems: []string{system, ""}, codings: func(res Resource) []Coding {
		c := code(res)
		return []Coding{{System: system, Code: c}, {Code: c}}
	}}
}

// conceptCodings are the codings of concepts.
func conceptCodings(concepts ...CodeableConcept) []Coding {
	var out []Coding
	for _, c := range concepts {
		out = append(out, c.Coding...)
	}
	return out
}

// tokens reads a token parameter's occurrences (each a list of values any of which may
// match; every occurrence must), keeping the values whose system p knows: each other is
// named in a warning. ok is false when an occurrence keeps none (nothing can match).
func (q query) tokens(name string, p tokenParam) (occurrences [][]token, ok bool, err error) {
	for _, list := range q.values[name] {
		var kept []token
		for _, v := range list {
			t := parseToken(v)
			if t.code == "" && (!t.hasSystem || t.system == "") {
				return nil, false, invalid("fhir.bad_value", name, name)
			}
			if t.hasSystem && !slices.Contains(p.systems, t.system) {
				if t.system == "" {
					q.warn("code-invalid", "fhir.no_system", name, name)
				} else {
					q.warn("code-invalid", "fhir.unknown_system", name, name, t.system)
				}
				continue
			}
			kept = append(kept, t)
		}
		if len(kept) == 0 {
			return nil, false, nil
		}
		occurrences = append(occurrences, kept)
	}
	return occurrences, true, nil
}

// where adds the conditions of the token parameters given among params, each tested on the
// resources built; false when one can match nothing.
func (q *query) where(params map[string]tokenParam) (bool, error) {
	match := true
	for _, name := range sortedKeys(params) {
		p := params[name]
		occurrences, ok, err := q.tokens(name, p)
		if err != nil {
			return false, err
		}
		match = match && ok // read on: every parameter's unknown systems are named
		if ok && len(occurrences) > 0 {
			q.test(func(res Resource) bool { return meetsAll(p.codings(res), occurrences) })
		}
	}
	return match, nil
}

// meetsAll reports whether codings meet every occurrence (any of its tokens).
func meetsAll(codings []Coding, occurrences [][]token) bool {
	for _, anyOf := range occurrences {
		if !slices.ContainsFunc(anyOf, func(t token) bool {
			return slices.ContainsFunc(codings, func(c Coding) bool { return t.matches(c.System, c.Code) })
		}) {
			return false
		}
	}
	return true
}

// codes reads a token parameter the store filters by, as the codes it allows (every
// occurrence must hold): nil when it allows any (absent, or "system|" alone); ok is false
// when it allows none.
func (q query) codes(name string, p tokenParam) (codes []string, ok bool, err error) {
	occurrences, ok, err := q.tokens(name, p)
	if err != nil || !ok {
		return nil, false, err
	}
	for _, anyOf := range occurrences {
		if slices.ContainsFunc(anyOf, func(t token) bool { return t.code == "" }) {
			continue // the whole system: any code
		}
		var these []string
		for _, t := range anyOf {
			these = append(these, t.code)
		}
		if codes != nil {
			these = slices.DeleteFunc(these, func(c string) bool { return !slices.Contains(codes, c) })
			if len(these) == 0 {
				return nil, false, nil
			}
		}
		codes = these
	}
	return codes, true, nil
}

// codingsOf are a concept's codings (none when it is absent).
func codingsOf(c *CodeableConcept) []Coding {
	if c == nil {
		return nil
	}
	return c.Coding
}
