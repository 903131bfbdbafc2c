package immunisation

import (
	"bytes"
	"cmp"
	"context"
	_ "embed"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/appointment"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/patient"
)

// The safety check at the point of giving (issue 59 §3): a live vaccine against pregnancy and
// immunosuppression (the screening's answers, the diagnoses of the patient's visits, the
// medicines taken now — which codes count is safety_conditions.tsv, with its sources); a
// vaccine's components against the patient's allergies, read as the medicine-safety check
// reads them (catalogue Allergen and Judge: an egg allergy concerns only a vaccine whose
// components hold egg); an antigen contraindicated or refused on the record; a dose too early
// too close or too late by the forecast; an expired lot; the same vaccine given the same day.

// Finding codes.
const (
	FindLivePregnancy    = "live_pregnancy"
	FindLiveImmunosupp   = "live_immunosuppressed"
	FindComponentAllergy = "component_allergy"
	FindExpiredLot       = "expired_lot"
	FindContraindicated  = "contraindicated"
	FindRefused          = "refused"
	// FindDeferred: a deferral of the vaccine's antigens says to come back on a later day.
	FindDeferred       = "deferred"
	FindTooEarly       = "too_early"
	FindTooClose       = "too_close"
	FindTooLate        = "too_late" // past the series' maximum age (rotavirus): added to the contract's codes
	FindDuplicateToday = "duplicate_today"
	// An anaphylaxis recorded after an earlier dose sharing an antigen (stop); a seizure or a
	// hypotonic-hyporesponsive episode after a pertussis-containing dose (warn: a precaution
	// for the next pertussis dose, ACIP General Best Practice Guidelines, Table 4-1).
	FindPreviousAnaphylaxis = "previous_anaphylaxis"
	FindPreviousReaction    = "previous_reaction"
	// FindProductAge: the product is not given at the person's age (vaccines.tsv min_age,
	// max_age): yellow fever at 2 months, DTwP at 10 years.
	FindProductAge = "product_age"
	// FindWrongVaccine: the dose the schedule expects is not given with this product (bOPV
	// where an IPV dose is due): the dose would not count.
	FindWrongVaccine = "wrong_vaccine"
	// FindLiveInterval: a live injectable vaccine under 28 days after another (not the same
	// day): it would not count.
	FindLiveInterval    = "live_interval"
	SeverityStop        = "stop"
	SeverityWarn        = "warn"
	conditionPregnancy  = "pregnancy"
	conditionImmunosupp = "immunosuppression"
	maxVisitsRead       = 500
)

// Finding is one thing the person giving a vaccine must see first.
type Finding struct {
	Code      string `json:"code"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
	Vaccine   string `json:"vaccine"`
	Antigen   string `json:"antigen,omitempty"`
	Substance string `json:"substance,omitempty"`
	// Deferrable: a passing reason (Deferrable) the dose may be deferred for, not a
	// contraindication.
	Deferrable bool `json:"deferrable,omitempty"`
}

//go:embed safety_conditions.tsv
var conditionsTSV []byte

// condition is a row of safety_conditions.tsv.
type condition struct {
	name, system string
	codes        []string // prefixes, or ranges "O00-O9A" of three-character categories
	// window: days a visit's diagnosis counts for (0: for good); for a medicine (atc), days
	// after it was stopped that it still counts (0: only while taken).
	window   int
	severity string
}

var conditions = mustReadConditions()

// MedicineLookback is how far back the check needs a patient's stopped medicines: the longest
// wait after stopping one (safety_conditions.tsv, atc rows).
var MedicineLookback = func() time.Duration {
	days := 0
	for _, c := range conditions {
		if c.system == "atc" && c.window > days {
			days = c.window
		}
	}
	return time.Duration(days) * 24 * time.Hour
}()

func mustReadConditions() []condition {
	r := csv.NewReader(bytes.NewReader(conditionsTSV))
	r.Comma, r.FieldsPerRecord = '\t', 6
	recs, err := r.ReadAll()
	if err != nil || len(recs) < 2 {
		panic(fmt.Sprintf("safety_conditions.tsv: %v", err))
	}
	var out []condition
	for _, rec := range recs[1:] {
		c := condition{name: rec[0], system: rec[1], codes: strings.Split(rec[2], "|"), severity: rec[4]}
		if _, err := fmt.Sscan(rec[3], &c.window); err != nil || rec[5] == "" || (c.severity != SeverityStop && c.severity != SeverityWarn) ||
			(c.name != conditionPregnancy && c.name != conditionImmunosupp) || (c.system != "icd10" && c.system != "atc") {
			panic(fmt.Sprintf("safety_conditions.tsv: row %v", rec))
		}
		out = append(out, c)
	}
	return out
}

// normCode is an ICD-10 code without its dot, upper case: "O09.9" → "O099".
func normCode(c string) string {
	return strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(c), ".", ""))
}

// matches reports whether code falls under one of the condition's codes.
func (c condition) matches(code string) bool {
	code = normCode(code)
	for _, p := range c.codes {
		if lo, hi, ok := strings.Cut(p, "-"); ok {
			if len(code) >= 3 && code[:3] >= normCode(lo) && code[:3] <= normCode(hi) {
				return true
			}
		} else if strings.HasPrefix(code, normCode(p)) {
			return true
		}
	}
	return false
}

// CurrentMedicine is a medicine the patient takes now with its ATC codes (the prescription
// package's current medicines, given to the Store by the server).
type CurrentMedicine struct {
	Medicine string
	ATC      []string
	// Until: the last day it was taken, when stopped (or its supply ran out) within
	// MedicineLookback; empty while it is taken.
	Until string
}

// facts is what a check reads of the patient.
type facts struct {
	records   []Record
	allergies []patient.Allergy
	// diagnoses of the patient's visits: code and day.
	diagnoses []struct{ code, day string }
	medicines []CurrentMedicine
	// reactions recorded after the patient's doses (completed ones).
	reactions []Reaction
}

// readFacts reads what the check of a dose for child c needs: the record, its reactions and the
// allergies always; the visits' diagnoses and the medicines (current, and stopped within the
// longest wait after one) only for a live vaccine, the only one the conditions they tell
// (pregnancy, immunosuppression) concern.
func (s *Store) readFacts(ctx context.Context, q database.Querier, c child, live bool) (facts, error) {
	var f facts
	var err error
	if f.records, err = s.records(ctx, q, `patient_id = $1 AND status = $2`, "en", c.id, StatusCompleted); err != nil {
		return f, err
	}
	if f.reactions, err = s.reactions(ctx, q, `r.patient_id = $1 AND r.status = $2`, c.id, StatusCompleted); err != nil {
		return f, err
	}
	if f.allergies, _, err = patient.Allergies(ctx, q, c.id); err != nil {
		return f, err
	}
	if !live {
		return f, nil
	}
	visits, err := appointment.RecordsIn(ctx, q, appointment.RecordFilter{PatientID: c.id, WithVisit: true, Descending: true, Limit: maxVisitsRead})
	if err != nil {
		return f, err
	}
	for _, v := range visits {
		if v.Content == nil {
			continue
		}
		for _, d := range v.Content.Diagnoses {
			if d.Code != "" {
				f.diagnoses = append(f.diagnoses, struct{ code, day string }{d.Code, v.Day})
			}
		}
	}
	if s.Medicines != nil {
		if f.medicines, err = s.Medicines(ctx, q, c.id, s.now()); err != nil {
			return f, err
		}
	}
	return f, nil
}

// daysBefore is the calendar day n days before day (YYYY-MM-DD).
func daysBefore(day string, n int) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.AddDate(0, 0, -n).Format(time.DateOnly)
}

// condition reads whether the patient has a condition on day: the strongest severity of the
// diagnoses and medicines that say so, and what said it (a code or a medicine).
func (f facts) condition(name, day string) (severity, what string) {
	for _, c := range conditions {
		if c.name != name || severity == SeverityStop && c.severity == SeverityWarn {
			continue
		}
		found := ""
		switch c.system {
		case "icd10":
			from := ""
			if c.window > 0 {
				from = daysBefore(day, c.window)
			}
			for _, d := range f.diagnoses {
				if d.day >= from && d.day <= day && c.matches(d.code) {
					found = strings.ToUpper(d.code)
					break
				}
			}
		case "atc":
			for _, m := range f.medicines {
				if m.Until != "" && m.Until < daysBefore(day, c.window) {
					continue // stopped longer ago than the wait after it
				}
				if slices.ContainsFunc(m.ATC, func(a string) bool {
					return slices.ContainsFunc(c.codes, func(p string) bool { return strings.HasPrefix(a, p) })
				}) {
					found = m.Medicine
					break
				}
			}
		}
		if found != "" && (severity == "" || c.severity == SeverityStop) {
			severity, what = c.severity, found
		}
	}
	return severity, what
}

// findings checks a dose given here (in, for child c) against the record and the patient.
func (s *Store) findings(ctx context.Context, q database.Querier, c child, in RecordInput, lang string) ([]Finding, error) {
	out := []Finding{}
	cat := s.catalogue()
	v, ok := cat.Vaccine(in.Vaccine, lang)
	if !ok {
		return out, nil
	}
	f, err := s.readFacts(ctx, q, c, v.Live)
	if err != nil {
		return nil, err
	}
	add := func(code, severity, key string, args ...any) *Finding {
		out = append(out, Finding{Code: code, Severity: severity, Vaccine: v.Key, Message: i18n.T(lang, key, args...), Deferrable: slices.Contains(Deferrable, code)})
		return &out[len(out)-1]
	}
	day := in.OccurredOn
	if in.Expiry != "" && in.Expiry < day {
		add(FindExpiredLot, SeverityStop, "immunisation.finding.expired_lot", shownDay(lang, in.Expiry))
	}
	if v.Live {
		switch sev, what := f.condition(conditionPregnancy, day); {
		case in.Screening.Pregnant != nil && *in.Screening.Pregnant:
			add(FindLivePregnancy, SeverityStop, "immunisation.finding.live_pregnancy_screening", v.Name)
		case sev != "":
			add(FindLivePregnancy, sev, "immunisation.finding.live_pregnancy_diagnosis", v.Name, what)
		}
		sev, what := f.condition(conditionImmunosupp, day)
		switch {
		case in.Screening.Immunosuppressed != nil && *in.Screening.Immunosuppressed:
			add(FindLiveImmunosupp, SeverityStop, "immunisation.finding.live_immunosuppressed_screening", v.Name)
		case sev != "" && slices.ContainsFunc(f.medicines, func(m CurrentMedicine) bool { return m.Medicine == what && (m.Until == "" || m.Until >= day) }):
			// taken on the day (a refill of one whose earlier supply ran out too)
			add(FindLiveImmunosupp, sev, "immunisation.finding.live_immunosuppressed_medicine", v.Name, what)
		case sev != "" && slices.ContainsFunc(f.medicines, func(m CurrentMedicine) bool { return m.Medicine == what }):
			until := f.medicines[slices.IndexFunc(f.medicines, func(m CurrentMedicine) bool { return m.Medicine == what })].Until
			add(FindLiveImmunosupp, sev, "immunisation.finding.live_immunosuppressed_stopped", v.Name, what, shownDay(lang, until))
		case sev != "":
			add(FindLiveImmunosupp, sev, "immunisation.finding.live_immunosuppressed_diagnosis", v.Name, what)
		}
	}
	settings, err := ReadSettings(ctx, q)
	if err != nil {
		return nil, err
	}
	first := ""
	if len(settings.Schedules) > 0 {
		first = settings.Schedules[0]
	}
	screeningFindings(in.Screening, v, c.Child.BirthDate, day, first, FeverFrom(cat, first), lang, add)
	if err := s.allergyFindings(ctx, q, v, f, lang, add); err != nil {
		return nil, err
	}
	reactionFindings(cat, v, f, lang, add)
	antigens := map[string]string{}
	for _, a := range cat.Antigens(lang) {
		antigens[a.Key] = a.Name
	}
	var doses []Dose
	duplicate := false
	for _, r := range f.records {
		switch r.Kind {
		case KindGiven, KindElsewhere:
			doses = append(doses, Dose{ID: r.ID, Vaccine: r.Vaccine, On: r.OccurredOn, LowWeight: r.Screening.WeightUnder2000g != nil && *r.Screening.WeightUnder2000g})
			if r.Vaccine == v.Key && r.OccurredOn == day && !duplicate {
				duplicate = true
				add(FindDuplicateToday, SeverityStop, "immunisation.finding.duplicate_today", v.Name, shownDay(lang, day))
			}
		case KindDeferred:
			// A deferral whose day to come back is still to come (a fever that has passed sooner):
			// a warning, passed with a reason.
			if r.OccurredOn > day || r.UntilOn <= day || !sharesAntigen(cat, r, v) {
				continue
			}
			what := i18n.T(lang, "immunisation.every_vaccine")
			if rv, ok := cat.Vaccine(r.Vaccine, lang); ok {
				what = rv.Name
			} else if r.Antigen != "" {
				what = cmp.Or(antigens[r.Antigen], r.Antigen)
			}
			add(FindDeferred, SeverityWarn, "immunisation.finding.deferred", what, shownDay(lang, r.OccurredOn), shownDay(lang, r.UntilOn), r.Reason)
		case KindContraindicated, KindRefused:
			if !slices.Contains(v.Antigens, r.Antigen) || r.OccurredOn > day || r.UntilOn != "" && r.UntilOn < day {
				continue
			}
			name := antigens[r.Antigen]
			if name == "" {
				name = r.Antigen
			}
			if r.Kind == KindContraindicated {
				add(FindContraindicated, SeverityStop, "immunisation.finding.contraindicated", name, shownDay(lang, r.OccurredOn), r.Reason).Antigen = r.Antigen
			} else {
				add(FindRefused, SeverityWarn, "immunisation.finding.refused", name, shownDay(lang, r.OccurredOn), r.Reason).Antigen = r.Antigen
			}
		}
	}
	// The dose as the forecast would read it, on its day, among the record's.
	// A product outside the ages it may be given at (yellow fever at 2 months, DTwP at 10
	// years) stops, whatever the schedules say.
	if !cat.FitsAge(v.Key, c.Child.BirthDate, day) {
		add(FindProductAge, SeverityStop, "immunisation.finding.product_age", v.Name)
	}
	seen := map[string]bool{}
	for _, e := range cat.Evaluate(settings.Schedules, c.Child, doses, Dose{Vaccine: v.Key, On: day, LowWeight: in.Screening.WeightUnder2000g != nil && *in.Screening.WeightUnder2000g}) {
		if e.Valid || seen[e.Reason+e.Antigen] {
			continue
		}
		if e.Reason != FindTooEarly && e.Reason != FindTooClose && e.Reason != FindTooLate && e.Reason != FindWrongVaccine && e.Reason != FindLiveInterval {
			continue
		}
		seen[e.Reason+e.Antigen] = true
		name := antigens[e.Antigen]
		if name == "" {
			name = e.Antigen
		}
		add(e.Reason, SeverityWarn, "immunisation.finding."+e.Reason, name).Antigen = e.Antigen
	}
	return out, nil
}

// allergyFindings judges the vaccine's components against each recorded allergy, as the
// medicine-safety check judges a medicine's substances and excipients: a severe reaction
// (anaphylaxis) stops, another warns.
func (s *Store) allergyFindings(ctx context.Context, q database.Querier, v Vaccine, f facts, lang string, add func(code, severity, key string, args ...any) *Finding) error {
	if len(f.allergies) == 0 {
		return nil
	}
	drugs, err := catalogue.DrugsFor(ctx, s.DB, q)
	if err != nil {
		return err
	}
	name := v.Name
	if en, ok := v.Names["en"]; ok && en != "" {
		name = en
	}
	profile := drugs.Line(name, nil, v.ATC).WithExcipients(drugs.Components(v.Components))
	for _, a := range f.allergies {
		// An allergy to a vaccine by its name, in any language (one listed after an anaphylaxis
		// names the product as its recorder read it), sharing an antigen with this one.
		if other, ok := vaccineNamed(s.catalogue(), a.Substance); ok && slices.ContainsFunc(other.Antigens, func(x string) bool { return slices.Contains(v.Antigens, x) }) {
			sev := SeverityWarn
			if catalogue.ReadReaction(a.Severity, a.Reaction, a.Substance).Severe {
				sev = SeverityStop
			}
			what := other.Name
			if named, ok := s.catalogue().Vaccine(other.Key, lang); ok {
				what = named.Name
			}
			add(FindComponentAllergy, sev, "immunisation.finding.component_allergy", v.Name, what, a.Substance).Substance = other.Key
			continue
		}
		al := drugs.Allergen(a.Substance)
		if al.Negated {
			continue
		}
		reaction := catalogue.ReadReaction(a.Severity, a.Reaction, a.Substance)
		m, ok := drugs.Judge(al, reaction, profile)
		if !ok {
			continue
		}
		what := m.Key
		switch m.Kind {
		case "excipient", "substance":
			what = drugs.ComponentName(m.Key, lang)
		case "class", "vague":
			if c := drugs.Class(m.Key); c != nil {
				what = c.Names.In(lang)
			}
		}
		sev := SeverityWarn
		if reaction.Severe {
			sev = SeverityStop
		}
		add(FindComponentAllergy, sev, "immunisation.finding.component_allergy", v.Name, what, a.Substance).Substance = what
	}
	return nil
}

// reactionFindings: a reaction recorded after an earlier dose that shares an antigen with this
// vaccine — an anaphylaxis stops it; a seizure or a hypotonic-hyporesponsive episode after a
// pertussis-containing dose warns before the next pertussis dose.
func reactionFindings(cat vaccines, v Vaccine, f facts, lang string, add func(code, severity, key string, args ...any) *Finding) {
	given := map[int64]Record{}
	for _, r := range f.records {
		given[r.ID] = r
	}
	seen := map[string]bool{}
	for _, h := range f.reactions {
		r, ok := given[h.ImmunisationID]
		if !ok {
			continue
		}
		before, _ := cat.Vaccine(r.Vaccine, lang)
		shared := slices.ContainsFunc(v.Antigens, func(a string) bool { return slices.Contains(before.Antigens, a) })
		switch {
		case !shared:
		case slices.Contains(contraindicatingReactions, h.Reaction) && !seen["a"+before.Key]:
			seen["a"+before.Key] = true
			add(FindPreviousAnaphylaxis, SeverityStop, "immunisation.finding.previous_anaphylaxis", v.Name, before.Name, shownDay(lang, r.OccurredOn))
		case (h.Reaction == "seizure" || h.Reaction == "hhe") && slices.Contains(v.Antigens, "pertussis") &&
			slices.Contains(before.Antigens, "pertussis") && !seen["r"+before.Key]:
			seen["r"+before.Key] = true
			add(FindPreviousReaction, SeverityWarn, "immunisation.finding.previous_reaction", v.Name, before.Name, shownDay(lang, r.OccurredOn))
		}
	}
}

// vaccineNamed is the catalogue's vaccine whose name, in any language, is text (case and spaces
// aside).
func vaccineNamed(cat vaccines, text string) (Vaccine, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return Vaccine{}, false
	}
	for _, v := range cat.Vaccines("en") {
		if namesVaccine(cat, text, v.Key) {
			return v, true
		}
	}
	return Vaccine{}, false
}

// namesVaccine says whether text is vaccine key's name in one of the languages.
func namesVaccine(cat vaccines, text, key string) bool {
	v, ok := cat.Vaccine(key, "en")
	if !ok {
		return false
	}
	text = strings.TrimSpace(text)
	for _, lang := range Languages {
		if n, ok := cat.Vaccine(key, lang); ok && strings.EqualFold(strings.TrimSpace(n.Name), text) {
			return true
		}
	}
	return strings.EqualFold(v.Key, text)
}

// sharesAntigen says whether a record (its antigen, or its vaccine's antigens) concerns one
// of vaccine v's antigens.
func sharesAntigen(cat vaccines, r Record, v Vaccine) bool {
	if r.Antigen == "" && r.Vaccine == "" { // a deferral of every vaccine
		return true
	}
	if r.Antigen != "" {
		return slices.Contains(v.Antigens, r.Antigen)
	}
	rv, ok := cat.Vaccine(r.Vaccine, "en")
	return ok && slices.ContainsFunc(rv.Antigens, func(a string) bool { return slices.Contains(v.Antigens, a) })
}

// shownDay is a calendar day as a finding's reader writes it (01.05.2026, 2026年5月1日,
// 01/05/2026, 1 May 2026); a text that is not a day is shown as it is.
func shownDay(lang, day string) string {
	t, err := time.Parse(time.DateOnly, day)
	switch {
	case err != nil:
		return day
	case lang == "ru" || lang == "zh" || lang == "vi":
		return messageDate(lang, t)
	}
	return t.Format("2 Jan 2006")
}
