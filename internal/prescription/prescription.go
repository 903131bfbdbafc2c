// Package prescription keeps prescriptions: written on a visit or on the blank form,
// printed with the clinic's header and the prescriber's details and signature. Printing
// issues a prescription: from then on it is fixed and can only be cancelled with a reason
// (a new one replaces it).
package prescription

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/i18n"
	"emr/internal/patient"
	"emr/internal/profile"
)

// Kinds and statuses. A visit's prescription goes draft -> issued; one written on the blank
// form goes ordered -> dispensed. Either can be cancelled.
const (
	KindVisit = "visit"
	KindBlank = "blank"

	Draft     = "draft"
	Issued    = "issued"
	Ordered   = "ordered"
	Dispensed = "dispensed"
	Cancelled = "cancelled"
)

// Editable reports whether a prescription in status may still change.
func Editable(status string) bool { return status == Draft || status == Ordered }

// Printed is the status printing gives a prescription of kind.
func Printed(kind string) string {
	if kind == KindBlank {
		return Dispensed
	}
	return Issued
}

// Item is one line of a prescription.
type Item struct {
	// MedicineID is the catalogue entry the line was picked from; nil for free text.
	MedicineID   *int64  `json:"medicine_id"`
	Medicine     string  `json:"medicine"`
	Dose         string  `json:"dose"`
	Route        string  `json:"route"`
	Frequency    string  `json:"frequency"`
	Duration     string  `json:"duration"`
	Quantity     *Amount `json:"quantity"`
	Unit         string  `json:"unit"`
	Refills      int     `json:"refills"`
	Instructions string  `json:"instructions"`
	// OverrideReason is why the prescriber gives the line despite its safety findings
	// (an allergy, duplicate therapy); Overrides are the keys of the findings it covers. Both
	// stay with the line and are printed nowhere.
	OverrideReason string   `json:"override_reason"`
	Overrides      []string `json:"overrides"`
	// A dose by weight (issue 59, item 6); absent on a line dosed otherwise.
	ByWeight *ByWeight `json:"by_weight,omitempty"`
}

// ByWeight is how a line's dose was worked out from the child's weight: MgPerKg the
// prescriber chose; DoseMg a dose (mg/kg × the weight, as measurable); DosesPerDay how many a
// day; Indication the dose table's row (empty: any). WeightKg and WeightOn are the weight it
// was worked from and the day it was measured: the server sets them, from the patient's
// latest recorded weight, when the line is saved.
type ByWeight struct {
	MgPerKg     float64 `json:"mg_per_kg"`
	DoseMg      float64 `json:"dose_mg"`
	DosesPerDay int     `json:"doses_per_day"`
	Indication  string  `json:"indication"`
	WeightKg    float64 `json:"weight_kg"`
	WeightOn    string  `json:"weight_on"`
}

// empty reports whether a line holds nothing the prescriber typed.
func (it Item) empty() bool {
	return it.MedicineID == nil && it.Medicine == "" && it.Dose == "" && it.Route == "" && it.Frequency == "" && it.Duration == "" &&
		it.Quantity == nil && it.Unit == "" && it.Refills == 0 && it.Instructions == "" && it.OverrideReason == ""
}

// tidyItem trims a line's text.
func tidyItem(it Item) Item {
	it.Medicine, it.Dose, it.Route, it.Frequency, it.Duration, it.Unit = tidy(it.Medicine), tidy(it.Dose), tidy(it.Route), tidy(it.Frequency), tidy(it.Duration), tidy(it.Unit)
	it.Instructions, it.OverrideReason = strings.TrimSpace(it.Instructions), strings.TrimSpace(it.OverrideReason)
	if it.Quantity != nil {
		q := Amount(strings.TrimSpace(string(*it.Quantity)))
		it.Quantity = &q
		if q == "" {
			it.Quantity = nil
		}
	}
	if it.Overrides == nil {
		it.Overrides = []string{}
	}
	return it
}

// checkItemsLoosely tidies lines still being written, for a safety check: every line stays
// where it is, so that findings name the lines the editor shows.
func checkItemsLoosely(items []Item, v *apperr.Validation) []Item {
	if len(items) > MaxItems {
		v.Add("items", "prescription.too_many_items")
	}
	out := make([]Item, 0, len(items))
	for _, it := range items {
		out = append(out, tidyItem(it))
	}
	return out
}

// Routes a line may name (the web app translates them); free text is not allowed here so
// that a printed prescription is never ambiguous. Intravenous is a bolus (push) or an
// infusion (drip): a drug meant to run over an hour must never be read as a push.
var Routes = []string{"oral", "sublingual", "topical", "inhaled", "nasal", "ophthalmic", "otic", "rectal", "vaginal",
	"subcutaneous", "intramuscular", "intravenous_bolus", "intravenous_infusion", "transdermal"}

// RouteIntravenous is the one intravenous route of earlier versions: still shown on the
// prescriptions that have it, refused on a new or changed line, which must say bolus or infusion.
const RouteIntravenous = "intravenous"

// Limits.
const (
	MaxItems   = 30
	MaxRefills = 12
	maxText    = 200
	maxNotes   = 2000
)

func tidy(s string) string { return strings.Join(strings.Fields(s), " ") }

// checkItems tidies the lines and checks each: a medicine, and a quantity (a number as lang
// writes it) or a duration.
// Field errors name the line: "items.2.quantity".
func checkItems(lang string, items []Item, v *apperr.Validation) []Item {
	out := []Item{}
	for _, it := range items {
		if it = tidyItem(it); it.empty() {
			continue // an empty line the form left
		}
		out = append(out, it)
	}
	if len(out) == 0 {
		v.Add("items", "prescription.no_items")
	}
	if len(out) > MaxItems {
		v.Add("items", "prescription.too_many_items")
	}
	for i, it := range out {
		field := func(name string) string { return "items." + strconv.Itoa(i) + "." + name }
		if it.Medicine == "" {
			v.Add(field("medicine"), "prescription.medicine_required")
		}
		if it.Quantity == nil && it.Duration == "" {
			v.Add(field("quantity"), "prescription.quantity_or_duration")
		}
		if it.Quantity != nil {
			// Read as the prescriber's language writes it; kept as the record keeps numbers.
			n, err := i18n.ParseDecimal(lang, string(*it.Quantity))
			switch key := i18n.NumberKey(err); {
			case err != nil && key != i18n.ErrNotANumber.Error():
				v.Add(field("quantity"), key)
			case err != nil || n <= 0 || n > 10000:
				v.Add(field("quantity"), "prescription.quantity")
			default:
				q := Amount(strconv.FormatFloat(n, 'f', -1, 64))
				out[i].Quantity = &q
			}
		}
		if it.Route == RouteIntravenous {
			v.Add(field("route"), "prescription.route_intravenous")
		} else if it.Route != "" && !slices.Contains(Routes, it.Route) {
			v.Add(field("route"), "prescription.route")
		}
		if it.Refills < 0 || it.Refills > MaxRefills {
			v.Add(field("refills"), "prescription.refills")
		}
		for name, s := range map[string]string{"medicine": it.Medicine, "dose": it.Dose, "frequency": it.Frequency, "duration": it.Duration, "unit": it.Unit} {
			if utf8.RuneCountInString(s) > maxText {
				v.Add(field(name), "validation.too_long")
			}
		}
		if utf8.RuneCountInString(it.Instructions) > 1000 {
			v.Add(field("instructions"), "validation.too_long")
		}
		if utf8.RuneCountInString(it.OverrideReason) > maxReasonLength {
			v.Add(field("override_reason"), "validation.too_long")
		}
		checkByWeight(it.ByWeight, field, v)
	}
	return out
}

// Prescriber is what a printed prescription says of who wrote it, fixed when it is issued.
type Prescriber = profile.Signer

// PatientDetails are the patient's details a prescription prints.
type PatientDetails struct {
	ID        int64  `json:"id"`
	MRN       string `json:"mrn"`
	Name      string `json:"name"`
	Sex       string `json:"sex"`
	BirthDate string `json:"birth_date"`
	Age       int    `json:"age"`
	Address   string `json:"address"`
	// The name's parts, so that each language can write it in its own order.
	FirstName  string `json:"first_name"`
	MiddleName string `json:"middle_name"`
	LastName   string `json:"last_name"`
	// Allergies are the patient's recorded allergies (the print shows them), and
	// AllergyStatus whether anyone has asked (patient.AllergiesNotAsked, ...None, ...Listed).
	Allergies     []patient.Allergy `json:"allergies"`
	AllergyStatus string            `json:"allergy_status"`
}

// Prescription is one prescription as the API shows it.
type Prescription struct {
	ID            int64           `json:"id"`
	Kind          string          `json:"kind"`
	AppointmentID *int64          `json:"appointment_id"`
	PatientID     *int64          `json:"patient_id"`
	Patient       *PatientDetails `json:"patient"`
	Status        string          `json:"status"`
	Items         []Item          `json:"items"`
	Notes         string          `json:"notes"`
	// Prescriber is the one who issued it; for a draft, who would issue it now.
	Prescriber   *Prescriber `json:"prescriber"`
	HasSignature bool        `json:"has_signature"`
	SignatureURL string      `json:"signature_url"`
	// Warnings are "no_signature", "no_licence" and "licence_expired": the prescriber
	// should know before (or see after) printing.
	Warnings []string `json:"warnings"`
	// Diagnoses are the visit's (code and label), which the print carries.
	Diagnoses []appointment.Diagnosis `json:"diagnoses"`
	// Safety is what an unprinted prescription's lines must acknowledge (allergies,
	// duplicate therapy), checked when it is read.
	Safety       []Finding  `json:"safety"`
	IssuedAt     *time.Time `json:"issued_at"`
	CancelReason string     `json:"cancel_reason"`
	CancelledAt  *time.Time `json:"cancelled_at"`
	ReplacesID   *int64     `json:"replaces_id"`
	CreatedAt    time.Time  `json:"created_at"`
	CreatedBy    string     `json:"created_by"`
	UpdatedAt    time.Time  `json:"updated_at"`
	Version      int        `json:"version"`
}

// warnings says what a prescriber lacks for a trustworthy print on day (YYYY-MM-DD).
func warnings(p Prescriber, hasSignature bool, day string) []string {
	out := []string{}
	if !hasSignature {
		out = append(out, "no_signature")
	}
	if len(p.Licences) == 0 {
		out = append(out, "no_licence")
	}
	for _, l := range p.Licences {
		if l.Expired(day) {
			out = append(out, "licence_expired")
			break
		}
	}
	return out
}

// Input is what creating or changing a prescription sends.
type Input struct {
	PatientID  *int64 `json:"patient_id"`
	Items      []Item `json:"items"`
	Notes      string `json:"notes"`
	ReplacesID *int64 `json:"replaces_id"`
	Version    int    `json:"version"`
}

func (in *Input) check(lang string) error {
	var v apperr.Validation
	in.Items = checkItems(lang, in.Items, &v)
	in.Notes = strings.TrimSpace(in.Notes)
	if utf8.RuneCountInString(in.Notes) > maxNotes {
		v.Add("notes", "validation.too_long")
	}
	return v.Err()
}

// ageOn returns the whole years from birth (YYYY-MM-DD) to day.
func ageOn(birth string, day time.Time) int {
	b, err := time.Parse(time.DateOnly, birth)
	if err != nil {
		return 0
	}
	age := day.Year() - b.Year()
	if day.Month() < b.Month() || (day.Month() == b.Month() && day.Day() < b.Day()) {
		age--
	}
	return max(age, 0)
}

// Amount is a quantity as a person writes it ("21", "1.5"), taken as text or as a JSON
// number from a client that sends numbers; it is stored and answered as text.
type Amount string

// UnmarshalJSON takes a string or a number.
func (a *Amount) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*a = Amount(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*a = Amount(n.String())
	return nil
}

// CheckLines tidies and checks lines as a new prescription's are checked (an order set keeps
// lines so); none is no error here. An override reason, which belongs to one patient's
// findings, is not kept, nor a dose by weight's dose and weight.
func CheckLines(lang string, items []Item) ([]Item, error) {
	if len(items) == 0 {
		return []Item{}, nil
	}
	var v apperr.Validation
	out := checkItems(lang, items, &v)
	for i := range out {
		out[i].OverrideReason, out[i].Overrides = "", []string{}
		if b := out[i].ByWeight; b != nil { // mg/kg is the set's; a dose and a weight are one child's
			b.DoseMg, b.WeightKg, b.WeightOn = 0, 0, ""
		}
	}
	return out, v.Err()
}
