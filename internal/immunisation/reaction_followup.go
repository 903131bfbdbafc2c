package immunisation

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/patient"
)

// FollowUpInput is what is learnt of a reaction after it was recorded: the day it was reported
// to the health authority and to whom, and how it ended; at the version read.
type FollowUpInput struct {
	// A field left out keeps what the reaction says.
	ReportedOn *string `json:"reported_on"`
	ReportedTo *string `json:"reported_to"`
	Outcome    *string `json:"outcome"`
	Version    int     `json:"version"`
}

// checkReport checks a reaction's outcome and report (its day not before the onset, not in
// the future; to whom on one line).
func (s *Store) checkReport(v *apperr.Validation, onsetOn, outcome, reportedOn, reportedTo string) {
	if outcome != "" && !slices.Contains(Outcomes, outcome) {
		v.Add("outcome", "validation.invalid_choice")
	}
	switch {
	case reportedOn == "":
	case !validDate(reportedOn):
		v.Add("reported_on", "validation.date_format")
	case reportedOn > s.today():
		v.Add("reported_on", "validation.date_future")
	case reportedOn < onsetOn:
		v.Add("reported_on", "immunisation.reported_before_onset")
	}
	if utf8.RuneCountInString(reportedTo) > maxText {
		v.Add("reported_to", "validation.too_long")
	} else if !oneLine(reportedTo) {
		v.Add("reported_to", "validation.one_line")
	}
}

// ReactionFollowUp records what was learnt of reaction id after it was recorded — the day it
// was reported and to whom (a serious reaction is reported within 24 hours, often after the
// nurse recorded it: Thông tư 34/2018/TT-BYT), and its outcome as it evolves — if version is
// still its own (else a conflict). A report's day, once said, is not taken back (it is corrected
// to another day, never to none); the change is audited with what it was, and the dose takes a
// new version (FHIR's Immunization.reaction changes with it).
func (s *Store) ReactionFollowUp(ctx context.Context, e audit.Event, id int64, in FollowUpInput) (Reaction, error) {
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		x, err := s.reactionToChange(ctx, tx, id, in.Version)
		if err != nil {
			return err
		}
		// A reaction after a dose entered in error is not followed up (the dose is no one's).
		var doseStatus string
		if err := tx.QueryRowContext(ctx, `SELECT status FROM immunisations WHERE id = $1`, x.ImmunisationID).Scan(&doseStatus); err != nil {
			return fmt.Errorf("read the dose: %w", err)
		}
		if doseStatus != StatusCompleted {
			return apperr.Conflict("error.conflict")
		}
		keep := func(p *string, was string) string {
			if p == nil {
				return was
			}
			return strings.TrimSpace(*p)
		}
		reportedOn, reportedTo, outcome := keep(in.ReportedOn, x.ReportedOn), keep(in.ReportedTo, x.ReportedTo), keep(in.Outcome, x.Outcome)
		var v apperr.Validation
		s.checkReport(&v, x.OnsetOn, outcome, reportedOn, reportedTo)
		if x.ReportedOn != "" && reportedOn == "" {
			v.Add("reported_on", "immunisation.report_day_kept")
		}
		if x.Outcome != "" && outcome == "" {
			v.Add("outcome", "immunisation.outcome_kept")
		}
		if err := v.Err(); err != nil {
			return err
		}
		if reportedOn == x.ReportedOn && reportedTo == x.ReportedTo && outcome == x.Outcome {
			return nil // nothing learnt: nothing written
		}
		res, err := tx.ExecContext(ctx, `UPDATE immunisation_reactions SET reported_on = $1, reported_to = $2, outcome = $3, version = version + 1
			WHERE id = $4 AND version = $5 AND status = $6`, reportedOn, reportedTo, outcome, id, in.Version, StatusCompleted)
		if err != nil {
			return fmt.Errorf("follow up the reaction: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.Conflict("error.conflict")
		}
		return s.reactionWritten(ctx, tx, e, x, "immunisation.reaction_follow_up", fmt.Sprintf("reaction %d; reported on %q → %q; reported to %q → %q; outcome %q → %q",
			id, x.ReportedOn, reportedOn, x.ReportedTo, reportedTo, x.Outcome, outcome))
	})
	if err != nil {
		return Reaction{}, err
	}
	return s.reactionByID(ctx, id)
}

// reactionWritten follows a change of reaction x in tx: its dose takes a new version (FHIR's
// Immunization.reaction changes with it), kept as it now is, and the change is audited as
// action with detail.
func (s *Store) reactionWritten(ctx context.Context, tx *sql.Tx, e audit.Event, x Reaction, action, detail string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE immunisations SET version = version + 1, updated_at = $1, updated_by = $2 WHERE id = $3`,
		s.now().UTC(), e.Actor(), x.ImmunisationID); err != nil {
		return fmt.Errorf("version the dose: %w", err)
	}
	if err := keepVersion(ctx, tx, x.ImmunisationID); err != nil {
		return err
	}
	e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = action, "immunisation", strconv.FormatInt(x.ImmunisationID, 10), x.PatientID, audit.Success
	e.Detail = detail
	return audit.Record(ctx, tx, e)
}

// reactionToChange reads reaction id in tx to change it at version: not found, a stale version
// or one entered in error (409), or an archived patient's (read-only) refused.
func (s *Store) reactionToChange(ctx context.Context, tx *sql.Tx, id int64, version int) (Reaction, error) {
	list, err := s.reactions(ctx, tx, `r.id = $1`, id)
	if err != nil {
		return Reaction{}, err
	}
	if len(list) == 0 {
		return Reaction{}, apperr.NotFound("immunisation.reaction_not_found")
	}
	x := list[0]
	if x.Status != StatusCompleted || x.Version != version {
		return Reaction{}, apperr.Conflict("error.conflict")
	}
	return x, patient.CheckActive(ctx, tx, s.DB.Engine, x.PatientID)
}

// reactionByID reads reaction id as it now is.
func (s *Store) reactionByID(ctx context.Context, id int64) (Reaction, error) {
	list, err := s.reactions(ctx, s.DB, `r.id = $1`, id)
	if err != nil {
		return Reaction{}, err
	}
	if len(list) == 0 {
		return Reaction{}, apperr.NotFound("immunisation.reaction_not_found")
	}
	return list[0], nil
}
