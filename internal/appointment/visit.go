package appointment

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/patient"
)

// Vitals are the measurements of a visit; nil means not measured.
type Vitals struct {
	BPSystolic  *float64 `json:"bp_systolic"`  // mmHg
	BPDiastolic *float64 `json:"bp_diastolic"` // mmHg
	HeartRate   *float64 `json:"heart_rate"`   // beats per minute
	RespRate    *float64 `json:"respiratory_rate"`
	Temperature *float64 `json:"temperature"` // °C
	SpO2        *float64 `json:"spo2"`        // %
	Weight      *float64 `json:"weight"`      // kg
	Height      *float64 `json:"height"`      // cm
	// HeadCirc is the head circumference, cm (children's growth).
	HeadCirc *float64 `json:"head_circumference"`
}

// vitalRange is a plausible range of one measurement; outside it the value is refused as
// a typing error rather than stored.
type vitalRange struct {
	field    string
	value    func(*Vitals) *float64
	min, max float64
	integer  bool
}

// VitalRanges are the plausible ranges, shared with the web app's checks (same numbers).
var VitalRanges = []vitalRange{
	{"bp_systolic", func(v *Vitals) *float64 { return v.BPSystolic }, 50, 300, true},
	{"bp_diastolic", func(v *Vitals) *float64 { return v.BPDiastolic }, 20, 200, true},
	{"heart_rate", func(v *Vitals) *float64 { return v.HeartRate }, 20, 300, true},
	{"respiratory_rate", func(v *Vitals) *float64 { return v.RespRate }, 4, 80, true},
	{"temperature", func(v *Vitals) *float64 { return v.Temperature }, 30, 45, false},
	{"spo2", func(v *Vitals) *float64 { return v.SpO2 }, 50, 100, true},
	{"weight", func(v *Vitals) *float64 { return v.Weight }, 0.3, 500, false},
	{"height", func(v *Vitals) *float64 { return v.Height }, 20, 280, false},
	{"head_circumference", func(v *Vitals) *float64 { return v.HeadCirc }, 15, 70, false},
}

// BMI is weight / height², rounded to one decimal; nil without both.
func (v Vitals) BMI() *float64 {
	if v.Weight == nil || v.Height == nil || *v.Height <= 0 {
		return nil
	}
	m := *v.Height / 100
	b := math.Round(*v.Weight/(m*m)*10) / 10
	return &b
}

func (v *Vitals) check(val *apperr.Validation) {
	for _, r := range VitalRanges {
		x := r.value(v)
		if x == nil {
			continue
		}
		if math.IsNaN(*x) || *x < r.min || *x > r.max || (r.integer && *x != math.Trunc(*x)) {
			val.Add("vitals."+r.field, "vitals.range."+r.field)
		}
	}
	if v.BPSystolic != nil && v.BPDiastolic != nil && *v.BPDiastolic >= *v.BPSystolic {
		val.Add("vitals.bp_diastolic", "vitals.diastolic_above_systolic")
	}
}

// Diagnosis is one diagnosis of a visit: a code from the code list, or free text.
type Diagnosis struct {
	Code    string `json:"code"`
	Text    string `json:"text"`
	Primary bool   `json:"primary"`
	// Label is the code's label in the reader's language (filled on reading, not stored).
	Label string `json:"label,omitempty"`
	// RecordedAt is when the form first held it (set by the store; zero: before this was kept,
	// the form's first save says it).
	RecordedAt time.Time `json:"recorded_at,omitzero"`
	// Key stays with the diagnosis across the form's saves (set by the store; zero: written
	// before keys were, its place in the list is its key): its Condition's id says it.
	Key int `json:"key,omitempty"`
}

// recordedSince is now's diagnoses, each with the time it was first recorded and its key: one
// the form had before keeps both (the one its key names, else one of the same code and words,
// else one of the same code), a new one is recorded at, with a key above seq; and the new seq.
func recordedSince(before, now []Diagnosis, at time.Time, seq int) ([]Diagnosis, int) {
	keys, seq := patient.Keys(before, now, func(d Diagnosis) int { return d.Key }, seq,
		func(b, d Diagnosis) bool { return b.Code == d.Code && b.Text == d.Text },
		func(b, d Diagnosis) bool { return b.Code != "" && b.Code == d.Code })
	out := make([]Diagnosis, len(now))
	for i, d := range now {
		d.Key, d.RecordedAt = keys[i], at.UTC()
		for j, b := range before {
			if cmp.Or(b.Key, j+1) == d.Key {
				d.RecordedAt = b.RecordedAt
				break
			}
		}
		out[i] = d
	}
	return out, seq
}

// Order is one laboratory or imaging test ordered at the visit.
type Order struct {
	Code string `json:"code"`
	Note string `json:"note"`
	// Label is the test's name in the reader's language (filled on reading, not stored), so
	// that whoever reads the visit needs no access to the test catalogue.
	Label string `json:"label,omitempty"`
}

// Content is what the diagnosis form records.
type Content struct {
	Vitals Vitals `json:"vitals"`
	// VitalsCopiedFrom is the day of an earlier visit whose vitals were copied forward and
	// not changed since ("" when they were measured at this visit): the form and the record
	// say "copied — taken on <day>" until someone measures again.
	VitalsCopiedFrom string      `json:"vitals_copied_from"`
	ChiefComplaint   string      `json:"chief_complaint"`
	PresentIllness   string      `json:"present_illness"`
	Examination      string      `json:"examination"`
	Diagnoses        []Diagnosis `json:"diagnoses"`
	Orders           []Order     `json:"orders"`
	Plan             string      `json:"plan"`
	FollowUpDate     string      `json:"follow_up_date"`
	// DiagnosisSeq is the highest key given to a diagnosis of the form (set by the store), so a
	// key taken away is never given again.
	DiagnosisSeq int `json:"diagnosis_seq,omitempty"`
}

// Change is a save of the diagnosis form: each field it sends replaces the stored one, and
// a field left out (or null) keeps what is stored, so that a save never erases what it does
// not send (the vitals a nurse recorded on their own route, a field a client does not know).
type Change struct {
	Vitals           *VitalsChange `json:"vitals"`
	VitalsCopiedFrom *string       `json:"vitals_copied_from"`
	ChiefComplaint   *string       `json:"chief_complaint"`
	PresentIllness   *string       `json:"present_illness"`
	Examination      *string       `json:"examination"`
	Diagnoses        *[]Diagnosis  `json:"diagnoses"`
	Orders           *[]Order      `json:"orders"`
	Plan             *string       `json:"plan"`
	FollowUpDate     *string       `json:"follow_up_date"`
}

// apply is old with the change's fields. Vitals sent without vitals_copied_from are
// measured at this visit: they clear the copied mark, and are not laid over vitals copied
// from an earlier visit, unless they leave the stored ones as they were.
func (c Change) apply(old Content) Content {
	out := old
	out.Diagnoses, out.Orders = slices.Clone(old.Diagnoses), slices.Clone(old.Orders)
	for _, f := range []struct{ dst, src *string }{{&out.VitalsCopiedFrom, c.VitalsCopiedFrom}, {&out.ChiefComplaint, c.ChiefComplaint},
		{&out.PresentIllness, c.PresentIllness}, {&out.Examination, c.Examination}, {&out.Plan, c.Plan}, {&out.FollowUpDate, c.FollowUpDate}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	if c.Diagnoses != nil {
		out.Diagnoses = *c.Diagnoses
	}
	if c.Orders != nil {
		out.Orders = *c.Orders
	}
	if c.Vitals != nil {
		out.Vitals = c.Vitals.Onto(old.Vitals)
		if c.VitalsCopiedFrom == nil && !out.Vitals.same(old.Vitals) {
			out.Vitals, out.VitalsCopiedFrom = c.Vitals.Onto(old.measured()), ""
		}
	}
	return out
}

// VitalsChange is the vitals a save sends: each measurement sent replaces the stored one
// (null: not measured), and one left out keeps it.
type VitalsChange struct{ raw []byte }

// UnmarshalJSON keeps the vitals sent, once they read as vitals.
func (c *VitalsChange) UnmarshalJSON(b []byte) error {
	var v Vitals
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	c.raw = slices.Clone(b)
	return nil
}

// Onto is v with the change's measurements.
func (c VitalsChange) Onto(v Vitals) Vitals {
	v = v.clone()
	_ = json.Unmarshal(c.raw, &v) // read once already, when decoded
	return v
}

// clone is v with its own copies of the measurements.
func (v Vitals) clone() Vitals {
	out := v
	for _, f := range []**float64{&out.BPSystolic, &out.BPDiastolic, &out.HeartRate, &out.RespRate, &out.Temperature, &out.SpO2, &out.Weight, &out.Height, &out.HeadCirc} {
		if *f != nil {
			x := **f
			*f = &x
		}
	}
	return out
}

// same answers whether v and w hold the same measurements.
func (v Vitals) same(w Vitals) bool {
	for _, r := range VitalRanges {
		a, b := r.value(&v), r.value(&w)
		if (a == nil) != (b == nil) || (a != nil && *a != *b) {
			return false
		}
	}
	return true
}

// measured are the content's vitals measured at this visit: none while they are copied
// from an earlier one.
func (c Content) measured() Vitals {
	if c.VitalsCopiedFrom != "" {
		return Vitals{}
	}
	return c.Vitals
}

// Limits of the form's lists and texts.
const (
	MaxDiagnoses = 20
	MaxOrders    = 30
	MaxText      = 4000
	// MaxFollowUpDays is how far ahead a follow-up may be booked.
	MaxFollowUpDays = 730
)

// exists answers whether a code is in a list (diagnosis codes or lab tests).
type exists func(code string) (bool, error)

// clean trims the content and checks it for a draft save; day is the visit's date.
// codeOK and testOK look codes up in the catalogues.
func (c *Content) clean(day string, codeOK, testOK exists) error {
	for _, s := range []*string{&c.ChiefComplaint, &c.PresentIllness, &c.Examination, &c.Plan, &c.FollowUpDate} {
		*s = strings.TrimSpace(*s)
	}
	var v apperr.Validation
	c.Vitals.check(&v)
	for field, s := range map[string]string{"chief_complaint": c.ChiefComplaint, "present_illness": c.PresentIllness,
		"examination": c.Examination, "plan": c.Plan} {
		if utf8.RuneCountInString(s) > MaxText {
			v.Add(field, "validation.too_long")
		}
	}
	if err := CheckDiagnoses("diagnoses", c.Diagnoses, codeOK, &v); err != nil {
		return err
	}
	if err := CheckOrders("orders", c.Orders, testOK, &v); err != nil {
		return err
	}
	c.VitalsCopiedFrom = strings.TrimSpace(c.VitalsCopiedFrom)
	if c.VitalsCopiedFrom != "" {
		if d, err := time.Parse(time.DateOnly, c.VitalsCopiedFrom); err != nil {
			v.Add("vitals_copied_from", "validation.date_format")
		} else if d.Format(time.DateOnly) > day {
			v.Add("vitals_copied_from", "visit.copied_not_before")
		} else if c.Vitals == (Vitals{}) {
			c.VitalsCopiedFrom = ""
		}
	}
	if c.FollowUpDate != "" {
		visitDay, _ := time.Parse(time.DateOnly, day)
		if d, err := time.Parse(time.DateOnly, c.FollowUpDate); err != nil {
			v.Add("follow_up_date", "validation.date_format")
		} else if !d.After(visitDay) {
			v.Add("follow_up_date", "visit.follow_up_not_after")
		} else if d.After(visitDay.AddDate(0, 0, MaxFollowUpDays)) {
			v.Add("follow_up_date", "visit.follow_up_too_far")
		}
	}
	if c.Diagnoses == nil {
		c.Diagnoses = []Diagnosis{}
	}
	if c.Orders == nil {
		c.Orders = []Order{}
	}
	return v.Err()
}

// CheckDiagnoses tidies a list of diagnoses and checks it (codes against the code list,
// one primary at most), adding its errors to v under field ("diagnoses.2.code"); an order
// set's diagnoses are checked so too.
func CheckDiagnoses(field string, ds []Diagnosis, codeOK func(string) (bool, error), v *apperr.Validation) error {
	if len(ds) > MaxDiagnoses {
		v.Add(field, "validation.too_many")
	}
	primaries := 0
	for i := range ds {
		d := &ds[i]
		d.Code, d.Text, d.Label = strings.ToUpper(strings.TrimSpace(d.Code)), strings.TrimSpace(d.Text), ""
		at := fmt.Sprintf("%s.%d", field, i)
		switch {
		case d.Code == "" && d.Text == "":
			v.Add(at+".code", "visit.diagnosis_empty")
		case utf8.RuneCountInString(d.Text) > 300:
			v.Add(at+".text", "validation.too_long")
		case d.Code != "":
			ok, err := codeOK(d.Code)
			if err != nil {
				return err
			}
			if !ok {
				v.Add(at+".code", "visit.unknown_code")
			}
		}
		if d.Primary {
			primaries++
		}
	}
	if primaries > 1 {
		v.Add(field, "visit.one_primary")
	}
	return nil
}

// CheckOrders tidies a list of test orders and checks it (tests in the catalogue, each
// once), adding its errors to v under field.
func CheckOrders(field string, os []Order, testOK func(string) (bool, error), v *apperr.Validation) error {
	if len(os) > MaxOrders {
		v.Add(field, "validation.too_many")
	}
	seen := map[string]bool{}
	for i := range os {
		o := &os[i]
		o.Code, o.Note = strings.TrimSpace(o.Code), strings.TrimSpace(o.Note)
		at := fmt.Sprintf("%s.%d", field, i)
		if utf8.RuneCountInString(o.Note) > 300 {
			v.Add(at+".note", "validation.too_long")
		}
		ok, err := testOK(o.Code)
		if err != nil {
			return err
		}
		if !ok {
			v.Add(at+".code", "visit.unknown_test")
		} else if seen[o.Code] {
			v.Add(at+".code", "visit.duplicate_order")
		}
		seen[o.Code] = true
	}
	return nil
}

// checkSignable adds what signing needs beyond a valid draft: at least one diagnosis, one
// of them primary.
func (c *Content) checkSignable() error {
	var v apperr.Validation
	if len(c.Diagnoses) == 0 {
		v.Add("diagnoses", "visit.diagnosis_required")
	} else {
		primaries := 0
		for _, d := range c.Diagnoses {
			if d.Primary {
				primaries++
			}
		}
		if primaries != 1 {
			v.Add("diagnoses", "visit.one_primary")
		}
	}
	return v.Err()
}

// labelDiagnoses fills the coded diagnoses' labels from labels (code → label).
func labelDiagnoses(ds []Diagnosis, labels map[string]string) {
	for i := range ds {
		if ds[i].Code != "" {
			ds[i].Label = labels[ds[i].Code]
		}
	}
}

// Amendment is a change made to a signed visit, with the content as it was before.
type Amendment struct {
	ID        int64     `json:"id"`
	Reason    string    `json:"reason"`
	AmendedAt time.Time `json:"amended_at"`
	AmendedBy string    `json:"amended_by"`
	Previous  Content   `json:"previous"`
	amendedBy int64     // the account, named from the user store
}

// FollowUp is the appointment a visit's follow-up date booked.
type FollowUp struct {
	ID       int64     `json:"id"`
	StartsAt time.Time `json:"starts_at"`
	Status   string    `json:"status"`
}

// Visit is the diagnosis form of one appointment as the API returns it.
type Visit struct {
	AppointmentID int64 `json:"appointment_id"`
	// Status is "" before anything is saved, then "draft", then "signed".
	Status string `json:"status"`
	Content
	BMI *float64 `json:"bmi"`
	// VitalFlags mark the measured vitals against the bands of the patient's age on the
	// visit's day (vital_bands.tsv).
	VitalFlags VitalFlags `json:"vital_flags"`
	// VitalBands are the bands of that age, for marks while the vitals are typed.
	VitalBands []VitalBand `json:"vital_bands"`
	SignedAt   *time.Time  `json:"signed_at"`
	SignedBy   string      `json:"signed_by"`
	UpdatedAt  *time.Time  `json:"updated_at"`
	UpdatedBy  string      `json:"updated_by"`
	FollowUp   *FollowUp   `json:"follow_up"`
	Amendments []Amendment `json:"amendments"`
	Version    int         `json:"version"`
}
