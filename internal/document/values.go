package document

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/appointment"
	"emr/internal/i18n"
	"emr/internal/immunisation"
	"emr/internal/patient"
	"emr/internal/prescription"
	"emr/internal/profile"
	"emr/internal/result"
	"emr/internal/settings"
)

// Placeholders are the values a template may name, in the order the editor offers them;
// "field.KEY" names a field the template declares.
var Placeholders = []string{
	"patient.name", "patient.age", "patient.sex", "patient.birth_date", "patient.mrn", "patient.address", "patient.phone",
	"patient.allergies", "patient.medicines", "patient.immunisations",
	"visit.date", "visit.chief_complaint", "visit.present_illness", "visit.vitals", "visit.examination", "visit.diagnoses",
	"visit.plan", "visit.follow_up", "visit.orders", "visit.lab_orders", "visit.imaging_orders", "visit.results", "visit.amendments",
	"visit.medicines_stopped",
	"doctor.name", "doctor.specialisations", "doctor.licences",
	"clinic.name", "clinic.address", "clinic.phone",
	"document.number", "today",
}

// sources are what a document is filled from: the patient, the visit (nil for a document
// not tied to one), the issuing doctor and the clinic.
type sources struct {
	patient     patient.Patient
	appointment *appointment.Appointment
	visit       *appointment.Visit
	orderKinds  map[string]string // a test's code -> lab or imaging
	results     []result.Order    // the visit's orders with their current results
	doctor      profile.Profile
	clinic      settings.Clinic
	medicines   []prescription.Current   // being taken as of today
	takesNone   *prescription.NoneAnswer // when the patient said they take no medicines
	stopped     []prescription.Stopped   // the medicines stopped at the visit
	today       time.Time                // the clinic's day
	card        immunisation.Card        // the immunisation record as the card prints it
	lang        string
}

// dateIn writes a date the way lang writes dates.
// medicineLine is a current medicine as a paper lists it (m4): prescribed here, last issued
// on a day and supplied until another; or prescribed elsewhere (by whom) or over the counter,
// since when the patient takes it (a day, a month or a year as recorded, or "start not
// known") and when a visit last confirmed it.
func medicineLine(lang string, m prescription.Current, loc *time.Location) string {
	var parts []string
	if m.Source == prescription.SourceHere {
		parts = append(parts, i18n.T(lang, "document.value.med_here"), i18n.T(lang, "document.value.med_last", dateIn(lang, m.Since.In(loc))))
		if until, err := time.Parse(time.DateOnly, m.SupplyUntil); err == nil {
			parts = append(parts, i18n.T(lang, "document.value.med_supplied_until", dateIn(lang, until)))
		}
	} else {
		switch {
		case m.Source == prescription.SourceOTC:
			parts = append(parts, i18n.T(lang, "document.value.med_otc"))
		case m.Prescriber != "":
			parts = append(parts, i18n.T(lang, "document.value.med_elsewhere_by", m.Prescriber))
		default:
			parts = append(parts, i18n.T(lang, "document.value.med_elsewhere"))
		}
		if m.Started == "" {
			parts = append(parts, i18n.T(lang, "document.value.med_start_unknown"))
		} else {
			parts = append(parts, i18n.T(lang, "document.value.med_since", partialDateIn(lang, m.Started)))
		}
		if m.Confirmed != nil {
			parts = append(parts, i18n.T(lang, "document.value.med_confirmed", dateIn(lang, m.Confirmed.In(loc))))
		}
	}
	parts = append(parts, reconciled(lang, m.Reconciliation)...)
	return i18n.T(lang, "document.value.med_line", m.Text, strings.Join(parts, i18n.T(lang, "document.value.med_separator")))
}

// reconciled is what a reconciliation recorded of a medicine, each part only when set:
// route, indication, last dose, adherence, where the information came from.
func reconciled(lang string, r prescription.Reconciliation) []string {
	var parts []string
	if r.Route != "" {
		parts = append(parts, i18n.T(lang, "document.value.med_route", i18n.T(lang, "document.value.route."+r.Route)))
	}
	if r.Indication != "" {
		parts = append(parts, i18n.T(lang, "document.value.med_for", r.Indication))
	}
	if day, clock, _ := strings.Cut(r.LastDose, "T"); day != "" {
		when := partialDateIn(lang, day)
		if clock != "" {
			when += " " + clock
		}
		parts = append(parts, i18n.T(lang, "document.value.med_last_dose", when))
	}
	if r.Adherence != "" {
		parts = append(parts, i18n.T(lang, "document.value.med_adherence."+r.Adherence))
	}
	if r.InfoSource != "" {
		parts = append(parts, i18n.T(lang, "document.value.med_source."+r.InfoSource))
	}
	return parts
}

// stoppedLine is a medicine stopped at a visit as its summary prints it: "Warfarin 5 mg —
// side effect or reaction: bruising".
func stoppedLine(lang string, m prescription.Stopped) string {
	why := m.Reason
	if m.Category != "" {
		why = i18n.T(lang, "document.value.stop."+m.Category)
		if m.Reason != "" {
			why = i18n.T(lang, "document.value.stopped_reason", why, m.Reason)
		}
	}
	return i18n.T(lang, "document.value.stopped_line", m.Text, why)
}

// partialDateIn writes a start recorded as a day, a month (2019-03: "March 2019") or a year
// in lang; anything else as it is.
func partialDateIn(lang, s string) string {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return dateIn(lang, t)
	}
	t, err := time.Parse("2006-01", s)
	if err != nil || len(s) != len("2006-01") {
		return s
	}
	return i18n.T(lang, "document.value.med_month_"+strconv.Itoa(int(t.Month())), t.Year())
}

func dateIn(lang string, t time.Time) string {
	switch lang {
	case "ru":
		return t.Format("02.01.2006")
	case "vi":
		return t.Format("02/01/2006")
	case "zh":
		return fmt.Sprintf("%d年%d月%d日", t.Year(), t.Month(), t.Day())
	}
	return t.Format("2 January 2006")
}

// day parses a YYYY-MM-DD date and writes it in lang; anything else is kept as it is.
func day(lang, s string) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	return dateIn(lang, t)
}

// shortDay is a day as a pocket card's table writes it: as dateIn, English with its month
// abridged ("27 Sep 2025"), kept on one line (a narrow column wraps between words, never
// inside a date).
func shortDay(lang, s string) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	if lang == "en" {
		return strings.ReplaceAll(t.Format("2 Jan 2006"), " ", "\u00a0")
	}
	return dateIn(lang, t)
}

// age is whole years from birth to on.
func age(birth string, on time.Time) (int, bool) {
	b, err := time.Parse(time.DateOnly, birth)
	if err != nil {
		return 0, false
	}
	years := on.Year() - b.Year()
	if on.Month() < b.Month() || (on.Month() == b.Month() && on.Day() < b.Day()) {
		years--
	}
	return years, true
}

func number(lang string, f *float64) string { return i18n.Decimal(lang, *f) }

// vitalMarks are the arrows a flagged vital is printed with (never colour alone).
var vitalMarks = map[string]string{"L": "↓", "H": "↑", "LL": "↓↓", "HH": "↑↑"}

// vitalFlag writes the arrow a vital is flagged with (" ↑"), and adds what it means to legend
// once (" ↑ above the usual range (age band: 1 year)"); nothing when it is within its band or
// has none.
func vitalFlag(lang string, f appointment.VitalFlag, ok bool, legend *[]string) string {
	mark := vitalMarks[f.Flag]
	if !ok || mark == "" {
		return ""
	}
	if meaning := mark + " " + i18n.T(lang, "vitals.flag."+f.Flag, f.Ages); !slices.Contains(*legend, meaning) {
		*legend = append(*legend, meaning)
	}
	return " " + mark
}

// vitals writes the measured vitals in one line with their units, each flagged by the
// bands of the patient's age on the visit's day: an arrow after each value, and what each
// arrow means said once at the end (the clinic manager's run, 2026-11-29: the meaning after
// every value crowded the referral).
func vitals(lang string, v appointment.Vitals, bmi *float64, flags appointment.VitalFlags) string {
	var out, legend []string
	add := func(key string, f *float64, unit string) {
		if f != nil {
			flag, ok := flags[key]
			out = append(out, i18n.T(lang, "document.value.vital."+key)+" "+number(lang, f)+unit+vitalFlag(lang, flag, ok, &legend))
		}
	}
	if v.BPSystolic != nil && v.BPDiastolic != nil {
		// The pressure's mark is its more severe part's (the systolic's when they tie).
		flag, ok := flags["bp_systolic"]
		if d, dok := flags["bp_diastolic"]; dok && (!ok || appointment.VitalSeverity(d.Flag) > appointment.VitalSeverity(flag.Flag)) {
			flag, ok = d, true
		}
		out = append(out, i18n.T(lang, "document.value.vital.bp")+" "+number(lang, v.BPSystolic)+"/"+number(lang, v.BPDiastolic)+" "+
			i18n.T(lang, "document.value.unit.mmhg")+vitalFlag(lang, flag, ok, &legend))
	}
	add("heart_rate", v.HeartRate, " "+i18n.T(lang, "document.value.unit.per_minute"))
	add("respiratory_rate", v.RespRate, " "+i18n.T(lang, "document.value.unit.per_minute"))
	add("temperature", v.Temperature, " °C")
	add("spo2", v.SpO2, "%")
	add("weight", v.Weight, " "+i18n.T(lang, "document.value.unit.kg"))
	add("height", v.Height, " "+i18n.T(lang, "document.value.unit.cm"))
	add("bmi", bmi, "")
	line := strings.Join(out, i18n.ListSeparator(lang))
	if len(legend) == 0 {
		return line
	}
	return i18n.T(lang, "document.value.vitals_legend", line, strings.Join(legend, i18n.ListSeparator(lang)))
}

// allergies writes what is known of a patient's allergies: not asked, none known, or each
// allergy with its reaction and severity — what a colleague must know before prescribing.
func allergies(lang string, h patient.History) Value {
	switch h.AllergyStatus {
	case patient.AllergiesNone:
		return Value{Text: i18n.T(lang, "document.value.allergies_none")}
	case patient.AllergiesListed:
		list := []string{}
		for _, a := range h.Allergies {
			var about []string
			if r := strings.TrimSpace(a.Reaction); r != "" {
				about = append(about, r)
			}
			if a.Severity != "" {
				about = append(about, i18n.T(lang, "document.value.severity."+a.Severity))
			}
			text := strings.TrimSpace(a.Substance)
			if len(about) > 0 {
				text += " — " + strings.Join(about, ", ")
			}
			list = append(list, text)
		}
		return Value{List: list}
	}
	return Value{Text: i18n.T(lang, "document.value.allergies_unknown")}
}

func diagnosisText(d appointment.Diagnosis) string {
	label := d.Text
	if label == "" {
		label = d.Label
	}
	if d.Code == "" {
		return label
	}
	return strings.TrimSpace(d.Code + " " + label)
}

// values fills every placeholder from src; number is the document's number ("" in a
// preview) and fields the declared fields' values.
func (src sources) values(number string, fields []Field, filled map[string]string) map[string]Value {
	lang, p := src.lang, src.patient
	out := map[string]Value{
		"patient.name":           {Text: i18n.PersonName(lang, p.FirstName, p.MiddleName, p.LastName)},
		"patient.sex":            {Text: i18n.T(lang, "document.value.sex."+p.Sex)},
		"patient.birth_date":     {Text: day(lang, p.BirthDate)},
		"patient.mrn":            {Text: p.MRN},
		"patient.address":        {Text: p.Address},
		"patient.phone":          {Text: p.Phone},
		"doctor.name":            {Text: src.doctor.Name},
		"clinic.name":            {Text: src.clinic.Name},
		"clinic.address":         {Text: src.clinic.Address},
		"clinic.phone":           {Text: src.clinic.Phone},
		"document.number":        {Text: number},
		"today":                  {Text: dateIn(lang, src.today)},
		"doctor.specialisations": {Text: strings.Join(src.doctor.Specialisations, ", ")},
	}
	out["patient.allergies"] = allergies(lang, p.History.Known())
	out["patient.immunisations"] = immunisations(lang, src.card)
	medicines := []string{}
	for _, m := range src.medicines {
		medicines = append(medicines, medicineLine(lang, m, src.today.Location()))
	}
	switch {
	case len(medicines) == 0 && src.takesNone != nil: // asked, takes none — not "never asked" (M4)
		out["patient.medicines"] = Value{Text: i18n.T(lang, "document.value.takes_no_medicines", dateIn(lang, src.takesNone.AskedAt.In(src.today.Location())))}
	case len(medicines) == 0:
		out["patient.medicines"] = Value{Text: i18n.T(lang, "document.value.no_medicines")}
	default:
		out["patient.medicines"] = Value{List: medicines}
	}
	if years, ok := age(p.BirthDate, src.today); ok {
		out["patient.age"] = Value{Text: i18n.T(lang, "document.value.years."+i18n.PluralForm(lang, years), years)}
	}
	var licences []string
	for _, l := range src.doctor.Licences {
		licences = append(licences, strings.TrimSpace(l.Issuer+" "+l.Number))
	}
	out["doctor.licences"] = Value{Text: strings.Join(licences, ", ")}
	if src.appointment != nil && src.visit != nil {
		v := src.visit
		out["visit.date"] = Value{Text: day(lang, src.appointment.Day)}
		out["visit.chief_complaint"] = Value{Text: v.ChiefComplaint}
		out["visit.present_illness"] = Value{Text: v.PresentIllness}
		out["visit.examination"] = Value{Text: v.Examination}
		out["visit.plan"] = Value{Text: v.Plan}
		out["visit.follow_up"] = Value{Text: day(lang, v.FollowUpDate)}
		out["visit.vitals"] = Value{Text: vitals(lang, v.Vitals, v.BMI, v.VitalFlags)}
		diagnoses := []string{}
		// The primary diagnosis first, as the prescription prints it; the rest as recorded.
		ordered := slices.Clone(v.Diagnoses)
		slices.SortStableFunc(ordered, func(a, b appointment.Diagnosis) int {
			switch {
			case a.Primary && !b.Primary:
				return -1
			case b.Primary && !a.Primary:
				return 1
			}
			return 0
		})
		for _, d := range ordered {
			text := diagnosisText(d)
			if d.Primary {
				if lang == "zh" { // full-width brackets in Chinese running text
					text += "（" + i18n.T(lang, "document.value.primary") + "）"
				} else {
					text += " (" + i18n.T(lang, "document.value.primary") + ")"
				}
			}
			diagnoses = append(diagnoses, text)
		}
		out["visit.diagnoses"] = Value{List: diagnoses}
		orders, lab, imaging := []string{}, []string{}, []string{}
		for _, o := range v.Orders {
			text := strings.TrimSpace(o.Code + " " + o.Label)
			if o.Note != "" {
				text += " — " + o.Note
			}
			orders = append(orders, text)
			if kind := src.orderKinds[o.Code]; kind == "imaging" || kind == "functional" { // the instrumental examinations
				imaging = append(imaging, text)
			} else {
				lab = append(lab, text)
			}
		}
		out["visit.orders"] = Value{List: orders}
		out["visit.lab_orders"] = Value{List: lab}
		out["visit.imaging_orders"] = Value{List: imaging}
		out["visit.results"] = Value{List: result.Lines(src.results, lang)}
		amendments := []string{}
		for _, m := range v.Amendments {
			amendments = append(amendments, i18n.T(lang, "document.value.amended", dateIn(lang, m.AmendedAt), m.AmendedBy, m.Reason))
		}
		out["visit.amendments"] = Value{List: amendments}
		stopped := []string{}
		for _, m := range src.stopped {
			stopped = append(stopped, stoppedLine(lang, m))
		}
		out["visit.medicines_stopped"] = Value{List: stopped}
	}
	for _, f := range fields {
		value := filled[f.Key]
		if f.Type == "date" {
			value = day(lang, value)
		}
		out["field."+f.Key] = Value{Text: value}
		if base, ok := strings.CutSuffix(f.Key, "_days"); ok && period(fields, base) {
			out["field."+base+"_until"] = Value{Text: lastDay(lang, filled[base+"_from"], filled[f.Key])}
		}
	}
	return out
}

// lastDay is the last day of a period of days from a day, counting the first ("3 days from
// 25 November" ends on 27 November), in lang; empty when either is not filled in.
func lastDay(lang, from, days string) string {
	start, err := time.Parse(time.DateOnly, from)
	n, nerr := strconv.Atoi(strings.TrimSpace(days))
	if err != nil || nerr != nil || n < 1 {
		return ""
	}
	return dateIn(lang, start.AddDate(0, 0, n-1))
}

// ChartWords are the patient's age, sex and allergies as a document writes them in lang (on
// day on), for the text snippets that fill from the chart.
func ChartWords(lang string, p patient.Patient, on time.Time) (ageText, sexText, allergyText string) {
	if years, ok := age(p.BirthDate, on); ok {
		ageText = i18n.T(lang, "document.value.years."+i18n.PluralForm(lang, years), years)
	}
	a := allergies(lang, p.History.Known())
	allergyText = a.Text
	if a.List != nil {
		allergyText = strings.Join(a.List, "; ")
	}
	return ageText, i18n.T(lang, "document.value.sex."+p.Sex), allergyText
}

// immunisations are the card's tables: the doses that count (date, vaccine, what it protects
// against, dose, lot, who gave it or where it was given), then the next doses due.
func immunisations(lang string, c immunisation.Card) Value {
	h := func(key string) string { return i18n.T(lang, "document.value.imm."+key) }
	doses := [][]string{{h("date"), h("vaccine"), h("antigens"), h("dose"), h("lot"), h("given_by")}}
	for _, d := range c.Doses {
		dose := ""
		if d.Dose > 0 {
			dose = strconv.Itoa(d.Dose)
		}
		by := d.GivenBy
		if d.Elsewhere != nil {
			by = h("elsewhere")
			if *d.Elsewhere != "" {
				by = *d.Elsewhere // the place named says it was elsewhere: a pocket card's column stays short
			}
			if d.Source != "" {
				by += " (" + i18n.T(lang, "document.value.imm.source."+d.Source) + ")"
			}
		}
		doses = append(doses, []string{shortDay(lang, d.On), d.Vaccine, d.Antigens, dose, d.Lot, by})
	}
	if len(c.Doses) == 0 {
		doses = [][]string{{h("none")}}
	}
	next := [][]string{{h("next"), h("dose"), h("due_on")}}
	for _, d := range c.Next {
		what := d.Antigen
		if d.Vaccine != "" {
			what = i18n.T(lang, "document.value.imm.product_for", d.Vaccine, d.Antigen)
		}
		if d.OutsideProgramme {
			what += " — " + h("outside_programme")
		}
		dose := ""
		if d.Dose > 0 {
			dose = strconv.Itoa(d.Dose)
		}
		due := shortDay(lang, d.DueOn)
		if c.AsOf != "" && d.DueOn < c.AsOf { // due already: give it now (a past day alone reads as done)
			due = i18n.T(lang, "document.value.imm.due_since", due)
		}
		next = append(next, []string{what, dose, due})
	}
	if len(c.Next) == 0 {
		next = [][]string{{h("none_due")}}
	}
	tables := [][][]string{doses, next}
	// Contraindications and reactions after immunisation: a nurse elsewhere must see them
	// (shown only when there are any, the card stays short).
	if len(c.Contraindications) > 0 {
		t := [][]string{{h("contraindicated"), h("reason"), h("from"), h("until")}}
		for _, e := range c.Contraindications {
			until := h("permanent")
			if e.Until != "" {
				until = shortDay(lang, e.Until)
			}
			t = append(t, []string{e.Antigen, e.Reason, shortDay(lang, e.From), until})
		}
		tables = append(tables, t)
	}
	if len(c.Reactions) > 0 {
		t := [][]string{{h("reaction"), h("after_dose"), h("onset"), h("severity")}}
		for _, r := range c.Reactions {
			what := h("reaction." + r.Reaction)
			if r.Note != "" {
				what += ": " + r.Note
			}
			severity := h("severity." + r.Severity)
			if r.Serious {
				severity += ", " + h("serious")
			}
			t = append(t, []string{what, r.Vaccine + ", " + shortDay(lang, r.DoseOn), shortDay(lang, r.OnsetOn), severity})
		}
		tables = append(tables, t)
	}
	return Value{Tables: tables}
}
