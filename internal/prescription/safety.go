package prescription

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/patient"
)

// The medicine-safety check (docs/adr/0015): every line is checked against the patient's
// recorded allergies (by substance and by drug class, with the known cross-sensitivities)
// and against the other lines and the patient's other prescriptions of the last 30 days
// (duplicate therapy). Each finding must be acknowledged on its line with a reason before
// the prescription is saved or issued; the acknowledgement is stored with the line, printed
// nowhere, and audited.

// Kinds of finding.
const (
	FindAllergy   = "allergy"           // the line contains the allergen or a member of its class
	FindSameClass = "allergy_class"     // the allergen substance and the line share a class
	FindCross     = "cross_sensitivity" // the line's class may cross-react with the allergen's
	FindDuplicate = "duplicate"         // another line of this prescription
	FindRecent    = "duplicate_recent"  // one of the patient's prescriptions of the last 30 days
	// FindUnrecorded: nobody has recorded whether the patient has allergies, so the check
	// above proves nothing. Said once, on the first line.
	FindUnrecorded  = "allergies_unrecorded"
	keyUnrecorded   = "allergy:not-recorded"
	recentDays      = 30
	maxReasonLength = 500
)

// Finding is one thing about a line that the prescriber must see before it is given.
type Finding struct {
	Line int `json:"line"`
	// Key names the finding stably; an override lists the keys it acknowledges.
	Key  string `json:"key"`
	Kind string `json:"kind"`
	// Blocking is set for an allergy recorded as severe.
	Blocking bool   `json:"blocking"`
	Allergy  string `json:"allergy,omitempty"`
	Severity string `json:"severity,omitempty"`
	Reaction string `json:"reaction,omitempty"`
	// Substance and Class name, in the user's language, what the line shares with the
	// allergy or the other medicine.
	Substance string `json:"substance,omitempty"`
	Class     string `json:"class,omitempty"`
	// The other line (0-based) or prescription of a duplicate.
	OtherLine         *int   `json:"other_line,omitempty"`
	OtherPrescription *int64 `json:"other_prescription_id,omitempty"`
	OtherMedicine     string `json:"other_medicine,omitempty"`
	OtherDate         string `json:"other_date,omitempty"`
	// Overridden is set when the line acknowledges this finding with a reason.
	Overridden bool `json:"overridden"`
}

// lineDrugs is what a line is made of.
type lineDrugs struct {
	medicine string
	catalogue.Profile
}

// atcGroups are the chemical subgroups (ATC level 4: J01CA) of a profile's codes.
func atcGroups(p catalogue.Profile) []string {
	var out []string
	for _, c := range p.ATC {
		if len(c) >= 5 && !slices.Contains(out, c[:5]) {
			out = append(out, c[:5])
		}
	}
	return out
}

// shared names what two lines have in common: a substance, a class or an ATC subgroup.
func shared(a, b catalogue.Profile) (kind, key string) {
	for _, s := range a.Substances {
		if slices.Contains(b.Substances, s) {
			return "substance", s
		}
	}
	for _, c := range a.Classes {
		if slices.Contains(b.Classes, c) {
			return "class", c
		}
	}
	for _, g := range atcGroups(a) {
		if slices.Contains(atcGroups(b), g) {
			return "atc", g
		}
	}
	return "", ""
}

// recentRx is another prescription of the patient, for duplicate therapy.
type recentRx struct {
	id    int64
	date  string
	lines []lineDrugs
}

// safetyInput is everything a check needs.
type safetyInput struct {
	allergies []patient.Allergy
	// unrecorded: the patient's allergies have never been asked about.
	unrecorded bool
	lines      []lineDrugs
	recent     []recentRx
}

// allergyFacts is what is known of a patient's allergies: the list and the status.
type allergyFacts struct {
	list   []patient.Allergy
	status string
}

// describer names substances and classes in the user's language.
type describer struct {
	drugs *catalogue.Drugs
	lang  string
}

func (d describer) substance(key string) string {
	if s := d.drugs.Substance(key); s != nil {
		return s.Names.In(d.lang)
	}
	return key
}

func (d describer) class(key string) string {
	if c := d.drugs.Class(key); c != nil {
		return c.Names.In(d.lang)
	}
	return key
}

func (d describer) sharedName(kind, key string) (substance, class string) {
	switch kind {
	case "substance":
		return d.substance(key), ""
	case "class":
		return "", d.class(key)
	}
	return "", key
}

// check finds what every line must acknowledge.
func check(in safetyInput, d describer) []Finding {
	out := []Finding{}
	drugs := d.drugs
	if in.unrecorded && len(in.lines) > 0 {
		out = append(out, Finding{Line: 0, Kind: FindUnrecorded, Key: keyUnrecorded})
	}
	for i, line := range in.lines {
		for _, a := range in.allergies {
			al := drugs.Allergen(a.Substance)
			f := Finding{Line: i, Allergy: a.Substance, Severity: a.Severity, Reaction: a.Reaction}
			base := "allergy:" + strings.Join(strings.Fields(strings.ToLower(a.Substance)), " ") + ":"
			switch {
			case slices.ContainsFunc(al.Classes, func(c string) bool { return slices.Contains(line.Classes, c) }):
				c := al.Classes[slices.IndexFunc(al.Classes, func(c string) bool { return slices.Contains(line.Classes, c) })]
				f.Kind, f.Key, f.Class = FindAllergy, base+"class:"+c, d.class(c)
			case al.Substance != "" && slices.Contains(line.Substances, al.Substance):
				f.Kind, f.Key, f.Substance = FindAllergy, base+"substance:"+al.Substance, d.substance(al.Substance)
			case slices.ContainsFunc(al.SubstanceClasses, func(c string) bool { return slices.Contains(line.Classes, c) }):
				c := al.SubstanceClasses[slices.IndexFunc(al.SubstanceClasses, func(c string) bool { return slices.Contains(line.Classes, c) })]
				f.Kind, f.Key, f.Class = FindSameClass, base+"class:"+c, d.class(c)
			default:
				for _, ac := range append(slices.Clone(al.Classes), al.SubstanceClasses...) {
					cls := drugs.Class(ac)
					if cls == nil {
						continue
					}
					if i := slices.IndexFunc(cls.Cross, func(c string) bool { return slices.Contains(line.Classes, c) }); i >= 0 {
						f.Kind, f.Key, f.Class = FindCross, base+"cross:"+cls.Cross[i], d.class(cls.Cross[i])
						break
					}
				}
			}
			if f.Kind == "" {
				continue
			}
			f.Blocking = f.Kind != FindCross && a.Severity == "severe"
			out = append(out, f)
		}
		for j := range i {
			if kind, key := shared(line.Profile, in.lines[j].Profile); kind != "" {
				j := j
				f := Finding{Line: i, Kind: FindDuplicate, Key: "duplicate:" + kind + ":" + key, OtherLine: &j, OtherMedicine: in.lines[j].medicine}
				f.Substance, f.Class = d.sharedName(kind, key)
				out = append(out, f)
				break
			}
		}
		for _, rx := range in.recent {
			for _, other := range rx.lines {
				if kind, key := shared(line.Profile, other.Profile); kind != "" {
					id := rx.id
					f := Finding{Line: i, Kind: FindRecent, Key: fmt.Sprintf("recent:%d:%s:%s", rx.id, kind, key), OtherPrescription: &id,
						OtherMedicine: other.medicine, OtherDate: rx.date}
					f.Substance, f.Class = d.sharedName(kind, key)
					out = append(out, f)
					break
				}
			}
		}
	}
	return out
}

// acknowledge marks the findings each line's override covers.
func acknowledge(findings []Finding, items []Item) {
	for i := range findings {
		f := &findings[i]
		if f.Line < len(items) {
			it := items[f.Line]
			f.Overridden = it.OverrideReason != "" && slices.Contains(it.Overrides, f.Key)
		}
	}
}

// requireOverrides refuses lines whose findings are not all acknowledged with a reason.
func requireOverrides(findings []Finding) error {
	var v apperr.Validation
	seen := map[int]bool{}
	for _, f := range findings {
		if !f.Overridden && !seen[f.Line] {
			seen[f.Line] = true
			v.Add("items."+strconv.Itoa(f.Line)+".override_reason", "prescription.override_required")
		}
	}
	return v.Err()
}

// settleOverrides keeps on each line exactly the keys of its current findings, so that a
// stored override never covers a finding its reason did not see.
func settleOverrides(items []Item, findings []Finding) {
	for i := range items {
		keys := []string{}
		for _, f := range findings {
			if f.Line == i {
				keys = append(keys, f.Key)
			}
		}
		if len(keys) == 0 {
			items[i].OverrideReason = ""
		}
		items[i].Overrides = keys
	}
}

// reader gathers what a check needs from the database.
type reader struct {
	ctx   context.Context
	q     database.Querier
	drugs *catalogue.Drugs
	cache map[int64]catalogue.Medicine
}

func (r *reader) line(it Item) (lineDrugs, error) {
	var ingredients []string
	var atc string
	text := it.Medicine
	if it.MedicineID != nil {
		m, ok := r.cache[*it.MedicineID]
		if !ok {
			var err error
			if m, err = catalogue.GetMedicine(r.ctx, r.q, *it.MedicineID); err != nil && !errors.Is(err, apperr.ErrNotFound) {
				return lineDrugs{}, err
			}
			r.cache[*it.MedicineID] = m
		}
		ingredients, atc = catalogue.Ingredients(m.Ingredients), m.ATC
		text += " " + m.GenericName
	}
	return lineDrugs{medicine: it.Medicine, Profile: r.drugs.Line(text, ingredients, atc)}, nil
}

func (r *reader) lines(items []Item) ([]lineDrugs, error) {
	out := make([]lineDrugs, 0, len(items))
	for _, it := range items {
		l, err := r.line(it)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// recent reads the patient's prescriptions that were not cancelled, written or issued in
// the last 30 days, but for the one being checked.
func (r *reader) recent(patientID, except int64, now time.Time, loc *time.Location) ([]recentRx, error) {
	rows, err := r.q.QueryContext(r.ctx, `SELECT id, items, issued_at, created_at FROM prescriptions
		WHERE patient_id = $1 AND status <> $2 AND id <> $3 AND (created_at >= $4 OR issued_at >= $4) ORDER BY id DESC LIMIT 50`,
		patientID, Cancelled, except, now.AddDate(0, 0, -recentDays))
	if err != nil {
		return nil, fmt.Errorf("read recent prescriptions: %w", err)
	}
	type raw struct {
		id    int64
		items string
		at    time.Time
	}
	var got []raw
	for rows.Next() {
		var x raw
		var issued sql.NullTime
		if err := rows.Scan(&x.id, &x.items, &issued, &x.at); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read recent prescription: %w", err)
		}
		if issued.Valid {
			x.at = issued.Time
		}
		got = append(got, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]recentRx, 0, len(got))
	for _, x := range got {
		var items []Item
		if err := json.Unmarshal([]byte(x.items), &items); err != nil {
			return nil, fmt.Errorf("read prescription %d items: %w", x.id, err)
		}
		lines, err := r.lines(items)
		if err != nil {
			return nil, err
		}
		out = append(out, recentRx{id: x.id, date: x.at.In(loc).Format(time.DateOnly), lines: lines})
	}
	return out, nil
}

// findings checks items for patientID (0: a blank pad, with no allergies or history to
// check against), leaving out prescription except. allergies are the patient's when the
// caller has read them already (nil: read here).
func (s *Store) findings(ctx context.Context, q database.Querier, patientID, except int64, items []Item, allergies *allergyFacts, lang string) ([]Finding, error) {
	r := &reader{ctx: ctx, q: q, drugs: catalogue.KnownDrugs, cache: map[int64]catalogue.Medicine{}}
	var in safetyInput
	var err error
	if in.lines, err = r.lines(items); err != nil {
		return nil, err
	}
	if patientID != 0 {
		if allergies == nil {
			allergies = &allergyFacts{}
			if allergies.list, allergies.status, err = patient.Allergies(ctx, q, patientID); err != nil {
				return nil, err
			}
		}
		in.allergies, in.unrecorded = allergies.list, allergies.status == patient.AllergiesNotAsked
		if in.recent, err = r.recent(patientID, except, s.now(), s.Loc); err != nil {
			return nil, err
		}
	}
	out := check(in, describer{drugs: r.drugs, lang: lang})
	acknowledge(out, items)
	return out, nil
}

// CheckInput is what the editor sends to check lines as they are written.
type CheckInput struct {
	PatientID      *int64 `json:"patient_id"`
	AppointmentID  *int64 `json:"appointment_id"`
	PrescriptionID *int64 `json:"prescription_id"`
	Items          []Item `json:"items"`
}

// CheckResult is the findings of a check and the allergies they were checked against.
type CheckResult struct {
	PatientID     *int64            `json:"patient_id"`
	Allergies     []patient.Allergy `json:"allergies"`
	AllergyStatus string            `json:"allergy_status,omitempty"`
	Findings      []Finding         `json:"findings"`
}

// Check checks lines being written, before they are saved: for the patient of the
// appointment, of the prescription, or named.
func (s *Store) Check(ctx context.Context, in CheckInput, lang string) (CheckResult, error) {
	res := CheckResult{Allergies: []patient.Allergy{}, Findings: []Finding{}}
	var v apperr.Validation
	items := checkItemsLoosely(in.Items, &v)
	if err := v.Err(); err != nil {
		return res, err
	}
	var except int64
	switch {
	case in.PrescriptionID != nil:
		rx, err := s.get(ctx, s.DB, *in.PrescriptionID)
		if err != nil {
			return res, err
		}
		except, res.PatientID = rx.ID, rx.PatientID
		if rx.Kind == KindBlank {
			res.PatientID = in.PatientID
		}
	case in.AppointmentID != nil:
		visit, err := appointment.BasicsOf(ctx, s.DB, *in.AppointmentID)
		if err != nil {
			return res, err
		}
		res.PatientID = &visit.PatientID
	default:
		res.PatientID = in.PatientID
	}
	var pid int64
	var facts *allergyFacts
	if res.PatientID != nil {
		pid = *res.PatientID
		a, status, err := patient.Allergies(ctx, s.DB, pid)
		if err != nil {
			return res, err
		}
		res.Allergies, res.AllergyStatus = a, status
		facts = &allergyFacts{list: a, status: status}
	}
	f, err := s.findings(ctx, s.DB, pid, except, items, facts, lang)
	res.Findings = f
	return res, err
}
