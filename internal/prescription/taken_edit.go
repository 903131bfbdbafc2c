package prescription

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/catalogue"
	"emr/internal/database"
)

// Corrections and confirmations of a recorded medicine (issue 55, M5 and m6; ADR 25). A
// correction fixes how a medicine was written down — its dose, how often, its prescriber,
// its start — never which medicine it is or where it comes from: a medicine that changed is
// one stopped (with the reason, "entered in error" among them) and another recorded, so that
// nothing the patient took leaves the list without a trace.

// sameMedicine refuses a correction that changes the medicine or its source: the check reads
// other substances (or, reading none, other words) or another catalogue entry of them.
func sameMedicine(ctx context.Context, q database.Querier, db *database.DB, old Taken, in TakenInput) error {
	if old.Source != in.Source {
		return apperr.Invalid("medication.other_medicine")
	}
	drugs, err := catalogue.DrugsFor(ctx, db, q)
	if err != nil {
		return err
	}
	r := &reader{ctx: ctx, q: q, drugs: drugs, cache: map[int64]catalogue.Medicine{}}
	was, err := r.line(Item{MedicineID: old.MedicineID, Medicine: old.Medicine})
	if err != nil {
		return err
	}
	now, err := r.line(Item{MedicineID: in.MedicineID, Medicine: in.Medicine})
	if err != nil {
		return err
	}
	a, b := slices.Clone(was.Substances), slices.Clone(now.Substances)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) || (len(a) == 0 && !sameName(was, now)) {
		return apperr.Invalid("medication.other_medicine")
	}
	return nil
}

// changeDetail says what a correction changed, old → new, for the audit.
func changeDetail(old Taken, in TakenInput) string {
	var out []string
	for _, f := range []struct{ name, was, now string }{
		{"medicine", old.Medicine, in.Medicine}, {"dose", old.Dose, in.Dose}, {"frequency", old.Frequency, in.Frequency},
		{"prescriber", old.Prescriber, in.Prescriber}, {"started", old.StartedOn, in.StartedOn},
		{"route", old.Route, in.Route}, {"indication", old.Indication, in.Indication}, {"last dose", old.LastDose, in.LastDose},
		{"adherence", old.Adherence, in.Adherence}, {"source of information", old.InfoSource, in.InfoSource},
	} {
		if f.was != f.now {
			out = append(out, fmt.Sprintf("%s %q → %q", f.name, f.was, f.now))
		}
	}
	return strings.Join(out, "; ")
}

// visitToday refuses a confirmation at a visit that is not today's: the patient says what
// they take at the visit they are at (m6).
func (s *Store) visitToday(visit appointment.Basics) error {
	if visit.StartsAt.In(s.Loc).Format(time.DateOnly) != s.today() {
		return apperr.Invalid("medication.visit_not_today")
	}
	return nil
}
