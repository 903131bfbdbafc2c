package result

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/catalogue"
	"emr/internal/i18n"
	"emr/internal/patient"
)

// ResultInput is one analyte's result as typed: a number (in the user's language's decimal
// notation) with its unit, a coded answer, or text; the lab's own printed range, when it
// replaces the catalogue's, in the same unit as the number.
type ResultInput struct {
	Analyte string `json:"analyte"`
	// Value is the number as typed; a censored value starts with its comparator ("<0.01",
	// "> 500", "≤1", "≥ 90"), or the comparator comes in Comparator.
	Value      string `json:"value"`
	Comparator string `json:"comparator"`
	Unit       string `json:"unit"`
	Answer     string `json:"answer"`
	Text       string `json:"text"`
	LabLow     string `json:"lab_low"`
	LabHigh    string `json:"lab_high"`
	// labUnit is the unit of LabLow and LabHigh when it is not Unit: a refiled value's
	// laboratory range, kept in the canonical unit (refile).
	labUnit string
}

// RecordInput records an order's results: preliminary or final; a change to a final result
// is a correction and needs a reason.
type RecordInput struct {
	Version int    `json:"version"`
	Final   bool   `json:"final"`
	Reason  string `json:"reason"`
	// Performer names the laboratory that performed the tests when it is not the clinic
	// itself ("" or absent: the clinic's own laboratory).
	Performer string        `json:"performer"`
	Results   []ResultInput `json:"results"`
}

// MaxPerformer is the longest name of a performing laboratory.
const MaxPerformer = 200

// MaxText is the longest free-text result (an imaging report).
const MaxText = 8000

// MaxTypedNumber is the longest number a result may be typed as (with its comparator and
// grouping spaces): longer is no measurement.
const MaxTypedNumber = 32

// Recorded is what a recording did: the order as it now stands, and the critical alerts it
// raised (the handler's caller tells the ordering doctor).
type Recorded struct {
	Order  Detail `json:"order"`
	Alerts int    `json:"alerts"`
	// Withdrawn is how many critical alerts a changed value withdrew (the form says so).
	Withdrawn int `json:"withdrawn"`
}

// Record stores an order's results. Each value is checked against its analyte (a unit it
// may be entered in, a value a person can have, an answer it has), converted to the
// canonical unit, flagged against the range that applies to the patient's sex and age on
// the day (or the lab's printed range), and delta-checked against the patient's previous
// result; a critical value raises an alert for the ordering doctor. A correction of a
// final result keeps the rows it replaces and sends the order back for review.
func (s *Store) Record(ctx context.Context, e audit.Event, id int64, in RecordInput, lang string) (Recorded, error) {
	var alerts, withdrawn int
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		o, err := s.lockOrder(ctx, tx, id)
		if err != nil {
			return err
		}
		if o.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		correction := o.Status == Final || o.Status == Reviewed
		switch {
		case o.Status == Cancelled || o.Status == NotDone:
			return apperr.Conflict("result.order_closed")
		case correction:
			if in.Reason, err = apperr.Reason(in.Reason); err != nil {
				return err
			}
			in.Final = true
		}
		if in.Performer, err = performer(in.Performer); err != nil {
			return err
		}
		test, err := catalogue.ReadTestResults(ctx, tx, o.Test, lang)
		if err != nil {
			return fmt.Errorf("read test %s: %w", o.Test, err)
		}
		people, err := patient.Summaries(ctx, tx, []int64{o.PatientID})
		if err != nil {
			return err
		}
		pt := people[o.PatientID]
		now := s.now()
		observed := now
		if o.CollectedAt != nil {
			observed = *o.CollectedAt
		}
		rows, err := s.build(ctx, tx, test, pt, o, in.Results, lang, observed)
		if err != nil {
			return err
		}
		status := Preliminary
		switch {
		case correction:
			status = Corrected
		case in.Final:
			status = Final
		}
		// What the new rows replace: the current result of the same analytes.
		current, err := scanResults(tx.QueryContext(ctx, `SELECT `+resultColumns+` FROM lab_results r WHERE r.order_id = $1 AND r.is_current = 1`, o.ID))
		if err != nil {
			return err
		}
		replaced, was := map[string]int64{}, map[string]Result{}
		for _, r := range current {
			replaced[r.Analyte], was[r.Analyte] = r.ID, r
		}
		// The values that are new or changed: later values flagged against what stood before
		// are flagged again against them (M1 of the laboratory clinician's review, 2026-11-29).
		type moved struct {
			analyte string
			at      time.Time
		}
		var changed []moved
		for _, r := range rows {
			// After the order is final, a value replacing a final (or corrected) one corrects
			// it; one replacing a preliminary value, or of an analyte not yet reported, is
			// final, never a correction of something never reported; one sent again as it was
			// (the correction form sends every result) keeps its status: it was not wrong.
			rowStatus := status
			r.Performer = in.Performer
			if prior, ok := was[r.Analyte]; ok && sameReading(prior, r) {
				// The form names one laboratory for what it sends: a reading sent again as it
				// was keeps the laboratory that performed it (ISO 15189 §7.4.1.6).
				r.Performer = prior.Performer
			}
			if prior, ok := was[r.Analyte]; status == Corrected && ok && sameReading(prior, r) {
				rowStatus = prior.Status
			} else if status == Corrected && prior.Status != Final && prior.Status != Corrected {
				rowStatus = Final
			}
			var replaces any
			var prior *Result
			if old, ok := replaced[r.Analyte]; ok {
				p := was[r.Analyte]
				replaces, prior = old, &p
				if _, err := tx.ExecContext(ctx, `UPDATE lab_results SET is_current = 0 WHERE id = $1`, old); err != nil {
					return fmt.Errorf("replace result: %w", err)
				}
			}
			// A repeat of a test chased again, of an analyte that has no result standing (its
			// value withdrawn), comes from a new specimen: never stamped with the withdrawn
			// one's collection time (a haemolysed sample's).
			rowObserved := observed
			if o.RepeatNeeded && prior == nil {
				rowObserved = now
			}
			var resultID int64
			if err := tx.QueryRowContext(ctx, `INSERT INTO lab_results (order_id, patient_id, analyte, loinc, type, entered, entered_unit,
				value, comparator, unit, answer, text, range_low, range_high, critical_low, critical_high, range_source, range_note, flag, delta, status,
				is_current, replaces, observed_at, recorded_at, recorded_by, performer)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, 1, $22, $23, $24, $25, $26) RETURNING id`,
				o.ID, o.PatientID, r.Analyte, r.LOINC, r.Type, r.Entered, r.EnteredUnit, r.Value, r.Comparator, r.Unit, r.Answer, r.Text,
				r.Range.Low, r.Range.High, r.Range.CriticalLow, r.Range.CriticalHigh, r.Range.Source, r.Range.Note, r.Flag, r.Delta, rowStatus,
				replaces, rowObserved, now, e.Actor(), r.Performer).Scan(&resultID); err != nil {
				return fmt.Errorf("record result %s: %w", r.Analyte, err)
			}
			if prior == nil || !sameReading(*prior, r) {
				changed = append(changed, moved{r.Analyte, rowObserved})
				if prior != nil && !prior.ObservedAt.Equal(rowObserved) {
					changed = append(changed, moved{r.Analyte, prior.ObservedAt})
				}
			}
			raised, gone, err := s.replaceAlerts(ctx, tx, e, o.ID, r, resultID, prior, in.Reason, now)
			if err != nil {
				return err
			}
			alerts, withdrawn = alerts+raised, withdrawn+gone
		}
		attention, err := orderAttention(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		next, toReview := status, 0
		if status != Preliminary {
			next, toReview = Final, 1
		}
		collected := o.CollectedAt
		if collected == nil {
			collected = &now
		}
		if _, err := tx.ExecContext(ctx, `UPDATE lab_orders SET status = $1, to_review = $2, attention = $3, collected_at = $4,
			resulted_at = COALESCE(resulted_at, $5), reviewed_at = NULL, reviewed_by = NULL, review_comment = '',
			corrections = corrections + $6, updated_at = $5, updated_by = $7, version = version + 1,
			repeat_needed = CASE WHEN EXISTS (SELECT 1 FROM lab_results x WHERE x.order_id = $8 AND x.retracted_at IS NOT NULL
				AND NOT EXISTS (SELECT 1 FROM lab_results c WHERE c.order_id = x.order_id AND c.analyte = x.analyte AND c.is_current = 1))
				THEN repeat_needed ELSE 0 END WHERE id = $8`,
			next, toReview, attention, collected, now, boolInt(correction), e.Actor(), o.ID); err != nil {
			return fmt.Errorf("update order: %w", err)
		}
		if err := s.keep(ctx, tx, now, o.ID); err != nil {
			return err
		}
		for _, c := range changed {
			later, err := s.redelta(ctx, tx, o.PatientID, c.analyte, c.at, now)
			if err != nil {
				return err
			}
			if err := s.keep(ctx, tx, now, later...); err != nil {
				return err
			}
		}
		if o.CollectedAt == nil {
			if err := s.event(ctx, tx, e, o.ID, o.PatientID, Collected, "", now, ""); err != nil {
				return err
			}
		}
		event := next
		if correction {
			event = Corrected
		}
		if err := s.event(ctx, tx, e, o.ID, o.PatientID, event, in.Reason, now, resultDetail(rows, alerts)); err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return Recorded{}, err
	}
	d, err := s.Detail(ctx, id, lang)
	return Recorded{Order: d, Alerts: alerts, Withdrawn: withdrawn}, err
}

// replaceAlerts settles the critical alerts of the result prior (nil: none) that the new
// row resultID, r, replaces, and raises one for r when it is critical and carries none; it
// reports how many alerts r now raises (0 for a value sent again as it was).
//   - A value sent again as it was (the correction form sends every result) keeps its alerts,
//     acknowledged or not: never a fresh alert, escalating again, for a value already acted on.
//   - A changed value: an acknowledgement of the old one no longer stands, nor an alert still
//     open when the new value is not critical: withdrawn (withdraw), even when the new value is
//     critical too (7.2 acknowledged and treated, corrected to 2.1: whoever acted on 7.2 must
//     hear of it; ISO 15189:2022 §7.4.1.8, CLIA 42 CFR 493.1291(k), CLSI GP47). An alert still
//     open, nobody having acted on it, is carried to a new value still critical: one alert, its
//     escalation clock unchanged; an acknowledgement names the value it was written for
//     (AckInput.Result) and is refused once that changed.
//
// A preliminary value the later report changes is withdrawn as superseded (the later report
// differs from it), a final one as corrected; either needs the reason the value changed.
func (s *Store) replaceAlerts(ctx context.Context, tx *sql.Tx, e audit.Event, orderID int64, r Result, resultID int64, prior *Result,
	reason string, now time.Time) (raised, withdrawn int, err error) {
	critical := catalogue.Critical(r.Flag)
	carried := int64(0)
	if prior != nil {
		keep := `withdrawn_at IS NULL`
		if !sameReading(*prior, r) {
			w := withdrawal{orderID: orderID, analyte: r.Analyte, category: WithdrawnCorrected, reason: reason, now: now, keepOpen: critical}
			if prior.Status == Preliminary {
				w.category = WithdrawnSuperseded
			}
			if withdrawn, err = s.withdraw(ctx, tx, e, w); err != nil {
				return 0, 0, err
			}
			if withdrawn > 0 && strings.TrimSpace(reason) == "" {
				var v apperr.Validation
				v.Add("reason", "result.withdraw_reason_required")
				return 0, 0, v.Err()
			}
			keep = `withdrawn_at IS NULL AND is_open = 1`
		}
		if critical || keep == `withdrawn_at IS NULL` {
			res, err := tx.ExecContext(ctx, `UPDATE critical_alerts SET result_id = $1 WHERE result_id = $2 AND `+keep, resultID, prior.ID)
			if err != nil {
				return 0, 0, fmt.Errorf("carry alert: %w", err)
			}
			carried, _ = res.RowsAffected()
		}
		if sameReading(*prior, r) && carried > 0 {
			return 0, withdrawn, nil
		}
	}
	if !critical {
		return 0, withdrawn, nil
	}
	if carried == 0 {
		if _, err := tx.ExecContext(ctx, `INSERT INTO critical_alerts (result_id, order_id, patient_id, doctor_id, raised_at)
			SELECT $1, id, patient_id, ordered_by, $2 FROM lab_orders WHERE id = $3`, resultID, now, orderID); err != nil {
			return 0, 0, fmt.Errorf("raise alert: %w", err)
		}
	}
	return 1, withdrawn, nil
}

// performer checks the name of the laboratory that performed the tests: "" for the clinic.
func performer(name string) (string, error) {
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) > MaxPerformer {
		var v apperr.Validation
		v.Add("performer", "validation.too_long")
		return "", v.Err()
	}
	return name, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// resultDetail names what a recording wrote, for the audit log: the analytes, those flagged
// against the lab's own range, and how many alerts were raised.
// The analytes are codes, the same in every language; the words are the reader's.
func resultDetail(rows []Result, alerts int) string {
	var names, lab []string
	for _, r := range rows {
		names = append(names, r.Analyte)
		if r.Range.Source == "lab" {
			lab = append(lab, r.Analyte)
		}
	}
	out := []audit.Phrase{{Key: "audit.detail.results", Args: []string{strings.Join(names, ", ")}}}
	if len(lab) > 0 {
		out = append(out, audit.Phrase{Key: "audit.detail.lab_range", Args: []string{strings.Join(lab, ", ")}})
	}
	if alerts > 0 {
		out = append(out, audit.Phrase{Key: "audit.detail.critical_alerts", Args: []string{strconv.Itoa(alerts)}})
	}
	return audit.Phrases(out...)
}

// orderAttention ranks an order's current results: critical, abnormal (or a delta, or a
// number no reference interval judged: never ranked as normal), normal.
func orderAttention(ctx context.Context, tx *sql.Tx, orderID int64) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT flag, delta, type FROM lab_results WHERE order_id = $1 AND is_current = 1`, orderID)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	attention := AttentionNormal
	for rows.Next() {
		var flag, delta, typ string
		if err := rows.Scan(&flag, &delta, &typ); err != nil {
			return 0, err
		}
		switch {
		case catalogue.Critical(flag):
			attention = AttentionCritical
		case (flag != "" && flag != catalogue.FlagNormal) || delta != "" || (flag == "" && typ == catalogue.Numeric):
			attention = max(attention, AttentionAbnormal)
		}
	}
	return attention, rows.Err()
}

// build checks the typed results against the test's analytes and turns them into rows.
func (s *Store) build(ctx context.Context, tx *sql.Tx, test catalogue.TestResults, pt patient.Summary, o Order,
	in []ResultInput, lang string, observed time.Time) ([]Result, error) {
	var v apperr.Validation
	if len(in) == 0 {
		v.Add("results", "result.none")
		return nil, v.Err()
	}
	months := -1
	if birth, err := time.Parse(time.DateOnly, pt.BirthDate); err == nil {
		months = catalogue.MonthsOld(birth, s.clinicDay(observed))
	}
	seen := map[string]bool{}
	var out []Result
	for i, x := range in {
		field := fmt.Sprintf("results.%d", i)
		x.Analyte = strings.TrimSpace(x.Analyte)
		var a *catalogue.Analyte
		for j := range test.Analytes {
			if test.Analytes[j].Code == x.Analyte {
				a = &test.Analytes[j]
			}
		}
		switch {
		case a == nil:
			v.Add(field+".analyte", "result.unknown_analyte")
			continue
		case seen[a.Code]:
			v.Add(field+".analyte", "result.duplicate_analyte")
			continue
		}
		seen[a.Code] = true
		r := Result{Analyte: a.Code, LOINC: a.LOINC, Type: a.Type, Range: Range{Source: "none"}}
		switch a.Type {
		case catalogue.Numeric:
			if !s.number(ctx, tx, &v, field, *a, x, pt, months, o, lang, observed, &r) {
				continue
			}
		case catalogue.Coded:
			flag, err := a.AnswerFlag(strings.TrimSpace(x.Answer))
			if err != nil {
				v.Add(field+".answer", "result.unknown_answer")
				continue
			}
			r.Answer, r.Flag = strings.TrimSpace(x.Answer), flag
		default:
			r.Text = strings.TrimSpace(x.Text)
			switch {
			case r.Text == "":
				v.Add(field+".text", "validation.required")
			case utf8.RuneCountInString(r.Text) > MaxText:
				v.Add(field+".text", "validation.too_long")
			}
		}
		out = append(out, r)
	}
	return out, v.Err()
}

// decimalKey is the message key of a number that could not be read.
func decimalKey(err error) string { return i18n.NumberKey(err) }

// comparators are the prefixes a censored value may be typed with, longest first, and the
// comparator each means.
var comparators = []struct{ typed, comparator string }{
	{"<=", catalogue.LessOrEqual}, {">=", catalogue.MoreOrEqual}, {"≤", catalogue.LessOrEqual}, {"≥", catalogue.MoreOrEqual},
	{"<", catalogue.Less}, {">", catalogue.More},
}

// censored splits a typed value into its comparator and number ("<0.01" → "<", "0.01"); a
// comparator sent on its own must be one of the four.
func censored(value, comparator string) (cmp, number string, ok bool) {
	value = strings.TrimSpace(value)
	for _, c := range comparators {
		if rest, found := strings.CutPrefix(value, c.typed); found {
			if comparator != "" && comparator != c.comparator {
				return "", "", false
			}
			return c.comparator, strings.TrimSpace(rest), true
		}
	}
	switch comparator {
	case "", catalogue.Less, catalogue.LessOrEqual, catalogue.More, catalogue.MoreOrEqual:
		return comparator, value, true
	}
	return "", "", false
}

// number fills r with a numeric result: the value as typed, in the canonical unit, the
// limits that apply and the flags. It reports false (with v told why) when the value
// cannot be stored.
func (s *Store) number(ctx context.Context, tx *sql.Tx, v *apperr.Validation, field string, a catalogue.Analyte, x ResultInput,
	pt patient.Summary, months int, o Order, lang string, observed time.Time, r *Result) bool {
	unit := strings.TrimSpace(x.Unit)
	if unit == "" {
		// A quantitative result carries its unit (HL7 v2 OBX-6, FHIR Quantity): a number
		// without one is taken in the only unit the analyte has, never guessed among several.
		if len(a.Units) > 0 {
			v.Add(field+".unit", "result.unit_required")
			return false
		}
		unit = a.Unit
	}
	if utf8.RuneCountInString(x.Value) > MaxTypedNumber {
		v.Add(field+".value", "validation.too_long")
		return false
	}
	comparator, typedValue, ok := censored(x.Value, x.Comparator)
	if !ok {
		v.Add(field+".comparator", "result.comparator")
		return false
	}
	if typedValue == "" {
		v.Add(field+".value", "validation.required")
		return false
	}
	typed, err := i18n.ParseDecimal(lang, typedValue)
	if err != nil {
		v.Add(field+".value", decimalKey(err))
		return false
	}
	// A value typed with exactly three decimals on an analyte reported in whole numbers in that
	// unit ("1.500" U/L ALT) is a thousands group written with a point, whatever the language
	// (a laboratory's report may group so): refused, never rounded to 2.
	if typedDecimals(typedValue) == 3 && a.DecimalsIn(unit) == 0 && typed >= 1 {
		v.Add(field+".value", "result.thousands_point")
		return false
	}
	canonical, err := a.Canonical(typed, unit)
	if err != nil {
		v.Add(field+".unit", "result.unknown_unit")
		return false
	}
	// "<x" at or below what a person can have, or ">x" at or above it, says nothing possible.
	below, above := comparator == catalogue.Less || comparator == catalogue.LessOrEqual, comparator == catalogue.More || comparator == catalogue.MoreOrEqual
	if below && a.PlausibleLow != nil && canonical <= *a.PlausibleLow || above && a.PlausibleHigh != nil && canonical >= *a.PlausibleHigh {
		v.Add(field+".value", "result.implausible")
		return false
	}
	// A value is reported at the analyte's precision, whatever unit it was typed in (the typed
	// text stays in entered), with no more digits than were typed ("86" stays 86, not 86.0):
	// its flag and critical limits are judged on what is reported, so K "5.96" is 6.0 and
	// critical in mmol/L as in meq/L (CLSI GP47). Never rounded away: a value keeps two
	// significant digits of those typed ("0.004" TSH is not "0.00"); a censored value keeps
	// its limit as the laboratory wrote it ("<0.001").
	reported := reportedDecimals(a, typedValue, canonical)
	decimals := reported
	if unit == a.Unit {
		decimals = min(decimals, typedDecimals(typedValue)) // "86" stays 86, not 86.0
		if comparator != "" {
			decimals = min(typedDecimals(typedValue), MaxDecimals) // a limit as the laboratory wrote it
		}
	}
	canonical = catalogue.Round(canonical, max(decimals, reported))
	if canonical == 0 { // never a negative zero ("-0")
		canonical = 0
	}
	if err := a.Plausible(canonical); err != nil {
		v.Add(field+".value", "result.implausible")
		return false
	}
	value := catalogue.Format(canonical, decimals)
	r.Entered, r.EnteredUnit, r.Value, r.Unit, r.Comparator = strings.Replace(typedValue, ",", ".", 1), unit, &value, a.Unit, comparator
	limits := a.LimitsFor(pt.Sex, months)
	r.Range.Note = limits.Note
	if limits.Reference {
		r.Range.Source = "catalogue"
	}
	if strings.TrimSpace(x.LabLow) != "" || strings.TrimSpace(x.LabHigh) != "" {
		labUnit := unit
		if x.labUnit != "" {
			labUnit = x.labUnit
		}
		low, lowOK := s.labBound(v, field+".lab_low", a, x.LabLow, labUnit, lang)
		high, highOK := s.labBound(v, field+".lab_high", a, x.LabHigh, labUnit, lang)
		if !lowOK || !highOK {
			return false
		}
		if low != nil && high != nil && *low > *high {
			v.Add(field+".lab_high", "result.range_inverted")
			return false
		}
		// The lab's printed interval replaces the catalogue's; the critical limits stay the
		// analyte's.
		limits.Low, limits.High, limits.Reference, limits.Note = low, high, true, ""
		r.Range.Source, r.Range.Note = "lab", ""
	}
	if limits.Reference {
		rangeDecimals := a.Decimals
		if r.Range.Source == "lab" {
			rangeDecimals = MaxDecimals // the laboratory's printed limits, as printed (labBound)
		}
		r.Range.Low, r.Range.High = text(limits.Low, rangeDecimals), text(limits.High, rangeDecimals)
	}
	r.Range.CriticalLow, r.Range.CriticalHigh = text(limits.CriticalLow, a.Decimals), text(limits.CriticalHigh, a.Decimals)
	var note string
	r.Flag, note = catalogue.FlagCensored(canonical, comparator, limits)
	if note != "" && r.Range.Note == "" {
		r.Range.Note = note
	}
	if comparator != "" || len(a.DeltaRules) == 0 { // a censored value is no number to compare
		return true
	}
	earlier, err := earlierValues(ctx, tx, o.PatientID, a.Code, o.ID, observed, a.MaxDeltaWindow())
	if err != nil {
		v.Add(field+".value", "error.internal")
		return false
	}
	r.Delta = a.Delta(canonical, observed, earlier)
	return true
}

// clinicDay is the calendar day of t in the clinic's time zone, as a UTC midnight (what
// MonthsOld compares birth dates with).
func (s *Store) clinicDay(t time.Time) time.Time {
	if s.Loc != nil {
		t = t.In(s.Loc)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// MaxDecimals is the finest a value is kept to: no laboratory reports a millionth of a unit.
const MaxDecimals = 6

// reportedDecimals is how many decimals a value typed as typed keeps in the analyte's
// canonical unit (canonical is its value there): the analyte's reporting precision (4.125
// mmol/L potassium is 4.1; 126 mg/dL glucose 7.0 mmol/L), with more decimals where that would
// leave fewer significant digits than typed, up to two (0.004 mIU/L TSH stays 0.004; 0.004
// ng/dL FT4 is 0.05 pmol/L, not 0.1). Never more than MaxDecimals.
func reportedDecimals(a catalogue.Analyte, typed string, canonical float64) int {
	decimals := a.Decimals
	if canonical != 0 {
		magnitude := int(math.Floor(math.Log10(math.Abs(canonical))))
		decimals = max(decimals, min(significantDigits(typed), 2)-1-magnitude)
	}
	return min(max(decimals, 0), MaxDecimals)
}

// printedDecimals is how many decimals a laboratory's printed limit keeps: as typed, in the
// analyte's unit (the laboratory's own interval, "3.50–5.10"); converted, as a value is
// reported.
func printedDecimals(a catalogue.Analyte, typed, unit string, canonical float64) int {
	if unit == a.Unit {
		return min(typedDecimals(typed), MaxDecimals)
	}
	return reportedDecimals(a, typed, canonical)
}

// significantDigits counts the digits of a typed number from its first one that is not 0
// ("0.0040" has 2; "90" has 2).
func significantDigits(typed string) int {
	n, leading := 0, true
	for _, c := range typed {
		switch {
		case c < '0' || c > '9':
		case c == '0' && leading:
		default:
			leading = false
			n++
		}
	}
	return max(n, 1)
}

// typedDecimals is how many digits follow the decimal sign of a typed number.
func typedDecimals(typed string) int {
	if i := strings.LastIndexAny(typed, ".,"); i >= 0 {
		return len(typed) - i - 1
	}
	return 0
}

// labBound reads one bound of the lab's printed range, in unit, into the canonical unit.
func (s *Store) labBound(v *apperr.Validation, field string, a catalogue.Analyte, typed, unit, lang string) (*float64, bool) {
	if strings.TrimSpace(typed) == "" {
		return nil, true
	}
	if utf8.RuneCountInString(typed) > MaxTypedNumber {
		v.Add(field, "validation.too_long")
		return nil, false
	}
	f, err := i18n.ParseDecimal(lang, typed)
	if err != nil {
		v.Add(field, decimalKey(err))
		return nil, false
	}
	c, err := a.Canonical(f, unit)
	if err != nil {
		v.Add(field, "result.unknown_unit")
		return nil, false
	}
	c = catalogue.Round(c, printedDecimals(a, strings.TrimSpace(typed), unit, c)) // as printed, never rounded away
	return &c, true
}

// text writes a limit as the catalogue has it, at most to the analyte's precision ("0–5",
// not "0.0–5.0"; "2.99" stays).
func text(f *float64, decimals int) *string {
	if f == nil {
		return nil
	}
	s := strconv.FormatFloat(catalogue.Round(*f, decimals), 'f', -1, 64)
	return &s
}

// earlierValues are the patient's current numeric results of analyte on other orders,
// observed within window before at (censored values left out), for the delta check; read
// through the (patient, analyte, observed_at) index.
// standing is the condition a current result row (of lab_results, unaliased)
// stands by for trends and delta checks: its order was not marked not done or cancelled (a
// preliminary value of a test never completed is withdrawn: M2 of the laboratory
// clinician's review, 2026-11-29).
const standing = `NOT EXISTS (SELECT 1 FROM lab_orders so WHERE so.id = order_id AND so.status IN ('not_done', 'cancelled'))`

func earlierValues(ctx context.Context, tx *sql.Tx, patientID int64, analyte string, orderID int64, at time.Time, window time.Duration) ([]catalogue.Earlier, error) {
	rows, err := tx.QueryContext(ctx, `SELECT value, observed_at FROM lab_results WHERE patient_id = $1 AND analyte = $2
		AND observed_at >= $3 AND observed_at <= $4 AND is_current = 1 AND order_id <> $5 AND value IS NOT NULL AND comparator = ''
		AND `+standing+` ORDER BY observed_at DESC, id DESC LIMIT 200`, patientID, analyte, at.Add(-window), at, orderID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []catalogue.Earlier
	for rows.Next() {
		var value string
		var e catalogue.Earlier
		if err := rows.Scan(&value, &e.ObservedAt); err != nil {
			return nil, err
		}
		if e.Value, err = strconv.ParseFloat(value, 64); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// sameReading reports whether a result says what an earlier one of its analyte said: the
// same value, limit, unit, answer, text and the laboratory's range.
func sameReading(a, b Result) bool {
	same := func(x, y *string) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return same(a.Value, b.Value) && a.Comparator == b.Comparator && a.Unit == b.Unit && a.Answer == b.Answer && a.Text == b.Text &&
		same(a.Range.Low, b.Range.Low) && same(a.Range.High, b.Range.High)
}
