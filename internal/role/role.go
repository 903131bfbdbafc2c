// Package role keeps the clinic's roles and which permission each holds (spec
// /administrator/roles): custom roles, the role × permission matrix, and the roles whose
// members must sign in with a second factor.
package role

import (
	"regexp"
	"strings"

	"emr/internal/apperr"
	"emr/internal/auth"
)

// Role is a role with the permissions it holds and how many accounts have it.
type Role struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Permissions []string `json:"permissions"`
	Users       int      `json:"users"`
	// RequireTwoFactor: the role's members must sign in with a second factor.
	RequireTwoFactor bool `json:"require_two_factor"`
}

// seededRoles are the roles every clinic has; they cannot be renamed or deleted.
var seededRoles = []string{auth.AdminRole, "doctor", "nurse", "receptionist"}

// rolePattern is what a custom role may be called: lower-case letters, digits, spaces,
// dashes and underscores, starting with a letter.
var rolePattern = regexp.MustCompile(`^\p{Ll}[\p{Ll}\p{N} _-]{1,39}$`)

func cleanRoleName(name string) (string, error) {
	name = strings.ToLower(strings.Join(strings.Fields(name), " "))
	var v apperr.Validation
	if !rolePattern.MatchString(name) {
		v.Add("name", "role.bad_name")
	}
	return name, v.Err()
}

// Roles is every role with the version of the role × permission matrix, which a save sends
// back so that a stale matrix is refused.
type Roles struct {
	Data    []Role `json:"data"`
	Version int    `json:"version"`
}
