package fhir

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/growth"
	"emr/internal/i18n"
	"emr/internal/result"
)

// typeObservation describes Observation: who reads it, its search, its versions and its writes.
var typeObservation = resourceType{
	kind: "Observation",
	reads: []ReadRule{
		{"Observation", "vital-signs", []auth.Permission{auth.RecordVitals, auth.WriteDiagnosis}, "GET /api/patients/{id}/vitals"},
		{"Observation", "laboratory", []auth.Permission{auth.RecordResults, auth.ReviewResults, auth.WriteDiagnosis}, "GET /api/lab-orders/{id}"},
		// An imaging or functional study's results are read natively as a laboratory order's
		// are (the same order, the same route): the same permissions.
		{"Observation", "imaging", []auth.Permission{auth.RecordResults, auth.ReviewResults, auth.WriteDiagnosis}, "GET /api/lab-orders/{id}"},
		{"Observation", "procedure", []auth.Permission{auth.RecordResults, auth.ReviewResults, auth.WriteDiagnosis}, "GET /api/lab-orders/{id}"},
	},
	params:  observationParams,
	filters: observationTokens,
	plan:    observationPlan,
	action:  "observation",
	versions: func(_ *Handler, s recordSources) []versionSource {
		return []versionSource{s.visits(toObservations), s.orders(labID, toLabObservations)}
	},
	write: &writable{need: auth.RecordVitals, write: (*Handler).writeObservation, announces: auth.ChangesAppointments},
}

// observationPlan reads an Observation search: the vital signs of visit records, then the
// results of orders (ids lab-{order}-{analyte}: laboratory, imaging or procedure), each read
// only by who may read its category (ReadAccess); a search asking only for categories the caller may not
// read is refused, naming them.
func observationPlan(h *Handler, r *http.Request, q *query, coded bool) (searchPlan, error) {
	// The ids are read below, for each side: a result's (lab-1-NA) is no visit's, and read as
	// one it would make the whole search match nothing.
	visits := *q
	visits.values = maps.Clone(q.values)
	delete(visits.values, "_id")
	f, match, err := recordFilter(visits, false)
	if err != nil {
		return searchPlan{}, err
	}
	f.WithVisit = true
	match = match && coded
	// The vital signs' date is their visit's, which the visits' query selects by too; the
	// results' is each result's own.
	if err := q.testDate("date", func(res Resource) string { return res.(Observation).EffectiveDateTime }); err != nil {
		return searchPlan{}, err
	}
	keep := func(list []Resource) []Resource { return list }
	if _, given := q.ids(); given {
		keep = func(list []Resource) []Resource { return keepIDs(list, q.values["_id"]) }
	}
	// The laboratory side: the same patient, ids of the form lab-{order}-{analyte}, the date
	// of each result.
	var orders []int64
	labMatch := match
	if _, given := q.ids(); given {
		f.IDs, orders = nil, nil
		for _, v := range flat(q.values["_id"]) {
			if rest, ok := strings.CutPrefix(v, "lab-"); ok {
				if n, err := strconv.ParseInt(strings.SplitN(rest, "-", 2)[0], 10, 64); err == nil {
					orders = append(orders, n)
				}
			} else if n, err := strconv.ParseInt(strings.SplitN(v, "-", 2)[0], 10, 64); err == nil {
				f.IDs = append(f.IDs, n)
			}
		}
		match, labMatch = match && len(f.IDs) > 0, labMatch && len(orders) > 0
	}
	p := auth.PrincipalFrom(r.Context())
	if denied := deniedCategories(p, q.values["category"]); denied != "" {
		return searchPlan{}, &Error{Status: http.StatusForbidden, Code: "forbidden", Key: "fhir.read_forbidden", Args: []any{denied}, Expression: "category"}
	}
	match = match && mayRead(p, "Observation", "vital-signs")
	labMatch = labMatch && mayReadResults(p)
	vitalsSrc := h.recordSource(f, match, func(rec appointment.Record) []Resource { return keep(toObservations(rec)) })
	labSrc := shifted(h.orderSource(orders, f.PatientID, labMatch, i18n.FromRequest(r), func(o result.Order) []Resource { return keep(toLabObservations(o)) }), labOffset)
	return searchPlan{src: combined(vitalsSrc, labSrc, labOffset), entity: "observation", patient: f.PatientID}, nil
}

// toObservations are the vital signs measured at a visit. Vitals copied forward from an
// earlier visit are that visit's, not this one's: they are not repeated here.
func toObservations(rec appointment.Record) []Resource {
	if rec.Content == nil || rec.Content.VitalsCopiedFrom != "" {
		return nil
	}
	v := rec.Content.Vitals
	// Flagged by the bands of the patient's age on the visit's day; the codes' displays are
	// HL7's, in English.
	flags := appointment.FlagVitals(v, rec.Patient.BirthDate, rec.Day, "en")
	status := "preliminary"
	if rec.VisitStatus == "signed" {
		status = "final"
	}
	aid := strconv.FormatInt(rec.ID, 10)
	mk := func(part, loinc, display string) Observation {
		return Observation{
			base:   newBase("Observation", aid+"-"+part, rec.VisitVersion, rec.VisitUpdatedAt),
			Status: status, Category: vitalSigns, Code: &CodeableConcept{Coding: []Coding{{System: systemLOINC, Code: loinc, Display: display}}, Text: display},
			Subject: ref("Patient", rec.PatientID), Encounter: ref("Encounter", rec.ID), EffectiveDateTime: instant(rec.StartsAt),
		}
	}
	var out []Resource
	if v.BPSystolic != nil || v.BPDiastolic != nil {
		bp := mk("bp", "85354-9", "Blood pressure panel with all children optional")
		// The panel's interpretation is its more severe part's (the systolic's when they tie).
		panel := ""
		for _, c := range []struct {
			loinc, display, flag string
			value                *float64
		}{{"8480-6", "Systolic blood pressure", "bp_systolic", v.BPSystolic}, {"8462-4", "Diastolic blood pressure", "bp_diastolic", v.BPDiastolic}} {
			comp := ObservationComponent{Code: concept(systemLOINC, c.loinc, c.display)}
			if c.value != nil {
				comp.ValueQuantity = quantity(*c.value, "mm[Hg]", "mmHg")
				comp.Interpretation = interpretation(flags, c.flag)
				if f, ok := flags[c.flag]; ok && (panel == "" || appointment.VitalSeverity(f.Flag) > appointment.VitalSeverity(flags[panel].Flag)) {
					panel = c.flag
				}
			} else {
				comp.DataAbsentReason = unknownValue
			}
			bp.Component = append(bp.Component, comp)
		}
		bp.Interpretation = interpretation(flags, panel)
		bp.claim(vitalProfiles["bp"], vitalConforms(bp, "85354-9") && hasComponents(bp, "8480-6", "8462-4"))
		out = append(out, bp)
	}
	for _, m := range vitals {
		if x := m.value(v); x != nil {
			o := mk(m.part, m.loinc, m.display)
			codes := []string{m.loinc}
			if m.part == "spo2" {
				// The clinic's SpO2 is read by a pulse oximeter: US Core's pulse-oximetry
				// profile asks for that method's code beside 2708-6.
				o.Code.Coding = append(o.Code.Coding, pulseOximetry)
				codes = append(codes, pulseOximetry.Code)
			}
			o.ValueQuantity = quantity(*x, m.ucum, m.unit)
			o.Interpretation = interpretation(flags, m.flag)
			o.claim(vitalProfiles[m.part], vitalConforms(o, codes...))
			out = append(out, o)
		}
	}
	if pct := bmiPercentileOf(rec); pct != nil {
		o := mk("bmipct", bmiPercentile, bmiPercentileDisplay)
		o.ValueQuantity = quantity(*pct, "%", "%")
		o.Note = []Annotation{{Text: "Percentile on the " + growth.Source}}
		o.claim(vitalProfiles["bmipct"], vitalConforms(o, bmiPercentile))
		out = append(out, o)
	}
	return out
}

// bmiPercentileOf is the visit's BMI as a percentile for the patient's age and sex on its day
// (the WHO tables', chronological age), nil when the visit lacks a weight or a height, or the
// patient is past the tables' ages or of no sex the tables are given for.
func bmiPercentileOf(rec appointment.Record) *float64 {
	v := rec.Content.Vitals
	if v.Weight == nil || v.Height == nil {
		return nil
	}
	points, _, err := growth.Compute(growth.Child{Sex: rec.Patient.Sex, BirthDate: rec.Patient.BirthDate},
		[]growth.Measurement{{On: rec.Day, Weight: v.Weight, Height: v.Height}})
	if err != nil || len(points) != 1 {
		return nil
	}
	return points[0].Pct.BFA
}

var observationParams = map[string]paramKind{
	"patient": kindReference, "subject": kindReference, "date": kindDate, "category": kindToken, "code": kindToken, "status": kindToken,
}

// observationTokens are Observation's token parameters, tested on the observations built.
var observationTokens = map[string]tokenParam{
	"category": codingParam(func(res Resource) []Coding { return conceptCodings(res.(Observation).Category...) }, systemObsCategory),
	"code":     codingParam(func(res Resource) []Coding { return codingsOf(res.(Observation).Code) }, systemLOINC),
	"status":   codeParam(systemObsStatus, func(res Resource) string { return res.(Observation).Status }),
}

// toLabObservations are an order's current results, one per analyte ("lab-{order}-{analyte}",
// labResultID): a correction is a new version of the same Observation (the order's version,
// as its kept versions are), never a new resource.
func toLabObservations(o result.Order) []Resource {
	var out []Resource
	for _, x := range labRows(o) {
		obs := Observation{
			base:   newBase("Observation", labResultID(o.ID, x.Analyte), o.Version, x.RecordedAt),
			Status: labStatus(o, x), Category: resultObservationCategory(o), Code: testCode(x.LOINC, x.Label, x.Analyte),
			Subject: ref("Patient", o.PatientID), Encounter: ref("Encounter", o.AppointmentID), EffectiveDateTime: instant(x.ObservedAt),
			Issued: instant(x.RecordedAt), BasedOn: []Reference{*ref("ServiceRequest", o.ID)}, Performer: []Reference{labPerformer(x)},
		}
		if obs.Status == "cancelled" || obs.Status == "entered-in-error" {
			// The order was closed after a preliminary result, or the result was entered in
			// error: that value is withdrawn, so none is given (nor its flag or range) — only
			// why, in the record's words. The value stays readable in the Observation's history.
			obs.Note, obs.DataAbsentReason = withdrawal(o, x)
			obs.claim(profileLabObservation, o.Kind == "lab" && labConforms(obs))
			out = append(out, obs)
			continue
		}
		switch {
		case x.Value != nil:
			if v, err := strconv.ParseFloat(*x.Value, 64); err == nil {
				obs.ValueQuantity = labQuantity(v, x.Unit)
				obs.ValueQuantity.Decimal = *x.Value
				obs.ValueQuantity.Comparator = x.Comparator
			}
		case x.Answer != "":
			obs.ValueCodeable = answerConcept(x.Answer)
		case x.Text != "":
			obs.ValueString = x.Text
		}
		if obs.ValueQuantity == nil && obs.ValueCodeable == nil && obs.ValueString == "" {
			obs.DataAbsentReason = unknownValue
		}
		if m, ok := interpretations[x.Flag]; ok {
			obs.Interpretation = []CodeableConcept{*concept(systemInterpretation, m[0], m[1])}
		}
		var rng ObservationRange
		if x.Range.Low != nil {
			if v, err := strconv.ParseFloat(*x.Range.Low, 64); err == nil {
				rng.Low = labBound(v, x.Unit)
			}
		}
		if x.Range.High != nil {
			if v, err := strconv.ParseFloat(*x.Range.High, 64); err == nil {
				rng.High = labBound(v, x.Unit)
			}
		}
		rng.Text = rangeNotes[x.Range.Note]
		if rng.Low != nil || rng.High != nil || rng.Text != "" {
			obs.ReferenceRange = []ObservationRange{rng}
		}
		// Results of imaging and functional tests are not laboratory results (their category
		// is imaging or procedure): only a laboratory order's claim the profile.
		obs.claim(profileLabObservation, o.Kind == "lab" && labConforms(obs))
		out = append(out, obs)
	}
	return out
}

var interpretations = map[string][2]string{
	"H": {"H", "High"}, "L": {"L", "Low"}, "HH": {"HH", "Critical high"}, "LL": {"LL", "Critical low"}, "A": {"A", "Abnormal"}, "AA": {"AA", "Critical abnormal"},
}

const systemInterpretation = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"

// ObservationRange is a result's reference range.
type ObservationRange struct {
	Low  *SimpleQuantity `json:"low,omitempty"`
	High *SimpleQuantity `json:"high,omitempty"`
	Text string          `json:"text,omitempty"`
}

// rangeNotes say, in a reference range's text, why it is not the patient's own sex's or why
// none applied (issue 52).
var rangeNotes = map[string]string{
	"any_sex":       "Not sex-specific: the union of the male and female reference ranges",
	"no_band":       "No reference range for the patient's age and sex",
	"no_birth_date": "No reference range: the birth date is unknown",
	"censored":      "Beyond the measuring range: not compared with the reference range",
}

// labBound is a reference range's limit in a result's unit, coded as the result is.
func labBound(value float64, unit string) *SimpleQuantity {
	q := labQuantity(value, unit)
	return &SimpleQuantity{Value: q.Value, Unit: q.Unit, System: q.System, Code: q.Code}
}

var labCategory = []CodeableConcept{*concept(systemObsCategory, "laboratory", "Laboratory")}

// imagingFunctional are the catalogue's functional tests that are imaging: the echocardiogram
// is an ultrasound study.
var imagingFunctional = map[string]bool{"ECHO": true}

// resultCategory is what o's test is: "laboratory", "imaging" (an X-ray, an ultrasound, the
// echocardiogram) or "procedure" (the ECG and the catalogue's other functional tests).
func resultCategory(o result.Order) string {
	switch {
	case o.Kind == "imaging" || (o.Kind == "functional" && imagingFunctional[o.Test]):
		return "imaging"
	case o.Kind == "functional":
		return "procedure"
	}
	return "laboratory"
}

// labResultID is the id of an order's result of analyte: "lab-{order}-{analyte}", the
// analyte's code kept where FHIR's id allows it (letters, digits, "-") and every other
// byte written ".XX" in hexadecimal ("NEUT%" → "NEUT.25"), so that two codes never share an
// id. The same whatever result row currently holds the value.
func labResultID(order int64, analyte string) string {
	var b strings.Builder
	b.WriteString("lab-" + strconv.FormatInt(order, 10) + "-")
	for i := 0; i < len(analyte); i++ {
		c := analyte[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' {
			b.WriteByte(c)
			continue
		}
		b.WriteString("." + strings.ToUpper(strconv.FormatUint(uint64(c)|0x100, 16)[1:]))
	}
	return b.String()
}

// labStatus is a result's Observation status: as recorded (preliminary, final, corrected),
// and, on an order cancelled or not done, "cancelled" for any result not reported final —
// never "final" for a value the laboratory did not report.
func labStatus(o result.Order, x result.Result) string {
	status := x.Status
	if status == result.EnteredInError {
		return "entered-in-error"
	}
	if status != result.Preliminary && status != result.Final && status != result.Corrected {
		status = "unknown"
	}
	closed := o.Status == result.Cancelled || o.Status == result.NotDone
	if closed && status != result.Final && status != result.Corrected {
		return "cancelled"
	}
	return status
}

// labRows are the results an order's Observations are made of: its current results and
// those retracted as entered in error (each an Observation that says so), in id order.
func labRows(o result.Order) []result.Result {
	rows := append(slices.Clone(o.Results), o.Retracted...)
	slices.SortFunc(rows, func(a, b result.Result) int { return cmp.Compare(a.ID, b.ID) })
	return rows
}

// withdrawal is why a withdrawn result (status cancelled or entered-in-error) has no value:
// a note, and the DataAbsentReason. A result entered in error is an error, said in fixed
// words: the reason typed is the clinic's (it may name the patient whose sample it was) and
// stays in its own screens and audit, never in what the patient's apps read; a closed
// order's preliminary result was withdrawn (withdrawnValue).
func withdrawal(o result.Order, x result.Result) ([]Annotation, *CodeableConcept) {
	if x.Status == result.EnteredInError {
		return []Annotation{{Text: "Entered in error"}}, concept(systemAbsent, "error", "Error")
	}
	return []Annotation{{Text: closedNote(o)}}, withdrawnValue(o)
}

// labPerformer is the laboratory that performed a result: the clinic's Organization when
// it is the clinic's own, an external laboratory by its name alone (it has no resource here).
func labPerformer(x result.Result) Reference {
	if x.Performer == "" {
		return Reference{Reference: "Organization/" + clinicID}
	}
	return Reference{Display: x.Performer}
}

// labPerformers are the laboratories that performed an order's results, each once.
func labPerformers(rows []result.Result) []Reference {
	var out []Reference
	for _, x := range rows {
		if p := labPerformer(x); !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// closedNote says why a closed order's preliminary results were withdrawn: its closing and
// the reason given for it.
func closedNote(o result.Order) string {
	what := "Order cancelled"
	if o.Status == result.NotDone {
		what = "Test not done"
	}
	if o.Reason == "" {
		return what + "; the preliminary result was withdrawn."
	}
	return what + ": " + o.Reason + ". The preliminary result was withdrawn."
}

// withdrawnValue is why a closed order's result has no value (DataAbsentReason): a test not
// done after a preliminary result ended in error (a specimen rejected, say); a cancelled
// order's was never performed.
func withdrawnValue(o result.Order) *CodeableConcept {
	if o.Status == result.NotDone {
		return concept(systemAbsent, "error", "Error")
	}
	return concept(systemAbsent, "not-performed", "Not Performed")
}

// qualitativeAnswers are the SNOMED CT qualifier values of the catalogue's qualitative
// answers (the codes HL7's laboratory value sets use for them); an answer not listed here
// (trace, 1+, a clinic's own) is written as text alone.
var qualitativeAnswers = map[string]Coding{
	"negative":      {System: systemSNOMED, Code: "260385009", Display: "Negative"},
	"positive":      {System: systemSNOMED, Code: "10828004", Display: "Positive"},
	"detected":      {System: systemSNOMED, Code: "260373001", Display: "Detected"},
	"not detected":  {System: systemSNOMED, Code: "260415000", Display: "Not detected"},
	"not_detected":  {System: systemSNOMED, Code: "260415000", Display: "Not detected"},
	"reactive":      {System: systemSNOMED, Code: "11214006", Display: "Reactive"},
	"non-reactive":  {System: systemSNOMED, Code: "131194007", Display: "Non-reactive"},
	"indeterminate": {System: systemSNOMED, Code: "82334004", Display: "Indeterminate"},
}

// answerConcept is a qualitative result: its SNOMED CT code where there is one, and the
// answer as recorded.
func answerConcept(answer string) *CodeableConcept {
	c := &CodeableConcept{Text: answer}
	if coding, ok := qualitativeAnswers[strings.ToLower(strings.TrimSpace(answer))]; ok {
		c.Coding = []Coding{coding}
	}
	return c
}
