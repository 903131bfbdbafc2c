package prescription

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/patient"
	"emr/internal/textsearch"
)

// The medicine-safety check (docs/adr/0015, 0025): every line is checked against the
// patient's recorded allergies (by substance, brand, combination and class, with graded
// cross-sensitivities), against the other lines and the patient's other prescriptions
// (duplicate therapy, supply-aware), and for drug–drug interactions with the other lines and
// the patient's current medicines (prescriptions whose supply still runs or ran out less than
// its washout and a week's grace ago — 90 days from the issue when the supply cannot be read —
// and the medicines recorded as taken from elsewhere or over the counter and not
// stopped). Each finding of tier
// hard or high must be acknowledged on its line with a reason before the prescription is
// saved or issued; a low one is shown and needs none. Acknowledgements are stored with the
// line, printed nowhere, and audited.

// Kinds of finding.
const (
	FindAllergy     = "allergy"             // the line holds the allergen, or is in a class the allergy names
	FindSameClass   = "allergy_class"       // the allergen and the line share a class
	FindCross       = "cross_sensitivity"   // the line's class may cross-react with the allergen's
	FindUnspecified = "allergy_unspecified" // "antibiotics", "painkillers": an allergy to clarify
	FindDuplicate   = "duplicate"           // another line of this prescription
	FindRecent      = "duplicate_recent"    // one of the patient's prescriptions still being taken
	FindTaken       = "duplicate_taken"     // a medicine recorded as taken, from elsewhere or over the counter
	FindInteraction = "interaction"         // a drug–drug interaction
	// FindReliever: a reliever inhaler (a short-acting beta-agonist) that makes three
	// canisters or more in a year: a prompt to review the treatment, never a reason to
	// withhold it.
	FindReliever = "reliever_overuse"
	// FindOralReliever: a short-acting beta-agonist by mouth (salbutamol tablets or syrup): a
	// caution that the inhaled one, with a spacer, is the reliever.
	FindOralReliever = "reliever_oral"
	// FindUnrecorded: nobody has recorded whether the patient has allergies, so the check
	// above proves nothing. Said once, on the first line.
	FindUnrecorded = "allergies_unrecorded"
	keyUnrecorded  = "allergy:not-recorded"
	recentDays     = 30 // a prescription whose supply is not known counts as taken this long
	// graceDays: a supply that ran out still interacts this many days after its washout,
	// for the doses taken late or kept back (M7).
	graceDays       = 7
	currentDays     = 90 // the patient's current medicines, for interactions
	maxReasonLength = 500
)

// Finding is one thing about a line that the prescriber must see before it is given.
type Finding struct {
	Line int `json:"line"`
	// Key names the finding stably; an override lists the keys it acknowledges.
	Key  string `json:"key"`
	Kind string `json:"kind"`
	// Tier: hard (an allergy), high (avoid unless cleared), low (a caution: no reason needed).
	Tier catalogue.Tier `json:"tier"`
	// Blocking is set after a severe reaction (or for a contraindicated interaction).
	Blocking bool `json:"blocking"`
	// RequiresReason: the line is saved or issued only with a reason (tiers hard and high).
	RequiresReason bool   `json:"requires_reason"`
	Allergy        string `json:"allergy,omitempty"`
	// Severity is the allergy's recorded severity, or an interaction's: contraindicated,
	// major, moderate.
	Severity string `json:"severity,omitempty"`
	Reaction string `json:"reaction,omitempty"`
	// Substance and Class name, in the user's language, what the line shares with the
	// allergy or the other medicine; FromClass is the allergen's class of a cross-sensitivity.
	Substance string `json:"substance,omitempty"`
	Class     string `json:"class,omitempty"`
	FromClass string `json:"from_class,omitempty"`
	// Basis says why a cross-sensitivity holds (side_chain, beta_lactam, cox1, …).
	Basis string `json:"basis,omitempty"`
	// Unrecognised: the allergen is not in the knowledge; the line matched it by its words.
	Unrecognised bool `json:"unrecognised,omitempty"`
	// An interaction's effect and what to do (keys the interface words), its mechanism (in
	// English) and its source.
	Effect    string `json:"effect,omitempty"`
	Action    string `json:"action,omitempty"`
	Mechanism string `json:"mechanism,omitempty"`
	Source    string `json:"source,omitempty"`
	// Dosing holds the numbers of a dose-by-weight finding (safety_weight.go).
	Dosing *DoseFacts `json:"dosing,omitempty"`
	// The other line (0-based) or prescription of a duplicate or an interaction.
	OtherLine         *int   `json:"other_line,omitempty"`
	OtherPrescription *int64 `json:"other_prescription_id,omitempty"`
	OtherMedicine     string `json:"other_medicine,omitempty"`
	OtherDate         string `json:"other_date,omitempty"`
	// SupplyUntil is the last day of the other prescription's supply, when it can be told.
	SupplyUntil string `json:"supply_until,omitempty"`
	// Renews: the line renews or extends the other prescription near the end of its supply.
	Renews bool `json:"renews,omitempty"`
	// Count is, for a reliever's prompt, how many reliever canisters the patient was issued
	// in the 12 months, the lines being written included.
	Count int `json:"count,omitempty"`
	// Urgent: a reliever's prompt at relieverUrgent canisters a year or more (said more urgently).
	Urgent bool `json:"urgent,omitempty"`
	// Condition is, for a reliever's prompt, what the visit's diagnoses say: asthma, copd,
	// or empty (neither or both: both are said).
	Condition string `json:"condition,omitempty"`
	// NoICS: no medicine of the patient's (written here, prescribed and still supplied, or
	// recorded as taken) holds an inhaled corticosteroid.
	NoICS bool `json:"no_ics,omitempty"`
	// OnHand is how many days of a controlled medicine the patient still holds, its supplies
	// of the last 180 days added up.
	OnHand int `json:"on_hand_days,omitempty"`
	// OtherTaken and OtherSource name a recorded medicine the patient takes (from elsewhere
	// or over the counter), recorded on OtherDate.
	OtherTaken  *int64 `json:"other_taken_id,omitempty"`
	OtherSource string `json:"other_source,omitempty"`
	// OtherStopped: the other medicine was stopped that day but still acts for about
	// ActiveWeeks more (its washout: fluoxetine, amiodarone).
	OtherStopped string `json:"other_stopped_on,omitempty"`
	ActiveWeeks  int    `json:"active_weeks,omitempty"`
	// Overridden is set when the line acknowledges this finding with a reason.
	Overridden bool `json:"overridden"`
	// Pair names a finding of the current-medicines list's review, for a prescriber to keep
	// it knowingly; Kept says it is kept (ADR 25).
	Pair *PairRef `json:"pair,omitempty"`
	Kept *Kept    `json:"kept,omitempty"`
}

// settled reports whether a finding stands in the way of saving or issuing no longer.
func (f Finding) settled() bool { return f.Overridden || !f.RequiresReason }

// lineDrugs is what a line is made of.
type lineDrugs struct {
	medicine   string
	medicineID *int64
	// supply is how many days the line supplies (itemSupply); 0 when unknown.
	supply int
	// prn: taken as needed; local: put on the skin, the eye or the ear (localUse); oral: by
	// mouth (oralUse).
	prn, local, oral bool
	// canisters: how many inhalers the line gives, for the reliever prompt.
	canisters int
	// stoppedOn: a line here the patient no longer takes (M3), still acting (its washout)
	// unless gone.
	stoppedOn string
	gone      bool
	catalogue.Profile
}

// sameProduct reports whether two lines are the same medicine: the same catalogue entry, or
// the same substances (another strength or brand) in a form for the same use — diclofenac
// gel is no refill of diclofenac tablets.
func sameProduct(a, b lineDrugs) bool {
	if a.medicineID != nil && b.medicineID != nil && *a.medicineID == *b.medicineID {
		return true
	}
	if a.local != b.local {
		return false
	}
	x, y := slices.Clone(a.Substances), slices.Clone(b.Substances)
	slices.Sort(x)
	slices.Sort(y)
	return len(x) > 0 && slices.Equal(x, y)
}

// recentRx is another prescription of the patient, for duplicate therapy and interactions.
type recentRx struct {
	id    int64
	date  string
	at    time.Time
	lines []lineDrugs
	// issued: printed (a draft never reached the patient)
	issued bool
	// past: over and older than the current medicines' 90 days, read only to add up a
	// controlled medicine's stock.
	past bool
}

// safetyInput is everything a check needs.
type safetyInput struct {
	allergies []patient.Allergy
	// unrecorded: the patient's allergies have never been asked about.
	unrecorded bool
	lines      []lineDrugs
	recent     []recentRx
	// taken: the medicines recorded as taken and not stopped, current as long as they are.
	taken []takenDrug
	// recording: the line is a medicine being recorded as taken, not prescribed (C1).
	recording bool
	now       time.Time
	loc       *time.Location
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

// allergyFinding turns a match into the finding a prescriber reads.
func allergyFinding(m catalogue.AllergyMatch, d describer) Finding {
	f := Finding{Tier: m.Tier, Blocking: m.Blocking, Basis: m.Basis}
	switch m.Kind {
	case "substance":
		f.Kind, f.Substance = FindAllergy, d.substance(m.Key)
	case "excipient": // gelatin of a capsule shell, soya oil
		f.Kind, f.Substance = FindAllergy, d.drugs.ComponentName(m.Key, d.lang)
	case "unrecognised":
		f.Kind, f.Substance, f.Unrecognised = FindAllergy, m.Key, true
	case "class":
		f.Kind, f.Class = FindAllergy, d.class(m.Key)
	case "vague":
		f.Kind, f.Class = FindUnspecified, d.class(m.Key)
	case "cross":
		f.Kind, f.Class = FindCross, d.class(m.To)
		if cls := d.drugs.Class(m.To); m.From == m.To && cls != nil && cls.Use != catalogue.UseGroup {
			f.Kind = FindSameClass // amoxicillin and flucloxacillin: both penicillins
		} else if m.From != m.To {
			f.FromClass = d.class(m.From)
		}
	}
	return f
}

// check finds what every line must acknowledge.
func check(in safetyInput, d describer) []Finding {
	out := []Finding{}
	drugs := d.drugs
	if in.unrecorded && len(in.lines) > 0 {
		out = append(out, Finding{Line: 0, Kind: FindUnrecorded, Key: keyUnrecorded, Tier: catalogue.TierHigh, RequiresReason: true})
	}
	type allergy struct {
		patient.Allergy
		al       catalogue.Allergen
		reaction catalogue.Reaction
		base     string
	}
	var allergies []allergy
	for _, a := range in.allergies {
		al := drugs.Allergen(a.Substance)
		if al.Negated {
			continue
		}
		allergies = append(allergies, allergy{a, al, catalogue.ReadReaction(a.Severity, a.Reaction, a.Substance),
			"allergy:" + strings.Join(strings.Fields(strings.ToLower(a.Substance)), " ") + ":"})
	}
	var current []catalogue.Profile
	for _, rx := range in.recent {
		if rx.past {
			continue
		}
		for _, l := range rx.lines {
			if !l.gone {
				current = append(current, l.Profile)
			}
		}
	}
	for _, t := range in.taken {
		current = append(current, t.Profile)
	}
	for i, line := range in.lines {
		for _, a := range allergies {
			m, ok := drugs.Judge(a.al, a.reaction, line.Profile)
			if !ok {
				continue
			}
			f := allergyFinding(m, d)
			f.Line, f.Allergy, f.Severity, f.Reaction = i, a.Substance, a.Severity, a.Reaction
			f.Key = a.base + m.Kind + ":" + m.Key
			out = append(out, f)
		}
		var others []catalogue.Profile
		for j, l := range in.lines {
			if j != i {
				others = append(others, l.Profile)
			}
		}
		others = append(others, current...)
		for j := range i {
			other := in.lines[j]
			if kind, key := shared(drugs, line, other); kind != "" {
				j := j
				f := Finding{Line: i, Kind: FindDuplicate, Key: "duplicate:" + kind + ":" + key, Tier: catalogue.TierHigh, OtherLine: &j, OtherMedicine: other.medicine}
				f.Substance, f.Class = d.sharedName(kind, key)
				out = append(out, f)
				break
			}
		}
		for j := range i {
			if rules := drugs.InteractionsOf(line.Profile, in.lines[j].Profile, others); len(rules) > 0 {
				j := j
				f := interactionFinding(rules[0], i, "line:"+strconv.Itoa(j))
				f.OtherLine, f.OtherMedicine = &j, in.lines[j].medicine
				out = append(out, f)
			}
		}
		out = append(out, recentFindings(in, i, line, others, d)...)
		out = append(out, takenFindings(in, i, line, others, d)...)
		if f, ok := relieverFinding(in, i, line); ok {
			out = append(out, f)
		}
	}
	for i := range out {
		out[i].RequiresReason = out[i].Tier != catalogue.TierLow
	}
	return out
}

// relieverFinding prompts, on a reliever inhaler being prescribed, when the canisters issued
// in the 12 months before and those being written add up to relieverLimit or more: a caution
// (no reason needed), said once on the first reliever line, more urgent from relieverUrgent.
// It counts canisters, not prescriptions: a line's inhalers times 1 + its refills (M1). A
// medicine recorded as taken is not prescribed here, and is not counted. A reliever by mouth
// is said apart: prescribe the inhaled one (M10).
func relieverFinding(in safetyInput, i int, line lineDrugs) (Finding, bool) {
	if in.recording {
		return Finding{}, false
	}
	if oralReliever(line) {
		return Finding{Line: i, Key: "reliever:oral", Kind: FindOralReliever, Tier: catalogue.TierLow}, true
	}
	if !reliever(line) || slices.ContainsFunc(in.lines[:i], reliever) {
		return Finding{}, false
	}
	today := civil(in.now, in.loc)
	n := 0
	for _, l := range in.lines {
		if reliever(l) {
			n += l.canisters
		}
	}
	for _, rx := range in.recent {
		if !rx.issued || daysBetween(civil(rx.at, in.loc), today) >= relieverDays { // the 365 days to today
			continue
		}
		for _, l := range rx.lines {
			if reliever(l) {
				n += l.canisters
			}
		}
	}
	if n < relieverLimit {
		return Finding{}, false
	}
	return Finding{Line: i, Key: "reliever:year", Kind: FindReliever, Tier: catalogue.TierLow, Count: n, Urgent: n >= relieverUrgent, NoICS: !hasICS(in)}, true
}

// hasICS reports whether the patient has an inhaled corticosteroid: on a line being written,
// a prescription still supplied, or a medicine recorded as taken and not stopped.
func hasICS(in safetyInput) bool {
	ics := func(l lineDrugs) bool { return hasATC(l.Profile, icsATC) }
	if slices.ContainsFunc(in.lines, ics) {
		return true
	}
	for _, rx := range in.recent {
		if !rx.past && slices.ContainsFunc(rx.lines, func(l lineDrugs) bool { return !l.gone && l.stoppedOn == "" && ics(l) }) {
			return true
		}
	}
	return slices.ContainsFunc(in.taken, func(t takenDrug) bool { return t.stopped == "" && ics(t.lineDrugs) })
}

// relieverCondition is what a visit's diagnoses say for the reliever prompt: asthma (J45,
// J46), COPD (J44), or empty when neither or both.
func relieverCondition(diagnoses []appointment.Diagnosis) string {
	var asthma, copd bool
	for _, d := range diagnoses {
		code := strings.ToUpper(strings.TrimSpace(d.Code))
		asthma = asthma || strings.HasPrefix(code, "J45") || strings.HasPrefix(code, "J46")
		copd = copd || strings.HasPrefix(code, "J44")
	}
	switch {
	case asthma && !copd:
		return "asthma"
	case copd && !asthma:
		return "copd"
	}
	return ""
}

// interactionFinding is a rule met by line i and another medicine (other: "line:J", "rx:ID").
func interactionFinding(r catalogue.Interaction, i int, other string) Finding {
	f := Finding{Line: i, Kind: FindInteraction, Key: "interaction:" + r.Key + ":" + other, Severity: r.Severity,
		Effect: r.Effect, Action: r.Action, Mechanism: r.Mechanism, Source: r.Source}
	switch r.Severity {
	case catalogue.Contraindicated:
		f.Tier, f.Blocking = catalogue.TierHard, true
	case catalogue.Major:
		f.Tier = catalogue.TierHigh
	default:
		f.Tier = catalogue.TierLow
	}
	return f
}

// recentFindings are line i's duplicates of, and interactions with, the patient's other
// prescriptions. A prescription counts as being taken while its supply lasts, in calendar
// days with the issue day the first (30 days when it cannot be told). The same product
// written again near the end of its supply is a renewal, not a duplicate: within a quarter
// of the supply, at most a fortnight, before its end (refillWindow); a controlled medicine
// only within a tenth, at most three days, of the end of all its supplies of the last 180
// days added up, so that renewing early every month does not build a stock unseen (SHPNC).
// A renewal is said as a caution (LOW) when it extends a course (antimicrobials,
// corticosteroids, NSAIDs), an as-needed line or renames the product; a long-term medicine's
// renewal is silent (alert fatigue: van der Sijs, JAMIA 2006; Baysari, JAMIA 2012).
func recentFindings(in safetyInput, i int, line lineDrugs, others []catalogue.Profile, d describer) []Finding {
	var out []Finding
	today := civil(in.now, in.loc)
	for _, rx := range in.recent {
		if rx.past {
			continue // kept only to add up a controlled medicine's stock
		}
		for _, other := range rx.lines {
			kind, key := shared(d.drugs, line, other)
			if kind == "" || other.stoppedOn != "" { // a line stopped is no duplicate, only still acting
				continue
			}
			f, ok := recentDuplicate(in, today, line, rx, other)
			if !ok {
				continue
			}
			f.Line, f.Key = i, fmt.Sprintf("recent:%d:%s:%s", rx.id, kind, key)
			f.Substance, f.Class = d.sharedName(kind, key)
			out = append(out, f)
			break
		}
		for _, other := range rx.lines {
			if other.gone {
				continue
			}
			if rules := d.drugs.InteractionsOf(line.Profile, other.Profile, others); len(rules) > 0 {
				id := rx.id
				f := interactionFinding(rules[0], i, fmt.Sprintf("rx:%d", rx.id))
				f.OtherPrescription, f.OtherMedicine, f.OtherDate = &id, other.medicine, rx.date
				if other.stoppedOn != "" {
					day, _ := time.Parse(time.DateOnly, other.stoppedOn)
					f.OtherStopped, f.ActiveWeeks = other.stoppedOn, (d.drugs.Washout(other.Profile)-daysBetween(day, today)+6)/7
				}
				out = append(out, f)
			}
		}
	}
	return out
}

// recentDuplicate judges line beside other, a line of prescription rx sharing a substance or
// class with it: the finding (without its line and key), or none.
func recentDuplicate(in safetyInput, today time.Time, line lineDrugs, rx recentRx, other lineDrugs) (Finding, bool) {
	left, known := supplyLeft(rx.at, other.supply, today, in.loc)
	same := sameProduct(line, other)
	isControlled := same && controlled(other.Profile)
	stock := 0
	if isControlled {
		// the stock is said once, on the newest prescription of the product
		if days, newest := stockLeft(in, today, other); newest == rx.id {
			stock = days
			left = max(left, stock)
		}
	}
	held := left
	if same && (line.prn || other.prn) {
		// an as-needed supply is used at most as fast as its quantity says, and often kept longer
		held = max(left, recentDays-daysBetween(civil(rx.at, in.loc), today))
	}
	if held <= 0 {
		return Finding{}, false
	}
	id := rx.id
	f := Finding{Kind: FindRecent, Tier: catalogue.TierHigh, OtherPrescription: &id, OtherMedicine: other.medicine, OtherDate: rx.date}
	if known && left > 0 {
		f.SupplyUntil = today.AddDate(0, 0, left-1).Format(time.DateOnly) // its last day
	}
	switch {
	case !same && line.local != other.local:
		f.Tier = catalogue.TierLow // a gel beside tablets: little of it reaches the blood
	case !same:
	case isControlled && stock > 0 && float64(stock) > refillWindow(other.supply, true):
		f.OnHand = stock
	case !known || line.prn || other.prn:
		f.Tier = catalogue.TierLow // perhaps a renewal: shown, no reason asked
	case float64(left) <= refillWindow(other.supply, isControlled):
		if !extendsCourse(line, other) {
			return Finding{}, false
		}
		f.Tier, f.Renews = catalogue.TierLow, true
	}
	return f, true
}

// shared is what two lines share for duplicate therapy (catalogue Shared), but for aspirin at
// an antiplatelet dose beside another NSAID: there the interaction is the issue, not a second
// painkiller (m3; the aspirin_nsaid rule).
func shared(drugs *catalogue.Drugs, a, b lineDrugs) (kind, key string) {
	kind, key = drugs.Shared(a.Profile, b.Profile)
	if kind == "class" && (antiplateletAspirin(a) || antiplateletAspirin(b)) {
		return "", ""
	}
	return kind, key
}

// aspirinDose reads a strength in milligrams: "81 mg", «75 мг», "100毫克".
var aspirinDose = regexp.MustCompile(`(\d+(?:[.,]\d+)?)\s*(?:mg|мг|毫克)`)

// antiplateletAspirin reports whether a line is aspirin alone at an antiplatelet dose: a
// cardiac brand (Cardiomagnyl, Thrombo ASS, Aspirin Cardio, Aspilets) or at most 325 mg.
func antiplateletAspirin(l lineDrugs) bool {
	if len(l.Substances) != 1 || l.Substances[0] != "acetylsalicylic acid" {
		return false
	}
	text := textsearch.Fold(l.medicine)
	for _, brand := range []string{"cardio", "кардио", "thrombo", "тромбо", "aspilets", "拜阿司匹"} {
		if strings.Contains(text, brand) {
			return true
		}
	}
	m := aspirinDose.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	mg, err := strconv.ParseFloat(strings.Replace(m[1], ",", ".", 1), 64)
	return err == nil && mg <= 325
}

// extendsCourse reports whether a renewal inside the window is still worth a caution: a
// course extended (antimicrobials, systemic corticosteroids, NSAIDs) or the product written
// under another name (Panadol after paracetamol: two packs of one medicine at home).
func extendsCourse(line, other lineDrugs) bool {
	return hasATC(line.Profile, courseATC) || hasATC(other.Profile, courseATC) || !sameName(line, other)
}

// sameName reports whether two lines are written alike, case and spacing aside.
func sameName(a, b lineDrugs) bool {
	return strings.Join(strings.Fields(textsearch.Fold(a.medicine)), " ") == strings.Join(strings.Fields(textsearch.Fold(b.medicine)), " ")
}

// stockLeft is how many days of a controlled medicine the patient holds today: its supplies
// of the last 180 days added up from the first, each new one starting where the stock ran
// out or, when it had, on its own issue day; and the newest prescription of it.
func stockLeft(in safetyInput, today time.Time, of lineDrugs) (days int, newest int64) {
	type supply struct {
		day  time.Time
		days int
		id   int64
	}
	var all []supply
	for _, rx := range in.recent {
		day := civil(rx.at, in.loc)
		if daysBetween(day, today) > stockDays {
			continue
		}
		for _, l := range rx.lines {
			if sameProduct(l, of) && l.supply > 0 {
				all = append(all, supply{day, l.supply, rx.id})
			}
		}
	}
	slices.SortFunc(all, func(a, b supply) int { return cmp.Or(a.day.Compare(b.day), cmp.Compare(a.id, b.id)) })
	var end time.Time // the day after the stock runs out
	for _, s := range all {
		if end.Before(s.day) {
			end = s.day
		}
		end, newest = end.AddDate(0, 0, s.days), s.id
	}
	return daysBetween(today, end), newest
}

// takenFindings are line i's duplicates of, and interactions with, the medicines the
// patient is recorded as taking (from elsewhere or over the counter, not stopped): each is
// current exactly as a prescription here whose supply lasts. Writing here the product the
// patient already takes is shown as a caution (perhaps taking it over), no reason asked.
func takenFindings(in safetyInput, i int, line lineDrugs, others []catalogue.Profile, d describer) []Finding {
	var out []Finding
	for _, t := range in.taken {
		id := t.id
		// a medicine stopped but still acting (its washout) interacts; it is no duplicate
		if kind, key := shared(d.drugs, line, t.lineDrugs); kind != "" && t.stopped == "" {
			tier := catalogue.TierHigh
			if !sameProduct(line, t.lineDrugs) && line.local != t.local {
				tier = catalogue.TierLow // a gel beside tablets: little of it reaches the blood (m2)
			}
			// Prescribing what the patient takes may be taking it over; recording it again under
			// another name (Panadol beside Efferalgan) is two packs of one medicine at home.
			if sameProduct(line, t.lineDrugs) && (!in.recording || sameName(line, t.lineDrugs)) {
				tier = catalogue.TierLow
			}
			f := Finding{Line: i, Kind: FindTaken, Key: fmt.Sprintf("taken:%d:%s:%s", t.id, kind, key), Tier: tier,
				OtherTaken: &id, OtherSource: t.source, OtherMedicine: t.medicine, OtherDate: t.date}
			f.Substance, f.Class = d.sharedName(kind, key)
			out = append(out, f)
		}
		if rules := d.drugs.InteractionsOf(line.Profile, t.Profile, others); len(rules) > 0 {
			f := interactionFinding(rules[0], i, fmt.Sprintf("taken:%d", t.id))
			f.OtherTaken, f.OtherSource, f.OtherMedicine, f.OtherDate = &id, t.source, t.medicine, t.date
			if t.stopped != "" {
				f.OtherStopped, f.ActiveWeeks = t.stopped, (t.activeDays+6)/7
			}
			out = append(out, f)
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
		if !f.settled() && !seen[f.Line] {
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
			if f.Line == i && f.RequiresReason {
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
	var ingredients, excipients []string
	var atc, form string
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
		form = m.Form
		excipients = catalogue.ExcipientsOf(m)
	}
	// what the entry is known to hold besides its substances (a gelatin capsule shell)
	profile := r.drugs.Line(text, ingredients, atc).WithExcipients(excipients)
	return lineDrugs{medicine: it.Medicine, medicineID: it.MedicineID, supply: itemSupply(it), prn: asNeeded(it), local: localUse(it, form),
		oral: oralUse(it, form), canisters: canisters(it), Profile: profile}, nil
}

// durationPattern reads a line's duration as written in any of the languages: "7 days",
// "2 weeks", «10 дней», «1 мес», "14天", "2周", "1 tháng", "1 year", «1 год», "1年", "1 năm".
var durationPattern = regexp.MustCompile(`(\d{1,3})\s*(\p{L}+)`)

// supplyDays is how many days a duration covers, 0 when it cannot be told.
func supplyDays(duration string) int {
	m := durationPattern.FindStringSubmatch(textsearch.Fold(duration))
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	unit := m[2]
	per := 0
	switch {
	case unit == "d" || strings.HasPrefix(unit, "day") || strings.HasPrefix(unit, "дн") || strings.HasPrefix(unit, "ден") ||
		strings.HasPrefix(unit, "сут") || strings.HasPrefix(unit, "天") || strings.HasPrefix(unit, "日") || unit == "ngay":
		per = 1
	case unit == "w" || strings.HasPrefix(unit, "week") || strings.HasPrefix(unit, "wk") || strings.HasPrefix(unit, "нед") ||
		strings.HasPrefix(unit, "周") || strings.HasPrefix(unit, "星期") || unit == "tuan":
		per = 7
	case strings.HasPrefix(unit, "month") || unit == "mo" || strings.HasPrefix(unit, "мес") || strings.HasPrefix(unit, "个月") ||
		strings.HasPrefix(unit, "月") || unit == "thang":
		per = 30
	case strings.HasPrefix(unit, "year") || unit == "yr" || unit == "y" || strings.HasPrefix(unit, "год") || unit == "лет" ||
		strings.HasPrefix(unit, "年") || unit == "nam":
		per = 365
	}
	return n * per
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

// recent reads the patient's prescriptions that were not cancelled, but for the one being
// checked: those written or issued in the last 90 days or whose supply still runs (the
// current medicines: a 6-month warfarin is taken on day 100), and, marked past, those of a
// controlled medicine of the last 180 days (its stock). A supply counts a year at most, so
// the prescriptions read are the patient's of one year, newest first (index
// prescriptions_patient).
func (r *reader) recent(patientID, except int64, now time.Time, loc *time.Location) ([]recentRx, error) {
	rows, err := r.q.QueryContext(r.ctx, `SELECT id, items, issued_at, created_at FROM prescriptions
		WHERE patient_id = $1 AND status <> $2 AND id <> $3 AND (created_at >= $4 OR issued_at >= $4) ORDER BY id DESC LIMIT 100`,
		patientID, Cancelled, except, now.AddDate(0, 0, -maxSupplyDays))
	if err != nil {
		return nil, fmt.Errorf("read recent prescriptions: %w", err)
	}
	type raw struct {
		id     int64
		items  string
		at     time.Time
		issued bool
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
			x.at, x.issued = issued.Time, true
		}
		got = append(got, x)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	stops, err := lineStops(r.ctx, r.q, patientID)
	if err != nil {
		return nil, err
	}
	out := make([]recentRx, 0, len(got))
	today := civil(now, loc)
	for _, x := range got {
		var items []Item
		if err := json.Unmarshal([]byte(x.items), &items); err != nil {
			return nil, fmt.Errorf("read prescription %d items: %w", x.id, err)
		}
		lines, err := r.lines(items)
		if err != nil {
			return nil, err
		}
		for i := range lines {
			if stop, ok := stops[[2]int64{x.id, int64(i)}]; ok {
				day, _ := time.Parse(time.DateOnly, stop.on)
				lines[i].stoppedOn = stop.on
				lines[i].gone = r.drugs.Washout(lines[i].Profile) <= daysBetween(day, today)
			} else if left, known := supplyLeft(x.at, lines[i].supply, today, loc); known {
				// A supply that can be read acts while it lasts, then through its washout and a
				// few days' grace for doses taken late; it does not interact for 90 days (the
				// pharmacist's review of 2026-11-29, M7: a 7-day clarithromycin course blocked
				// simvastatin for a quarter). A supply not read counts 90 days, as before.
				lines[i].gone = left+r.drugs.Washout(lines[i].Profile)+graceDays <= 0
			}
		}
		rx := recentRx{id: x.id, date: x.at.In(loc).Format(time.DateOnly), at: x.at, lines: lines, issued: x.issued}
		age := daysBetween(civil(x.at, loc), today)
		rx.past = age > currentDays && !slices.ContainsFunc(lines, func(l lineDrugs) bool {
			left, _ := supplyLeft(x.at, l.supply, today, loc)
			return left+r.drugs.Washout(l.Profile) > 0 // a run-out supply acts on through its washout (M2)
		})
		stock := age <= stockDays && slices.ContainsFunc(lines, func(l lineDrugs) bool { return controlled(l.Profile) })
		relief := x.issued && age < relieverDays && slices.ContainsFunc(lines, reliever)
		if rx.past && !stock && !relief {
			continue
		}
		out = append(out, rx)
	}
	return out, nil
}

// findings checks items for patientID (0: a blank pad, with no allergies or history to
// check against), leaving out prescription except. allergies are the patient's when the
// caller has read them already (nil: read here).
func (s *Store) findings(ctx context.Context, q database.Querier, patientID, except int64, items []Item, allergies *allergyFacts, lang string) ([]Finding, error) {
	drugs, err := catalogue.DrugsFor(ctx, s.DB, q)
	if err != nil {
		return nil, err
	}
	r := &reader{ctx: ctx, q: q, drugs: drugs, cache: map[int64]catalogue.Medicine{}}
	var in safetyInput
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
		if in.taken, err = r.takenNow(patientID, s.now(), s.Loc); err != nil {
			return nil, err
		}
	}
	in.now, in.loc = s.now(), s.Loc
	out := check(in, describer{drugs: r.drugs, lang: lang})
	c, err := s.readChild(ctx, q, patientID)
	if err != nil {
		return nil, err
	}
	out = append(out, weightFindings(c, items, in.lines, r)...)
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
	// Weight is the patient's latest recorded weight (null: none), and Doses each line's rows
	// of the dose table by weight (safety_weight.go).
	Weight *WeightFacts `json:"weight"`
	Doses  []LineDoses  `json:"doses"`
}

// Check checks lines being written, before they are saved: for the patient of the
// appointment, of the prescription, or named.
func (s *Store) Check(ctx context.Context, in CheckInput, lang string) (CheckResult, error) {
	res := CheckResult{Allergies: []patient.Allergy{}, Findings: []Finding{}, Doses: []LineDoses{}}
	var v apperr.Validation
	items := checkItemsLoosely(in.Items, &v)
	if err := v.Err(); err != nil {
		return res, err
	}
	var except int64
	visit := in.AppointmentID
	switch {
	case in.PrescriptionID != nil:
		rx, err := s.get(ctx, s.DB, *in.PrescriptionID)
		if err != nil {
			return res, err
		}
		except, res.PatientID, visit = rx.ID, rx.PatientID, rx.AppointmentID
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
	if err != nil {
		return res, err
	}
	if res.Weight, res.Doses, err = s.dosing(ctx, pid, items); err != nil {
		return res, err
	}
	// the reliever prompt speaks of asthma or of COPD as the visit's diagnoses say (M3)
	for i := range f {
		if f[i].Kind != FindReliever || visit == nil {
			continue
		}
		diagnoses, err := appointment.Diagnoses(ctx, s.DB, *visit, lang)
		if err != nil {
			return res, err
		}
		f[i].Condition = relieverCondition(diagnoses)
	}
	return res, nil
}
