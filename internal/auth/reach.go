package auth

import (
	"context"
	"sort"
	"strings"
	"time"

	"emr/internal/apperr"
)

// Reach is what an account may do on the FHIR API by its roles, read from the FHIR route
// table: for each resource type, the interactions ("cruds" letters, in that order) of the
// routes its permissions allow. A token's scopes are offered from it and checked against
// it, so that no token claims more than its account has (the account caps it at every
// request anyway: this keeps the stored scopes honest).
type Reach struct {
	Can map[string]string // by the account's roles
	// Served is what the server offers at all: an interaction no route serves (a delete)
	// is nobody's to grant, and a scope naming it claims nothing more.
	Served map[string]string
}

// ReachOf computes the reach of an account with roles and permissions (an emergency grant
// is not counted: it ends, the token would outlive it) over routes.
func ReachOf(routes []Route, roles []string, perms []Permission) Reach {
	p := &Principal{Roles: roles, Permissions: perms}
	r := Reach{Can: map[string]string{}, Served: map[string]string{}}
	add := func(m map[string]string, kind string, act byte) {
		if !strings.ContainsRune(m[kind], rune(act)) {
			m[kind] += string(act)
		}
	}
	for _, rt := range routes {
		if !rt.FHIR || rt.Resource == "" || rt.Interaction == 0 || rt.Access.kind == accessPublic {
			continue
		}
		add(r.Served, rt.Resource, rt.Interaction)
		if rt.Access.Allows(p) {
			add(r.Can, rt.Resource, rt.Interaction)
		}
	}
	for _, m := range []map[string]string{r.Can, r.Served} {
		for k, acts := range m {
			var sorted strings.Builder
			for _, a := range "cruds" {
				if strings.ContainsRune(acts, a) {
					sorted.WriteRune(a)
				}
			}
			m[k] = sorted.String()
		}
	}
	return r
}

// AccountReach is the reach of account userID (with a nil Can when it is deactivated or
// gone).
func (s *Sessions) AccountReach(ctx context.Context, routes []Route, userID int64) (Reach, error) {
	id, err := s.Identities.Identity(ctx, userID, s.now())
	if err != nil || id == nil {
		return Reach{}, err
	}
	return ReachOf(routes, id.Roles, id.Permissions), nil
}

// ReachItem is one resource type an account reaches, and how.
type ReachItem struct {
	Resource string `json:"resource"`
	Actions  string `json:"actions"`
}

// Items lists what the account may do, by resource type in name order.
func (r Reach) Items() []ReachItem {
	out := make([]ReachItem, 0, len(r.Can))
	for k, v := range r.Can {
		out = append(out, ReachItem{Resource: k, Actions: v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Resource < out[j].Resource })
	return out
}

// Check refuses the first of scopes (already parsed) wider than the reach: an interaction
// the server serves on a type and the account may not do there; "*" stands for every type,
// each of its interactions the server serves anywhere allowed to the account somewhere.
//
// The decision on "*" (issue 53's review): a "*" scope is accepted when each of its action
// letters is allowed on at least one type, and stored as written — so user/*.cruds is
// accepted for a nurse who may create only Observations. A scope only narrows its account:
// every request made with the token is checked against the account's own permissions at that
// moment as well as against the scopes, so "*" can never reach a type or an interaction the
// account cannot, and it follows the account when its roles change. Requiring every letter
// on every type "*" covers would make user/*.rs impossible for almost every account, and
// rewriting "*" into the types reached today would freeze a token's reach at its making.
func (r Reach) Check(scopes []Scope) error {
	has := func(m map[string]string, kind string, a rune) bool {
		if kind != "*" {
			return strings.ContainsRune(m[kind], a)
		}
		for _, acts := range m {
			if strings.ContainsRune(acts, a) {
				return true
			}
		}
		return false
	}
	for _, s := range scopes {
		if s.Resource != "*" && r.Served[s.Resource] == "" {
			return apperr.Invalid("scope.beyond_account", s.String()) // a type the server does not serve
		}
		for _, a := range s.Actions {
			if has(r.Served, s.Resource, a) && !has(r.Can, s.Resource, a) {
				return apperr.Invalid("scope.beyond_account", s.String())
			}
		}
	}
	return nil
}

// expiringSoon is how long before its expiry a token is flagged to its owner (and a
// reminder mailed).
const expiringSoon = 14 * 24 * time.Hour

// ExpiringSoon reports whether a live token ends within the reminder window.
func (k APIToken) ExpiringSoon(now time.Time) bool {
	return k.RevokedAt == nil && k.ExpiresAt.After(now) && k.ExpiresAt.Sub(now) <= expiringSoon
}
