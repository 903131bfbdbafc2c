package immunisation

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"time"

	"emr/internal/i18n"
)

// The screening before a dose (Viet Nam's QĐ 1575/QĐ-BYT 2023; ACIP Contraindications and
// Precautions): each answer of the checklist and the vaccines it concerns, as data —
// screening_rules.tsv, each row with its source. A rule's applies says, all of them to hold,
// which doses it is about: all; live; antigen=a|b (the product gives one of them); notroute=PO;
// age<1m, age>=2m (the child's age on the day, calendar months). A question written !name
// holds when it was not answered yes (the negative tuberculin test a BCG after 2 months needs).

// SeverityInfo: a note the vaccinator reads; it needs no reason to go ahead and is not
// recorded as overridden (the hepatitis B birth dose of a baby under 2,000 g).
const SeverityInfo = "info"

//go:embed screening_rules.tsv
var screeningTSV []byte

type screeningRule struct {
	code, question, severity string
	negated                  bool
	applies                  []string
}

var screeningRules = mustReadScreeningRules()

func mustReadScreeningRules() []screeningRule {
	r := csv.NewReader(bytes.NewReader(screeningTSV))
	r.Comma, r.FieldsPerRecord, r.LazyQuotes = '\t', 5, true
	recs, err := r.ReadAll()
	if err != nil || len(recs) < 2 {
		panic(fmt.Sprintf("screening_rules.tsv: %v", err))
	}
	var out []screeningRule
	for _, rec := range recs[1:] {
		q, negated := strings.CutPrefix(rec[1], "!")
		x := screeningRule{code: rec[0], question: q, negated: negated, severity: rec[3], applies: strings.Fields(rec[2])}
		if _, ok := (Screening{}).answer(q, defaultFeverFrom); !ok || rec[4] == "" || !slices.Contains([]string{SeverityStop, SeverityWarn, SeverityInfo}, x.severity) {
			panic(fmt.Sprintf("screening_rules.tsv: row %v", rec))
		}
		for _, a := range x.applies {
			if _, _, isAge := ageToken(a); !slices.Contains([]string{"all", "live"}, a) && !isAge && !strings.HasPrefix(a, "antigen=") &&
				!strings.HasPrefix(a, "notroute=") && !strings.HasPrefix(a, "schedule=") {
				panic(fmt.Sprintf("screening_rules.tsv: %q in row %v", a, rec))
			}
		}
		out = append(out, x)
	}
	return out
}

// CoreScreening are the questions every dose given here is asked (QĐ 1575/QĐ-BYT 2023: the
// temperature, acute illness, heart and lungs, consciousness, a severe reaction after an earlier
// dose); the others are asked where they concern the vaccine.
var CoreScreening = []string{"fever", "acute_illness", "abnormal_heart_lung", "abnormal_consciousness", "previous_severe_reaction"}

// asked reports whether question q was answered, yes or no.
func (s Screening) asked(q string) bool { return s.field(q) != nil }

// field is question q's answer (nil: not asked).
func (s Screening) field(q string) *bool {
	switch q {
	case "pregnant":
		return s.Pregnant
	case "immunosuppressed":
		return s.Immunosuppressed
	case "fever":
		return s.Fever
	case "acute_illness":
		return s.AcuteIllness
	case "abnormal_heart_lung":
		return s.AbnormalHeartLung
	case "abnormal_consciousness":
		return s.AbnormalConsciousness
	case "previous_severe_reaction":
		return s.PreviousSevereReaction
	case "intussusception":
		return s.Intussusception
	case "blood_products_recent":
		return s.BloodProductsRecent
	case "immunosuppressant_stopped_recent":
		return s.ImmunosuppressantStoppedRecent
	case "weight_under_2000g":
		return s.WeightUnder2000g
	case "tuberculin_negative":
		return s.TuberculinNegative
	}
	return nil
}

// answer reads a question of the screening by its JSON name: answered yes, and whether there is
// such a question. A fever is answered by the temperature too: from feverFrom (the clinic's
// first programme's), or a low one.
func (s Screening) answer(question string, feverFrom float64) (bool, bool) {
	switch question {
	case "fever":
		t := s.TemperatureC
		return yes(s.Fever) || t != nil && (*t >= feverFrom || *t <= hypothermiaTo), true
	case "acute_illness", "abnormal_heart_lung", "abnormal_consciousness", "previous_severe_reaction", "intussusception",
		"blood_products_recent", "immunosuppressant_stopped_recent", "weight_under_2000g", "tuberculin_negative":
		return yes(s.field(question)), true
	}
	return false, false
}

// ageToken reads an age condition "age<1m" or "age>=3m": the months, and whether it holds under them.
func ageToken(a string) (months int, under, ok bool) {
	rest, isUnder := strings.CutPrefix(a, "age<")
	if !isUnder {
		if rest, ok = strings.CutPrefix(a, "age>="); !ok {
			return 0, false, false
		}
	}
	n, err := fmt.Sscanf(rest, "%dm", &months)
	return months, isUnder, err == nil && n == 1 && strings.HasSuffix(rest, "m")
}

// appliesTo reports whether the rule is about vaccine v given to a child born on birth on day,
// at a clinic whose first schedule is first (a rule of one country's programme: schedule=).
func (x screeningRule) appliesTo(v Vaccine, birth, day, first string) bool {
	b, errB := time.Parse(time.DateOnly, birth)
	d, errD := time.Parse(time.DateOnly, day)
	for _, a := range x.applies {
		switch {
		case a == "all":
		case a == "live":
			if !v.Live {
				return false
			}
		case strings.HasPrefix(a, "age"):
			months, under, _ := ageToken(a)
			if errB != nil || errD != nil || d.Before(b.AddDate(0, months, 0)) == !under {
				return false
			}
		case strings.HasPrefix(a, "schedule="):
			if !slices.Contains(strings.Split(strings.TrimPrefix(a, "schedule="), "|"), first) {
				return false
			}
		case strings.HasPrefix(a, "antigen="):
			if !slices.ContainsFunc(strings.Split(strings.TrimPrefix(a, "antigen="), "|"), func(g string) bool { return slices.Contains(v.Antigens, g) }) {
				return false
			}
		case strings.HasPrefix(a, "notroute="):
			if slices.Contains(strings.Split(strings.TrimPrefix(a, "notroute="), "|"), v.Route) {
				return false
			}
		}
	}
	return true
}

// screeningFindings: what the screening's answers say of vaccine v for a child born on birth,
// given on day — each rule that applies and holds, once.
func screeningFindings(s Screening, v Vaccine, birth, day, first string, feverFrom float64, lang string, add func(code, severity, key string, args ...any) *Finding) {
	seen := map[string]bool{}
	for _, x := range screeningRules {
		answered, _ := s.answer(x.question, feverFrom)
		if answered == x.negated || seen[x.code] || !x.appliesTo(v, birth, day, first) {
			continue
		}
		seen[x.code] = true
		args := []any{v.Name}
		if x.question == "fever" { // the programme's threshold, as the reader writes a number
			args = append(args, i18n.DecimalPlaces(lang, feverFrom, 1))
		}
		add(x.code, x.severity, "immunisation.finding."+x.code, args...)
	}
}

// defaultFeverFrom is a fever where no programme says otherwise (°C: the Brighton
// Collaboration's definition, WHO's AEFI manual).
const defaultFeverFrom = 38.0

// FeverFrom is the temperature from which the screening defers a dose at a clinic whose first
// schedule is first (programmes.tsv fever_from).
func FeverFrom(cat interface{ Schedules(lang string) []Schedule }, first string) float64 {
	for _, sc := range cat.Schedules("en") {
		if sc.Key == first {
			return sc.FeverFrom
		}
	}
	return defaultFeverFrom
}

// Deferrable are the screening's findings that defer a dose for a passing reason (QĐ
// 1575/QĐ-BYT's "tạm hoãn"; ACIP's intervals after blood products and immunosuppression; BCG's
// weight and tuberculin test): every other stop is a contraindication, a doctor's to record.
var Deferrable = []string{"screening_fever", "screening_acute_illness", "screening_heart_lung", "screening_consciousness",
	"blood_products", "immunosuppressant_stopped", "bcg_low_weight", "bcg_tuberculin"}

// contraindicatingAnswers are the screening's questions whose answers contraindicate vaccine v
// (not a passing reason): a rule that applies and is not deferrable, and pregnancy or
// immunosuppression for a live vaccine.
func contraindicatingAnswers(s Screening, v Vaccine, birth, day string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range screeningRules {
		answered, _ := s.answer(x.question, defaultFeverFrom)
		if answered == x.negated || x.negated || seen[x.question] || slices.Contains(Deferrable, x.code) || !x.appliesTo(v, birth, day, "") {
			continue
		}
		seen[x.question] = true
		out = append(out, x.question)
	}
	if v.Live {
		for _, q := range []string{"pregnant", "immunosuppressed"} {
			if yes(s.field(q)) && !seen[q] {
				out = append(out, q)
			}
		}
	}
	return out
}
