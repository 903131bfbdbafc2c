package charting

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/prescription"
)

// ApplyInput is what applying a set to a visit sends: what the doctor kept of the set (each
// item may have been unchecked or edited), the visit's version as read, and the set it came
// from (none: "apply" of a hand-made selection). Prescription lines may carry the usual
// override reasons for their safety findings.
type ApplyInput struct {
	SetID   *int64     `json:"set_id"`
	Version int        `json:"version"`
	Content SetContent `json:"content"`
}

// Skipped is what the visit already had and the set did not add twice.
type Skipped struct {
	Diagnoses []string `json:"diagnoses"`
	Orders    []string `json:"orders"`
	Plan      bool     `json:"plan"`
	FollowUp  bool     `json:"follow_up"`
}

// Applied is the visit after a set was applied, the prescription the set's lines were
// written on (nil without lines), and what was not added twice.
type Applied struct {
	Visit        appointment.Visit          `json:"visit"`
	Prescription *prescription.Prescription `json:"prescription"`
	Skipped      Skipped                    `json:"skipped"`
}

// merge adds a set's content to a visit's, leaving out what the visit has already: a
// diagnosis of the same code (or text), a test already ordered, the same plan text, a
// follow-up date already chosen. A set's primary diagnosis stays primary only on a visit
// that has none.
func merge(old appointment.Content, day string, add SetContent) (appointment.Content, Skipped) {
	c := old
	c.Diagnoses = slices.Clone(old.Diagnoses)
	c.Orders = slices.Clone(old.Orders)
	sk := Skipped{Diagnoses: []string{}, Orders: []string{}}
	hasPrimary := slices.ContainsFunc(c.Diagnoses, func(d appointment.Diagnosis) bool { return d.Primary })
	for _, d := range add.Diagnoses {
		if slices.ContainsFunc(c.Diagnoses, func(o appointment.Diagnosis) bool {
			return (d.Code != "" && o.Code == d.Code) || (d.Code == "" && o.Code == "" && strings.EqualFold(o.Text, d.Text))
		}) {
			sk.Diagnoses = append(sk.Diagnoses, cmpOr(d.Code, d.Text))
			continue
		}
		d.Primary = d.Primary && !hasPrimary
		hasPrimary = hasPrimary || d.Primary
		c.Diagnoses = append(c.Diagnoses, d)
	}
	if !hasPrimary && len(c.Diagnoses) > 0 {
		c.Diagnoses[0].Primary = true
	}
	for _, o := range add.Orders {
		if slices.ContainsFunc(c.Orders, func(x appointment.Order) bool { return x.Code == o.Code }) {
			sk.Orders = append(sk.Orders, o.Code)
			continue
		}
		c.Orders = append(c.Orders, o)
	}
	switch {
	case add.Plan == "":
	case strings.Contains(c.Plan, add.Plan):
		sk.Plan = true
	case strings.TrimSpace(c.Plan) == "":
		c.Plan = add.Plan
	default:
		c.Plan = strings.TrimRight(c.Plan, "\n") + "\n" + add.Plan
	}
	if add.FollowUpDays > 0 {
		if c.FollowUpDate != "" {
			sk.FollowUp = true
		} else if d, err := time.Parse(time.DateOnly, day); err == nil {
			c.FollowUpDate = d.AddDate(0, 0, add.FollowUpDays).Format(time.DateOnly)
		}
	}
	return c, sk
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Apply writes what the doctor kept of a set onto an open visit in one transaction: the
// diagnoses, tests, plan and follow-up on the visit's draft (under the draft's rules and
// version), and the prescription lines as a new draft prescription of the visit, through the
// allergy, duplicate-therapy and interaction checks (a finding needs the usual audited
// override; lines already prescribed are found as duplicates). Nothing is written if any
// part is refused.
func (s *Store) Apply(ctx context.Context, e audit.Event, appointmentID int64, in ApplyInput, lang string) (Applied, error) {
	var out Applied
	// The lines go to the prescription as typed, with their override reasons (which a set
	// does not keep, so checkContent drops them from its tidied copy); the rest is the copy.
	items := in.Content.Items
	var v apperr.Validation
	if err := checkContent(ctx, s.DB, &in.Content, &v); err != nil {
		return out, err
	}
	if err := v.Err(); err != nil {
		return out, err
	}
	p := auth.PrincipalFrom(ctx)
	if len(items) > 0 && (p == nil || !p.Can(auth.WritePrescription)) {
		return out, apperr.Forbidden("charting.prescribe_forbidden")
	}
	if in.SetID != nil {
		if _, err := s.Set(ctx, *in.SetID, lang); err != nil {
			return out, err
		}
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		basics, err := appointment.BasicsOf(ctx, tx, appointmentID)
		if err != nil {
			return err
		}
		if err := s.Visits.ChangeDraft(ctx, tx, e, appointmentID, in.Version, func(old appointment.Content, day string) (appointment.Content, error) {
			c, sk := merge(old, day, in.Content)
			out.Skipped = sk
			return c, nil
		}); err != nil {
			return err
		}
		if len(items) > 0 {
			rx, err := s.Prescriptions.CreateForVisitIn(ctx, tx, e, appointmentID, basics.PatientID, prescription.Input{Items: items}, lang)
			if err != nil {
				return err
			}
			out.Prescription = &rx
		}
		e.PatientID = basics.PatientID
		detail := fmt.Sprintf("diagnoses %d, orders %d, lines %d", len(in.Content.Diagnoses)-len(out.Skipped.Diagnoses),
			len(in.Content.Orders)-len(out.Skipped.Orders), len(items))
		var setID int64
		if in.SetID != nil {
			setID = *in.SetID
			detail = fmt.Sprintf("order set %d: %s", setID, detail)
		}
		return record(ctx, tx, e, "order_set.apply", "visit", appointmentID, s.now(), detail)
	})
	if err != nil {
		return out, err
	}
	out.Visit, err = s.Visits.Visit(ctx, appointmentID, lang)
	return out, err
}
