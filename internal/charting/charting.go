// Package charting keeps what makes charting a routine visit fast (issue 37, ADR 34):
// order sets (diagnoses, tests, prescription lines, plan and a follow-up interval, applied to
// a visit in one transaction through the prescription's safety checks), text snippets that
// expand as the doctor types and fill from the chart, and each doctor's favourites, which
// pickers offer first. A set or a snippet is a doctor's own or the clinic's; the clinic's are
// kept by whoever may "manage clinic sets".
package charting

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/prescription"
	"emr/internal/result"
)

// Store reads and writes order sets, snippets and favourites, and applies sets to visits.
type Store struct {
	DB            *database.DB
	Codes         *catalogue.Store
	Visits        *appointment.Store
	Prescriptions *prescription.Store
	Results       *result.Store
	Patients      *patient.Store
	Loc           *time.Location
	Now           func() time.Time

	uses usesCache // each doctor's counts of the last 90 days, for a while
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Scopes of a set or a snippet.
const (
	Personal = "personal"
	Clinic   = "clinic"
)

// Limits.
const (
	maxName  = 120
	maxBody  = 4000
	maxOwned = 500 // sets or snippets one doctor (or the clinic) keeps
)

// owner is who a new or changed set or snippet belongs to: the doctor (personal) or nobody
// (the clinic's), which needs the permission to manage the clinic's.
func owner(ctx context.Context, scope string) (sql.NullInt64, error) {
	p := auth.PrincipalFrom(ctx)
	switch {
	case p == nil:
		return sql.NullInt64{}, apperr.Forbidden("auth.forbidden")
	case scope == Clinic && !p.Can(auth.ManageClinicSets):
		return sql.NullInt64{}, apperr.Forbidden("charting.clinic_forbidden")
	case scope == Clinic:
		return sql.NullInt64{}, nil
	case scope == Personal:
		return sql.NullInt64{Int64: p.UserID, Valid: true}, nil
	}
	return sql.NullInt64{}, apperr.Invalid("charting.scope")
}

// mayChange refuses a change to a set or snippet the caller does not keep: another doctor's,
// or the clinic's without the permission.
func mayChange(ctx context.Context, ownerID sql.NullInt64) error {
	p := auth.PrincipalFrom(ctx)
	switch {
	case p == nil:
		return apperr.Forbidden("auth.forbidden")
	case !ownerID.Valid && !p.Can(auth.ManageClinicSets):
		return apperr.Forbidden("charting.clinic_forbidden")
	case ownerID.Valid && ownerID.Int64 != p.UserID:
		return apperr.NotFound("charting.not_found") // another doctor's is not there for you
	}
	return nil
}

func scopeOf(ownerID sql.NullInt64) string {
	if ownerID.Valid {
		return Personal
	}
	return Clinic
}

// checkName trims a name and checks its length.
func checkName(field, s string, v *apperr.Validation) string {
	s = strings.Join(strings.Fields(s), " ")
	switch {
	case s == "":
		v.Add(field, "validation.required")
	case utf8.RuneCountInString(s) > maxName:
		v.Add(field, "validation.too_long")
	}
	return s
}

// checkLanguage checks a language ("" is any).
func checkLanguage(lang string, v *apperr.Validation) {
	if lang != "" && !slices.Contains(i18n.Languages, lang) {
		v.Add("language", "charting.language")
	}
}

// countOwned refuses one more than maxOwned rows of table for ownerID.
func countOwned(ctx context.Context, tx *sql.Tx, query string, ownerID sql.NullInt64) error {
	var n int
	if err := tx.QueryRowContext(ctx, query, ownerID.Int64, ownerID.Valid).Scan(&n); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	if n >= maxOwned {
		return apperr.Conflict("charting.too_many", maxOwned)
	}
	return nil
}

func record(ctx context.Context, tx *sql.Tx, e audit.Event, action, entity string, id int64, at time.Time, detail string) error {
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At, e.Detail = action, entity, strconv.FormatInt(id, 10), audit.Success, at, detail
	return audit.Record(ctx, tx, e)
}
