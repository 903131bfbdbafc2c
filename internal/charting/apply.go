package charting

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/prescription"
	"emr/internal/result"
)

// ApplyInput is what applying a set to a visit sends: what the doctor kept of the set (each
// item may have been unchecked or edited), the set's checks with those the doctor ticked
// done, the visit's version as read, and the set it came from (none: "apply" of a hand-made
// selection). Prescription lines may carry the usual override reasons for their safety
// findings. Repeat names the tests the patient had ordered or resulted earlier that day which
// the doctor chose to order again.
type ApplyInput struct {
	SetID   *int64     `json:"set_id"`
	Version int        `json:"version"`
	Content SetContent `json:"content"`
	Repeat  []string   `json:"repeat"`
}

// Skipped is what the visit already had and the set did not add twice; Today the tests the
// patient had ordered or resulted at another visit that day, not ordered again.
type Skipped struct {
	Diagnoses []string `json:"diagnoses"`
	Orders    []string `json:"orders"`
	Today     []string `json:"today"`
	Plan      bool     `json:"plan"`
	FollowUp  bool     `json:"follow_up"`
}

// TestToday is a test the patient had ordered or resulted on the visit's day at another
// visit: an order set shows it and does not order it again unless asked to.
type TestToday struct {
	Code  string `json:"code"`
	State string `json:"state"` // ordered or resulted
}

// sameDay is what appointmentID's patient had ordered or resulted at other visits on the
// visit's day (in the clinic's time zone).
func (s *Store) sameDay(ctx context.Context, q database.Querier, appointmentID, patientID int64, day string) (map[string]string, error) {
	loc := s.Loc
	if loc == nil {
		loc = time.UTC
	}
	from, err := time.ParseInLocation(time.DateOnly, day, loc)
	if err != nil {
		return nil, fmt.Errorf("visit day %q: %w", day, err)
	}
	return result.SameDay(ctx, q, patientID, appointmentID, from, from.AddDate(0, 0, 1))
}

// TestsToday lists the tests appointment id's patient had ordered or resulted at other
// visits that day, by code.
func (s *Store) TestsToday(ctx context.Context, e audit.Event, id int64) ([]TestToday, error) {
	a, err := s.Visits.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	seen, err := s.sameDay(ctx, s.DB, id, a.PatientID, a.Day)
	if err != nil {
		return nil, err
	}
	// The patient's tests of the day are a read of their results, audited as one.
	if len(seen) > 0 {
		e.Action, e.EntityType, e.EntityID, e.Outcome, e.PatientID = "results.list", "visit", strconv.FormatInt(id, 10), audit.Success, a.PatientID
		if err := audit.Access(ctx, s.DB, e); err != nil {
			return nil, err
		}
	}
	out := make([]TestToday, 0, len(seen))
	for code, state := range seen {
		out = append(out, TestToday{Code: code, State: state})
	}
	slices.SortFunc(out, func(a, b TestToday) int { return strings.Compare(a.Code, b.Code) })
	return out, nil
}

// withoutToday leaves out of a set's orders the tests done today elsewhere that the doctor
// did not ask to repeat, and names them.
func withoutToday(orders []appointment.Order, today map[string]string, repeat []string) ([]appointment.Order, []string) {
	kept, left := []appointment.Order{}, []string{}
	for _, o := range orders {
		if today[o.Code] != "" && !slices.Contains(repeat, o.Code) {
			left = append(left, o.Code)
			continue
		}
		kept = append(kept, o)
	}
	return kept, left
}

// checkedLine is the plan's line recording the checks the doctor ticked ("" for none).
func checkedLine(lang string, checks []Check) string {
	var done []string
	for _, c := range checks {
		if c.Done {
			done = append(done, strings.TrimRight(c.Text, ".。"))
		}
	}
	if len(done) == 0 {
		return ""
	}
	sep := "; "
	if lang == "zh" {
		sep = "；"
	}
	return i18n.T(lang, "charting.checked", strings.Join(done, sep))
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
// that has none. checked (the checks the doctor ticked, in words) follows the plan.
func merge(old appointment.Content, day string, add SetContent, checked string) (appointment.Content, Skipped) {
	c := old
	c.Diagnoses = slices.Clone(old.Diagnoses)
	c.Orders = slices.Clone(old.Orders)
	sk := Skipped{Diagnoses: []string{}, Orders: []string{}, Today: []string{}}
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
	if checked != "" && !strings.Contains(c.Plan, checked) {
		c.Plan = strings.TrimLeft(strings.TrimRight(c.Plan, "\n")+"\n"+checked, "\n")
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

func ticked(checks []Check) int {
	n := 0
	for _, c := range checks {
		if c.Done {
			n++
		}
	}
	return n
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
			today, err := s.sameDay(ctx, tx, appointmentID, basics.PatientID, day)
			if err != nil {
				return old, err
			}
			add := in.Content
			var left []string
			add.Orders, left = withoutToday(add.Orders, today, in.Repeat)
			c, sk := merge(old, day, add, checkedLine(lang, in.Content.Checks))
			sk.Today = left
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
		detail := fmt.Sprintf("diagnoses %d, orders %d, lines %d, checks ticked %d", len(in.Content.Diagnoses)-len(out.Skipped.Diagnoses),
			len(in.Content.Orders)-len(out.Skipped.Orders)-len(out.Skipped.Today), len(items), ticked(in.Content.Checks))
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
