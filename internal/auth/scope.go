package auth

import (
	"regexp"
	"slices"
	"strings"

	"emr/internal/apperr"
)

// Scope is one SMART-style scope: a context (patient, user or system), a FHIR resource type
// or "*", and the interactions it allows, as the letters of "cruds" (create, read, update,
// delete, search). Version 1 names are read as version 2 ones: read is "rs", write "cud",
// * is "cruds".
type Scope struct {
	Context  string
	Resource string
	Actions  string
}

// The interactions a scope may allow.
const (
	ActCreate = 'c'
	ActRead   = 'r'
	ActUpdate = 'u'
	ActDelete = 'd'
	ActSearch = 's'
)

var scopePattern = regexp.MustCompile(`^(patient|user|system)/(\*|[A-Z][A-Za-z]{1,63})\.(read|write|\*|c?r?u?d?s?)$`)

// MaxScopes is how many scopes one token or client may name.
const MaxScopes = 40

// ParseScopes reads a space-separated scope list ("" is none). A token's or a client's
// scopes only narrow what its account may do; each must be well formed, in the contexts
// allowed (a user's token: user/; a backend client: system/). A patient/ scope where none is
// allowed for a user's token is refused with its own reason: it needs a patient launch context
// (SMART App Launch), which an API token does not have.
func ParseScopes(s string, contexts ...string) ([]Scope, error) {
	fields := strings.Fields(s)
	if len(fields) > MaxScopes {
		return nil, apperr.Invalid("scope.too_many", MaxScopes)
	}
	out := make([]Scope, 0, len(fields))
	for _, f := range fields {
		m := scopePattern.FindStringSubmatch(f)
		if m == nil || m[3] == "" {
			return nil, apperr.Invalid("scope.invalid", f)
		}
		if !slices.Contains(contexts, m[1]) {
			if m[1] == "patient" && slices.Contains(contexts, "user") {
				return nil, apperr.Invalid("scope.patient_context")
			}
			return nil, apperr.Invalid("scope.context", f)
		}
		actions := m[3]
		switch actions {
		case "read":
			actions = "rs"
		case "write":
			actions = "cud"
		case "*":
			actions = "cruds"
		}
		out = append(out, Scope{Context: m[1], Resource: m[2], Actions: actions})
	}
	return out, nil
}

// FormatScopes writes scopes back as a space-separated list, in version 2 form.
func FormatScopes(scopes []Scope) string {
	parts := make([]string, len(scopes))
	for i, s := range scopes {
		parts[i] = s.String()
	}
	return strings.Join(parts, " ")
}

func (s Scope) String() string { return s.Context + "/" + s.Resource + "." + s.Actions }

// Allows reports whether the scope allows action on resource.
func (s Scope) Allows(resource string, action byte) bool {
	return (s.Resource == "*" || s.Resource == resource) && strings.IndexByte(s.Actions, action) >= 0
}

// ScopeAllows reports whether the principal's scopes allow action on a FHIR resource type:
// always, for a session or an unscoped token.
func (p *Principal) ScopeAllows(resource string, action byte) bool {
	if p.Scopes == nil {
		return true
	}
	for _, s := range p.Scopes {
		if s.Allows(resource, action) {
			return true
		}
	}
	return false
}
