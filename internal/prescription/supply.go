package prescription

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/catalogue"
	"emr/internal/textsearch"
)

// How long a line supplies, and how soon the same medicine may be written again (ADR 25, the
// pharmacist's review of the refill window, 2026-11-29).

const (
	maxSupplyDays = 365 // a longer supply ("2 years") is counted as a year
	// stockDays: a controlled medicine's supplies of this many days back add up to the
	// patient's stock (SHPNC's 180-day accumulation check).
	stockDays = 180
)

// controlledATC are the abuse-prone medicines renewed only when the supply is nearly used:
// opioids (tramadol included), benzodiazepines, Z-drugs, gabapentin and pregabalin.
var controlledATC = []string{"N02A", "N05BA", "N05CD", "N05CF", "N03AE", "N03AX12", "N03AX16"}

// controlledClasses catch the same medicines written without a code of their own (codeine
// in a combination, phenazepam).
var controlledClasses = []string{"opioids", "gaba_hypnotics", "gabapentinoids"}

// courseATC are the medicines whose renewal inside the window is still shown (as a caution):
// antibacterials, antifungals and antivirals (stewardship), systemic corticosteroids and
// NSAIDs — an extended course is a decision, not a routine refill.
var courseATC = []string{"J01", "J02", "J05", "H02", "M01A"}

func hasATC(p catalogue.Profile, prefixes []string) bool {
	return slices.ContainsFunc(p.ATC, func(code string) bool {
		return slices.ContainsFunc(prefixes, func(prefix string) bool { return strings.HasPrefix(code, prefix) })
	})
}

// relieverATC are the short-acting beta-agonists a patient takes as a reliever (salbutamol,
// levosalbutamol with it, terbutaline, fenoterol, procaterol; fenoterol or salbutamol with
// ipratropium: Berodual, Combivent). Three or more SABA canisters a year go with more severe
// attacks (GINA 2024 Box 2-2(B); SABINA, Nwaru, Eur Respir J 2020;55:1901872), twelve or more
// with asthma deaths (RCP NRAD "Why asthma still kills" 2014: 39% of the deaths had more than
// 12 a year). The pharmacist's review of 2026-11-29 (M1, M2, M10).
var relieverATC = []string{"R03AC02", "R03AC03", "R03AC04", "R03AC16", "R03AL01", "R03AL02"}

// icsATC are the inhaled corticosteroids, alone or combined (R03AK, the triple R03AL08-12):
// a line holding one is no SABA-only reliever (budesonide with formoterol, or with salbutamol:
// GINA 2024's alternative reliever), and it is the controller the prompt asks about.
var icsATC = []string{"R03BA", "R03AK", "R03AL08", "R03AL09", "R03AL10", "R03AL11", "R03AL12"}

const (
	relieverLimit  = 3  // canisters a year: the prompt
	relieverUrgent = 12 // canisters a year: the more urgent prompt
	relieverDays   = 365
)

// reliever reports whether a line is an inhaled short-acting reliever without an inhaled
// corticosteroid: one the prompt counts.
func reliever(l lineDrugs) bool {
	return hasATC(l.Profile, relieverATC) && !hasATC(l.Profile, icsATC) && !l.oral
}

// oralReliever reports whether a line is a short-acting beta-agonist by mouth (salbutamol
// tablets or syrup): not recommended for asthma (GINA 2024; BTS/SIGN 158) — prescribe the
// inhaled one, with a spacer.
func oralReliever(l lineDrugs) bool {
	return hasATC(l.Profile, relieverATC) && l.oral
}

// inhalerUnits are the units of a line counted one canister each ("inhaler", «баллон», 支, bình).
var inhalerUnits = regexp.MustCompile(`inhaler|canister|aerosol|баллон|ингалятор|аэрозол|支|瓶|吸入器|binh|ong hit`)

// canisters is how many reliever canisters a line gives: its quantity when counted in
// inhalers, else one, times 1 + its refills.
func canisters(it Item) int {
	n := 1
	if it.Quantity != nil && inhalerUnits.MatchString(textsearch.Fold(it.Unit)) {
		if q, ok := firstNumber(string(*it.Quantity)); ok && q >= 1 {
			n = int(q)
		}
	}
	return n * (1 + max(it.Refills, 0))
}

// oralWords are the oral forms of a line written in its words (folded), or its catalogue form.
var oralWords = regexp.MustCompile(`\b(tablets?|tabs?|syrup|oral solution|oral|capsules?|vien|siro)\b|таблет|сироп|внутрь|片|糖浆|口服`)

// oralUse reports whether a line is taken by mouth: by its route, its catalogue form or its words.
func oralUse(it Item, form string) bool {
	return it.Route == "oral" || (it.Route != "inhaled" && oralWords.MatchString(textsearch.Fold(form+" "+it.Medicine)))
}

// controlled reports whether a line is an abuse-prone medicine.
func controlled(p catalogue.Profile) bool {
	return hasATC(p, controlledATC) || slices.ContainsFunc(controlledClasses, p.InClass)
}

// refillWindow is how many days before a supply of days runs out the same product written
// again is a renewal: a quarter of the supply, at most a fortnight (BC PharmaCare: no refill
// with more than 14 days left); for a controlled medicine a tenth, at most three days.
func refillWindow(days int, isControlled bool) float64 {
	if isControlled {
		return min(float64(days)/10, 3)
	}
	return min(float64(days)/4, 14)
}

// civil is a moment's calendar day in loc, as a date to count whole days with.
func civil(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// daysBetween counts the calendar days from a to b (both from civil).
func daysBetween(a, b time.Time) int { return int(math.Round(b.Sub(a).Hours() / 24)) }

// supplyLeft is how many days of a supply of days given at are left today (civil), the
// issue day being the first: 0 or less when it has run out; known is false when the supply
// could not be told and the 30 days of recentDays stand in.
func supplyLeft(at time.Time, days int, today time.Time, loc *time.Location) (left int, known bool) {
	known = days > 0
	if !known {
		days = recentDays
	}
	return days - daysBetween(civil(at, loc), today), known
}

// itemSupply is how many days a line supplies: its duration, or else its quantity taken at
// its dose and frequency (an as-needed line at its most a day), times 1 + its refills; an
// as-needed line lasts at least as long as its quantity at the most a day. 0: cannot be told.
func itemSupply(it Item) int {
	days := supplyDays(it.Duration)
	if byQuantity := quantityDays(it); days == 0 || (asNeeded(it) && byQuantity > days) {
		days = byQuantity
	}
	return min(days*(1+max(it.Refills, 0)), maxSupplyDays)
}

// localRoutes and localForms are the routes and forms of a medicine used on the skin, the eye
// or the ear (folded words of the four languages).
var (
	localRoutes = []string{"topical", "ophthalmic", "otic"}
	localForms  = regexp.MustCompile(`\b(gel|cream|ointment|lotion|eye drops?|ear drops?|kem|thuoc mo|thuoc nho mat|thuoc nho tai)\b|гель|крем|мазь|глазн|ушн|凝胶|乳膏|软膏|滴眼|滴耳|眼膏`)
)

// localUse reports whether a line is for the skin, the eye or the ear: by its route, its
// catalogue entry's form or its words.
func localUse(it Item, form string) bool {
	return slices.Contains(localRoutes, it.Route) || localForms.MatchString(textsearch.Fold(form+" "+it.Medicine))
}

// asNeededWords mark an as-needed (PRN) line in the four languages (folded).
var asNeededWords = regexp.MustCompile(`\bprn\b|as needed|as required|when needed|when required|if needed|if required|при необходимости|по требованию|при боли|必要时|需要时|khi can|khi dau|neu can`)

// asNeeded reports whether a line is taken as needed.
func asNeeded(it Item) bool {
	return asNeededWords.MatchString(textsearch.Fold(it.Dose + " " + it.Frequency + " " + it.Instructions + " " + it.Duration))
}

var (
	numberPattern = regexp.MustCompile(`\d+(?:[.,]\d+)?`)
	// doseUnits: a dose written as a weight or volume ("500 mg") says nothing of how many of
	// the units dispensed are taken.
	massWords = regexp.MustCompile(`\d\s*(?:mg|g|mcg|µg|ug|ml|iu)\b|\d\s*(?:мг|г|мкг|мл|ед|毫克|克|微克|毫升)`)
)

// quantityDays is how long a line's quantity lasts at its dose and frequency; 0 when any of
// them cannot be read.
func quantityDays(it Item) int {
	if it.Quantity == nil {
		return 0
	}
	qty, ok := firstNumber(string(*it.Quantity))
	perDose := 1.0 // "1 daily" with no dose: one unit a time
	if d := textsearch.Fold(it.Dose); strings.TrimSpace(d) != "" {
		var okDose bool
		if massWords.MatchString(d) {
			return 0
		}
		// a range ("1-2 tablets"): the most when taken as needed, else the least, which counts
		// the supply the longer
		perDose, okDose = doseUnits(d, asNeeded(it))
		ok = ok && okDose
	}
	perDay := timesADay(textsearch.Fold(it.Frequency))
	if !ok || perDose <= 0 || perDay <= 0 || qty <= 0 {
		return 0
	}
	return int(qty / (perDose * perDay))
}

// fractionPattern: "1/2 tablet", "½".
var fractionPattern = regexp.MustCompile(`(\d+)\s*/\s*(\d+)|½`)

// doseUnits reads how many units a dose takes: a number, a fraction, or the larger (most) or
// smaller of a range.
func doseUnits(s string, most bool) (float64, bool) {
	if m := fractionPattern.FindStringSubmatch(s); m != nil {
		if m[0] == "½" {
			return 0.5, true
		}
		a, _ := strconv.ParseFloat(m[1], 64)
		b, _ := strconv.ParseFloat(m[2], 64)
		return a / b, b > 0
	}
	found := numberPattern.FindAllString(s, 2)
	if len(found) == 0 {
		return 0, false
	}
	n := make([]float64, len(found))
	for i, f := range found {
		n[i], _ = strconv.ParseFloat(strings.ReplaceAll(f, ",", "."), 64)
	}
	if most {
		return slices.Max(n), true
	}
	return slices.Min(n), true
}

// firstNumber reads a text's first number ("30 tablets").
func firstNumber(s string) (float64, bool) {
	found := numberPattern.FindString(s)
	n, err := strconv.ParseFloat(strings.ReplaceAll(found, ",", "."), 64)
	return n, found != "" && err == nil
}

var (
	// everyHours: "every 6 hours", "q6h", «каждые 8 часов», 每8小时, "mỗi 6 giờ".
	everyHours = regexp.MustCompile(`(?:every|q|каждые|каждый|每|moi)\s*(\d{1,2})\s*(?:-\s*\d{1,2}\s*)?(?:hours?|hrs?|h|час|小时|gio)`)
	// timesPattern: "3 times a day", "2x daily", «3 раза в день», «2 р/д», 每日3次, "ngày 2 lần",
	// "2 lần/ngày", and "1 daily".
	timesPattern = regexp.MustCompile(`(\d)\s*(?:x|times?|раза?|р)?\s*(?:a|per|/|в)?\s*(?:day|daily|день|сут|д|d\b)|(?:每日|每天|一日|日)\s*(\d)\s*次|ngay\s*(\d)\s*lan|(\d)\s*lan\s*/?\s*(?:(?:mot|moi)\s*)?ngay`)
	hanDigits    = strings.NewReplacer("一", "1", "二", "2", "两", "2", "三", "3", "四", "4")
)

// fixedTimes are frequencies written as words or abbreviations (folded).
var fixedTimes = []struct {
	words *regexp.Regexp
	n     float64
}{
	{regexp.MustCompile(`\b(qds|qid|four times)\b`), 4},
	{regexp.MustCompile(`\b(tds|tid|three times|thrice)\b|трижды`), 3},
	{regexp.MustCompile(`\b(bd|bid|twice)\b|дважды`), 2},
	{regexp.MustCompile(`\b(od|qd|hs|once|daily|nightly|nocte|mane|at night|at bedtime|in the morning|every (morning|night|evening))\b|(^|\s)(ежедневно|на ночь|утром|вечером)|每日|每天|睡前|ngay|toi`), 1},
}

// timesADay is how many times a day a frequency says, 0 when it cannot be told.
func timesADay(f string) float64 {
	f = hanDigits.Replace(f)
	if m := everyHours.FindStringSubmatch(f); m != nil {
		if h, _ := strconv.Atoi(m[1]); h > 0 {
			return 24 / float64(h)
		}
	}
	if m := timesPattern.FindStringSubmatch(f); m != nil {
		for _, g := range m[1:] {
			if n, err := strconv.Atoi(g); err == nil && n > 0 {
				return float64(n)
			}
		}
	}
	for _, t := range fixedTimes {
		if t.words.MatchString(f) {
			return t.n
		}
	}
	return 0
}
