package charting

import (
	"context"
	"strconv"
	"strings"
	"time"

	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/document"
	"emr/internal/i18n"
)

// ChartValues are what a visit's snippets fill in, in the reader's language: {{age}},
// {{sex}}, {{allergies}}, {{vitals.bp}} (as saved: the editor fills it from what is typed)
// and {{last.<analyte>}} for each analyte the reader's snippets name that the patient has a
// result of.
type ChartValues struct {
	Values map[string]string `json:"values"`
}

// Values reads the chart's values for the snippets of appointment id's visit. It reads the
// patient's record, and is audited as a read of it.
func (s *Store) Values(ctx context.Context, e audit.Event, id int64, lang string) (ChartValues, error) {
	out := ChartValues{Values: map[string]string{}}
	basics, err := appointment.BasicsOf(ctx, s.DB, id)
	if err != nil {
		return out, err
	}
	p, err := s.Patients.Get(ctx, basics.PatientID)
	if err != nil {
		return out, err
	}
	out.Values["age"], out.Values["sex"], out.Values["allergies"] = document.ChartWords(lang, p, s.now().In(s.Loc))
	v, err := s.Visits.Visit(ctx, id, lang)
	if err != nil {
		return out, err
	}
	if v.Vitals.BPSystolic != nil && v.Vitals.BPDiastolic != nil {
		out.Values["vitals.bp"] = i18n.Decimal(lang, *v.Vitals.BPSystolic) + "/" + i18n.Decimal(lang, *v.Vitals.BPDiastolic)
	}
	named, err := s.analytesNamed(ctx, lang)
	if err != nil {
		return out, err
	}
	latest, err := s.Results.LatestOf(ctx, basics.PatientID, named, lang)
	if err != nil {
		return out, err
	}
	for _, l := range latest {
		text := l.Value
		if f, err := strconv.ParseFloat(l.Value, 64); err == nil {
			text = i18n.Decimal(lang, f)
		}
		if l.Unit != "" {
			text += " " + l.Unit
		}
		out.Values["last."+l.Analyte] = strings.TrimSpace(text) + " (" + l.ObservedAt.In(s.Loc).Format(time.DateOnly) + ")"
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome = "visit.chart_values.read", "visit", strconv.FormatInt(id, 10), audit.Success
	e.PatientID, e.At = basics.PatientID, s.now()
	return out, audit.Access(ctx, s.DB, e)
}
