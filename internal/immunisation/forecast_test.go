package immunisation

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Case tables of the forecast, each from the schedule's own text (the row's source says which
// line). A child born on 15 January 2025 unless a case says otherwise: 6 weeks is 26 February,
// 10 weeks 26 March, 14 weeks 23 April, 2 months 15 March, 9 months 15 October, 12 months
// 15 January 2026.

const born = "2025-01-15"

type given struct{ vaccine, on string }

// wantRec is what a case expects of an antigen's recommendation: only the fields set are
// compared; "-" expects an empty date; absent expects no recommendation at all.
type wantRec struct {
	antigen                            string
	dose, doses                        int
	earliest, due, overdue, latest, st string
	schedule                           string
	absent                             bool
	// with, without: products the recommendation must name, must not name; first: the product
	// it names first.
	with, without []string
	first         string
}

// wantEval is what a case expects of the evaluation of the nth dose given (from 1) for an antigen.
type wantEval struct {
	nth      int
	antigen  string
	valid    bool
	number   int
	reason   string
	schedule string
}

type fcase struct {
	name, cite string
	schedules  []string
	birth, sex string
	given      []given
	excl       []Exclusion
	asOf       string
	// lowWeight: the given doses (from 1) screened as a baby under 2,000 g.
	lowWeight []int
	recs      []wantRec
	evals     []wantEval
}

func runCases(t *testing.T, c *Catalogue, cases []fcase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			birth := tc.birth
			if birth == "" {
				birth = born
			}
			var doses []Dose
			for i, g := range tc.given {
				doses = append(doses, Dose{ID: int64(i + 1), Vaccine: g.vaccine, On: g.on, LowWeight: slices.Contains(tc.lowWeight, i+1)})
			}
			f := c.Forecast(tc.schedules, Child{BirthDate: birth, Sex: tc.sex}, doses, tc.excl, tc.asOf)
			for _, w := range tc.recs {
				var got *Recommendation
				for i := range f.Recommendations {
					if f.Recommendations[i].Antigen == w.antigen {
						got = &f.Recommendations[i]
					}
				}
				if w.absent {
					if got != nil {
						t.Errorf("%s: a recommendation %+v, want none (%s)", w.antigen, *got, tc.cite)
					}
					continue
				}
				if got == nil {
					t.Errorf("%s: no recommendation (%s)", w.antigen, tc.cite)
					continue
				}
				check := func(field, gotV, wantV string) {
					if wantV == "" {
						return
					}
					if wantV == "-" {
						wantV = ""
					}
					if gotV != wantV {
						t.Errorf("%s %s = %q, want %q (%s)", w.antigen, field, gotV, wantV, tc.cite)
					}
				}
				check("status", got.Status, w.st)
				check("earliest", got.EarliestOn, w.earliest)
				check("due", got.DueOn, w.due)
				check("overdue", got.OverdueOn, w.overdue)
				check("latest", got.LatestOn, w.latest)
				check("schedule", got.Schedule, w.schedule)
				if w.dose != 0 && got.DoseNumber != w.dose {
					t.Errorf("%s dose %d, want %d (%s)", w.antigen, got.DoseNumber, w.dose, tc.cite)
				}
				if w.doses != 0 && got.Doses != w.doses {
					t.Errorf("%s doses %d, want %d (%s)", w.antigen, got.Doses, w.doses, tc.cite)
				}
				if len(got.Vaccines) == 0 {
					t.Errorf("%s names no vaccine", w.antigen)
				}
				if w.first != "" && (len(got.Vaccines) == 0 || got.Vaccines[0] != w.first) {
					t.Errorf("%s names %v, want %s first (%s)", w.antigen, got.Vaccines, w.first, tc.cite)
				}
				for _, v := range w.with {
					if !slices.Contains(got.Vaccines, v) {
						t.Errorf("%s names %v, not %s (%s)", w.antigen, got.Vaccines, v, tc.cite)
					}
				}
				for _, v := range w.without {
					if slices.Contains(got.Vaccines, v) {
						t.Errorf("%s names %v, with %s (%s)", w.antigen, got.Vaccines, v, tc.cite)
					}
				}
			}
			for _, w := range tc.evals {
				var got *Evaluation
				for i := range f.Evaluations {
					if f.Evaluations[i].DoseID == int64(w.nth) && f.Evaluations[i].Antigen == w.antigen {
						got = &f.Evaluations[i]
					}
				}
				if got == nil {
					t.Errorf("dose %d (%s): no evaluation for %s (%s)", w.nth, tc.given[w.nth-1].vaccine, w.antigen, tc.cite)
					continue
				}
				if got.Valid != w.valid || got.DoseNumber != w.number || got.Reason != w.reason {
					t.Errorf("dose %d (%s) for %s: valid %v number %d reason %q, want %v %d %q (%s)", w.nth, tc.given[w.nth-1].vaccine,
						w.antigen, got.Valid, got.DoseNumber, got.Reason, w.valid, w.number, w.reason, tc.cite)
				}
				if w.schedule != "" && got.Schedule != strings.TrimPrefix(w.schedule, "-") {
					t.Errorf("dose %d for %s: schedule %q, want %q", w.nth, w.antigen, got.Schedule, w.schedule)
				}
			}
		})
	}
}

func valid(nth int, antigen string, number int) wantEval {
	return wantEval{nth: nth, antigen: antigen, valid: true, number: number}
}

func invalid(nth int, antigen, reason string) wantEval {
	return wantEval{nth: nth, antigen: antigen, reason: reason}
}

func TestForecastVietnam(t *testing.T) {
	vn := []string{"vn_epi"}
	birthDoses := []given{{"bcg", born}, {"hepb_paed", born}}
	fiveMonths := append(append([]given{}, birthDoses...),
		given{"dtwp_hepb_hib", "2025-03-15"}, given{"dtwp_hepb_hib", "2025-04-15"}, given{"dtwp_hepb_hib", "2025-05-15"},
		given{"bopv", "2025-03-15"}, given{"bopv", "2025-04-15"}, given{"bopv", "2025-05-15"},
		given{"rotavin", "2025-03-15"}, given{"rotavin", "2025-04-15"})
	runCases(t, Default(), []fcase{
		{name: "on time: the day of birth", cite: "TT 10/2024: BCG và VGB sơ sinh trong 24 giờ; DPT-VGB-Hib lúc 2 tháng",
			schedules: vn, asOf: born, recs: []wantRec{
				{antigen: "tb", dose: 1, earliest: born, due: born, overdue: "2025-02-15", st: "due"},
				{antigen: "hepb", dose: 1, doses: 4, due: born, overdue: "2025-01-16", latest: "2025-02-25", st: "due"},
				{antigen: "diphtheria", dose: 1, doses: 5, earliest: "2025-02-26", due: "2025-03-15", overdue: "2025-04-12", st: "upcoming"},
				{antigen: "pertussis", doses: 4},
			}},
		{name: "on time: 2 months, the birth doses given", cite: "TT 10/2024: mũi 1 DPT-VGB-Hib, bOPV, Rota lúc 2 tháng",
			schedules: vn, given: birthDoses, asOf: "2025-03-15", recs: []wantRec{
				{antigen: "tb", dose: 1, doses: 1, st: "complete"},
				{antigen: "hepb", dose: 2, doses: 4, earliest: "2025-02-12", due: "2025-03-15", st: "due"},
				{antigen: "rotavirus", dose: 1, earliest: "2025-02-26", due: "2025-03-15", latest: "2025-06-14", st: "due"},
			}, evals: []wantEval{valid(1, "tb", 1), valid(2, "hepb", 1)}},
		{name: "on time: 5 months, IPV next", cite: "TT 10/2024: IPV lúc 5 tháng; DPT mũi 4 lúc 18 tháng; sởi lúc 9 tháng",
			schedules: vn, given: fiveMonths, asOf: "2025-06-01", recs: []wantRec{
				{antigen: "hepb", dose: 4, doses: 4, st: "complete"},
				{antigen: "hib", dose: 3, doses: 3, st: "complete"},
				{antigen: "rotavirus", st: "complete"},
				{antigen: "polio", dose: 4, earliest: "2025-06-12", due: "2025-06-15", st: "upcoming"},
				{antigen: "diphtheria", dose: 4, earliest: "2026-01-15", due: "2026-07-15", st: "upcoming"},
				{antigen: "measles", dose: 1, due: "2025-10-15", st: "upcoming"},
				{antigen: "je", dose: 1, due: "2026-01-15"},
				{antigen: "rubella", due: "2026-07-15"},
			}, evals: []wantEval{valid(5, "hepb", 4), valid(5, "hib", 3), valid(8, "polio", 3)}},
		{name: "7 weeks: may be given, not yet due", cite: "TT 10/2024: DPT-VGB-Hib lúc 2 tháng; WHO: from 6 weeks",
			schedules: vn, given: birthDoses, asOf: "2025-03-05",
			recs: []wantRec{{antigen: "diphtheria", dose: 1, earliest: "2025-02-26", due: "2025-03-15", st: "upcoming"}}},
		{name: "late start at 14 months", cite: "WHO Hib 2013 (one dose from 12 months); Rotavin-M1: not after 5 months",
			schedules: vn, birth: "2024-01-15", asOf: "2025-03-15", recs: []wantRec{
				{antigen: "hib", dose: 1, doses: 1, st: "overdue"},
				{antigen: "diphtheria", dose: 1, st: "overdue"},
				{antigen: "rotavirus", st: "aged_out", earliest: "-", latest: "2024-06-14"},
				{antigen: "measles", dose: 1, earliest: "2024-10-15", st: "overdue"},
			}},
		{name: "late start catching up: the next dose 4 weeks after", cite: "TT 10/2024: mũi sau cách mũi trước ít nhất 1 tháng",
			schedules: vn, birth: "2024-01-15", given: []given{{"dtwp_hepb_hib", "2025-03-15"}}, asOf: "2025-03-16", recs: []wantRec{
				{antigen: "hib", dose: 1, doses: 1, st: "complete"},
				{antigen: "diphtheria", dose: 2, earliest: "2025-04-12", due: "2025-04-12", overdue: "2025-05-10", st: "upcoming"},
				{antigen: "hepb", dose: 2, doses: 3, earliest: "2025-04-12"},
			}, evals: []wantEval{valid(1, "hepb", 1), valid(1, "hib", 1)}},
		{name: "a dose too early (5 weeks) does not count", cite: "WHO: DTP from 6 weeks",
			schedules: vn, given: []given{{"dtwp_hepb_hib", "2025-02-19"}}, asOf: "2025-02-20",
			// Hepatitis B is given from birth, but not with this product before 6 weeks (its label):
			// the dose does not count for hepatitis B either.
			evals: []wantEval{invalid(1, "diphtheria", "too_early"), invalid(1, "hib", "too_early"),
				invalid(1, "hepb", "product_age")},
			recs: []wantRec{{antigen: "diphtheria", dose: 1, earliest: "2025-02-26", due: "2025-03-15", st: "upcoming"},
				{antigen: "hepb", dose: 1, earliest: "2025-01-15", due: "2025-01-15"}}},
		{name: "a dose too close (17 days) does not count", cite: "TT 10/2024: cách nhau ít nhất 1 tháng",
			schedules: vn, given: []given{{"dtwp_hepb_hib", "2025-03-15"}, {"dtwp_hepb_hib", "2025-04-01"}}, asOf: "2025-04-02",
			evals: []wantEval{valid(1, "diphtheria", 1), invalid(2, "diphtheria", "too_close")},
			recs:  []wantRec{{antigen: "diphtheria", dose: 2, earliest: "2025-04-12", due: "2025-04-15", st: "upcoming"}}},
		{name: "a hexavalent vaccine counts for each antigen", cite: "Infanrix Hexa / Hexaxim: D, T, aP, IPV, Hib, HepB",
			schedules: vn, given: []given{{"hepb_paed", born}, {"dtap_ipv_hib_hepb", "2025-03-15"}}, asOf: "2025-03-16",
			evals: []wantEval{valid(2, "diphtheria", 1), valid(2, "tetanus", 1), valid(2, "pertussis", 1), valid(2, "polio", 1),
				valid(2, "hib", 1), valid(2, "hepb", 2)}},
		{name: "a premature infant by chronological age", cite: "TT 10/2024: tuổi tính từ ngày sinh (born at 30 weeks, no correction)",
			schedules: vn, given: birthDoses, asOf: "2025-03-15",
			recs: []wantRec{{antigen: "diphtheria", due: "2025-03-15", st: "due"}}},
		{name: "rotavirus dose 1 on its last day", cite: "Bộ Y tế: Rota hoàn thành trước 6 tháng tuổi, 2 liều cách nhau ít nhất 1 tháng",
			schedules: vn, asOf: "2025-06-14", recs: []wantRec{{antigen: "rotavirus", st: "overdue", latest: "2025-06-14"}}},
		{name: "rotavirus dose 1 past its maximum age", cite: "Bộ Y tế: Rota hoàn thành trước 6 tháng tuổi",
			schedules: vn, asOf: "2025-06-15", recs: []wantRec{{antigen: "rotavirus", st: "aged_out"}}},
		{name: "rotavirus dose 2 on the day before 6 months", cite: "Bộ Y tế: Rota hoàn thành trước 6 tháng tuổi",
			schedules: vn, given: []given{{"rotavin", "2025-06-14"}, {"rotavin", "2025-07-14"}}, asOf: "2025-07-15",
			evals: []wantEval{valid(1, "rotavirus", 1), valid(2, "rotavirus", 2)}, recs: []wantRec{{antigen: "rotavirus", st: "complete"}}},
		{name: "rotavirus dose 2 at 6 months does not count", cite: "Bộ Y tế: Rota hoàn thành trước 6 tháng tuổi",
			schedules: vn, given: []given{{"rotavin", "2025-06-01"}, {"rotavin", "2025-07-15"}}, asOf: "2025-07-16",
			evals: []wantEval{valid(1, "rotavirus", 1), invalid(2, "rotavirus", "too_late")}, recs: []wantRec{{antigen: "rotavirus", st: "aged_out", dose: 2}}},
		{name: "rotavirus given past its maximum age does not count", cite: "Rotavin-M1: dose 1 by 5 months",
			schedules: vn, given: []given{{"rotavin", "2025-06-20"}}, asOf: "2025-06-21",
			evals: []wantEval{invalid(1, "rotavirus", "too_late")}, recs: []wantRec{{antigen: "rotavirus", st: "aged_out"}}},
		{name: "a refusal keeps its due dates", cite: "TT 10/2024: sởi lúc 9 tháng",
			schedules: vn, asOf: "2025-10-20", excl: []Exclusion{{Antigen: "measles", Kind: "refused", From: "2025-09-01"}},
			recs: []wantRec{{antigen: "measles", st: "refused", earliest: "2025-10-15", due: "2025-10-15"}, {antigen: "rubella", st: "upcoming"}}},
		{name: "a contraindication", cite: "Rotavin-M1: intussusception contraindicates",
			schedules: vn, asOf: "2025-03-15", excl: []Exclusion{{Antigen: "rotavirus", Kind: "contraindicated", From: "2025-02-01"}},
			recs: []wantRec{{antigen: "rotavirus", st: "contraindicated"}}},
		{name: "a contraindication that has ended", cite: "a temporary contraindication, until its date",
			schedules: vn, asOf: "2025-03-15", excl: []Exclusion{{Antigen: "rotavirus", Kind: "contraindicated", From: "2025-02-01", Until: "2025-03-01"}},
			recs: []wantRec{{antigen: "rotavirus", st: "due"}}},
	})
}

func TestForecastPhilippinesDOH(t *testing.T) {
	ph := []string{"ph_epi"}
	at6w := []given{{"bcg", born}, {"hepb_paed", born}}
	at14w := append(append([]given{}, at6w...),
		given{"dtwp_hepb_hib", "2025-02-26"}, given{"bopv", "2025-02-26"}, given{"pcv13", "2025-02-26"},
		given{"dtwp_hepb_hib", "2025-03-26"}, given{"bopv", "2025-03-26"}, given{"pcv13", "2025-03-26"},
		given{"bopv", "2025-04-23"}, given{"ipv", "2025-04-23"})
	runCases(t, Default(), []fcase{
		{name: "on time: 6 weeks", cite: "DOH NIP: pentavalent, OPV and PCV at 6 weeks",
			schedules: ph, given: at6w, asOf: "2025-02-26", recs: []wantRec{
				{antigen: "diphtheria", dose: 1, earliest: "2025-02-26", due: "2025-02-26", overdue: "2025-03-26", st: "due"},
				{antigen: "pneumococcal", dose: 1, doses: 3, due: "2025-02-26", st: "due"},
				{antigen: "hepb", dose: 2, due: "2025-02-26"},
				{antigen: "rotavirus", absent: true},
			}},
		{name: "on time: 14 weeks, OPV 3 and IPV 1 the same day", cite: "DOH NIP: IPV at 14 weeks with OPV 3; IPV 2 at 9 months",
			schedules: ph, given: at14w, asOf: "2025-04-23",
			evals: []wantEval{valid(9, "polio", 3), valid(10, "polio", 4)},
			recs: []wantRec{
				{antigen: "polio", dose: 5, earliest: "2025-10-15", due: "2025-10-15", st: "upcoming"},
				{antigen: "diphtheria", dose: 3, due: "2025-04-23", st: "due"},
				{antigen: "pneumococcal", dose: 3, due: "2025-04-23", st: "due"},
			}},
		{name: "late start of PCV at 13 months: two doses", cite: "WHO PCV 2019: 12–23 months, 2 doses 8 weeks apart",
			schedules: ph, birth: "2024-01-15", asOf: "2025-02-15",
			recs: []wantRec{{antigen: "pneumococcal", dose: 1, doses: 2, st: "overdue"}}},
		{name: "late start catching up: PCV 2 eight weeks after", cite: "WHO PCV 2019: 2 doses at least 8 weeks apart",
			schedules: ph, birth: "2024-01-15", given: []given{{"pcv13", "2025-02-15"}}, asOf: "2025-02-16",
			recs: []wantRec{{antigen: "pneumococcal", dose: 2, doses: 2, earliest: "2025-04-12", due: "2025-04-12", st: "upcoming"}}},
		{name: "late start of PCV at 25 months: one dose", cite: "CDC catch-up: healthy 24–59 months, 1 dose",
			schedules: ph, birth: "2023-01-15", asOf: "2025-02-15",
			recs: []wantRec{{antigen: "pneumococcal", doses: 1}}},
		{name: "MMR too early (8 months)", cite: "DOH NIP: MMR 1 at 9 months",
			schedules: ph, given: []given{{"mmr", "2025-09-10"}}, asOf: "2025-09-11",
			evals: []wantEval{invalid(1, "measles", "too_early"), invalid(1, "mumps", "too_early"), invalid(1, "rubella", "too_early")},
			recs:  []wantRec{{antigen: "measles", dose: 1, earliest: "2025-10-15", due: "2025-10-15", st: "upcoming"}}},
		{name: "MMR too close (17 days)", cite: "WHO measles 2017: MCV doses at least 4 weeks apart; DOH: MMR 2 at 12 months",
			schedules: ph, given: []given{{"mmr", "2026-01-15"}, {"mmr", "2026-02-01"}}, asOf: "2026-02-02",
			evals: []wantEval{valid(1, "measles", 1), invalid(2, "measles", "too_close")},
			recs:  []wantRec{{antigen: "measles", dose: 2, earliest: "2026-02-12", due: "2026-02-12", st: "upcoming"}}},
		{name: "pentavalent counts for five antigens", cite: "DOH NIP: pentavalent (DTwP-HepB-Hib)",
			schedules: ph, given: []given{{"dtwp_hepb_hib", "2025-02-26"}}, asOf: "2025-02-27",
			evals: []wantEval{valid(1, "diphtheria", 1), valid(1, "tetanus", 1), valid(1, "pertussis", 1), valid(1, "hib", 1), valid(1, "hepb", 1)}},
		{name: "a premature infant by chronological age", cite: "DOH NIP: ages from birth",
			schedules: ph, given: at6w, asOf: "2025-02-26", recs: []wantRec{{antigen: "diphtheria", due: "2025-02-26", st: "due"}}},
		{name: "Hib on the day before the fifth birthday", cite: "WHO Hib 2013: not needed from 5 years",
			schedules: ph, birth: "2020-01-15", asOf: "2025-01-14", recs: []wantRec{{antigen: "hib", st: "overdue", latest: "2025-01-14"}}},
		{name: "Hib from the fifth birthday", cite: "WHO Hib 2013: not needed from 5 years",
			schedules: ph, birth: "2020-01-15", asOf: "2025-01-15", recs: []wantRec{{antigen: "hib", st: "aged_out"}}},
		{name: "rotavirus from WHO after DOH, aged out at 24 months", cite: "WHO rotavirus 2021: not after 24 months",
			schedules: []string{"ph_epi", "who"}, asOf: "2027-01-16",
			recs: []wantRec{{antigen: "rotavirus", schedule: "who", st: "aged_out", latest: "2027-01-15"}, {antigen: "measles", schedule: "ph_epi"}}},
		{name: "HPV for a girl at 9", cite: "DOH school-based: HPV for Grade 4 girls",
			schedules: ph, birth: "2015-03-01", sex: "female", asOf: "2024-03-01",
			recs: []wantRec{{antigen: "hpv", dose: 1, doses: 2, due: "2024-03-01", st: "due"}}},
		{name: "no HPV for a boy", cite: "DOH school-based: girls only",
			schedules: ph, birth: "2015-03-01", sex: "male", asOf: "2024-03-01", recs: []wantRec{{antigen: "hpv", absent: true}}},
		{name: "HPV refused", cite: "a refusal keeps its due dates",
			schedules: ph, birth: "2015-03-01", sex: "female", asOf: "2024-03-01",
			excl: []Exclusion{{Antigen: "hpv", Kind: "refused", From: "2024-02-01"}},
			recs: []wantRec{{antigen: "hpv", st: "refused", due: "2024-03-01"}}},
		{name: "measles contraindicated until a date", cite: "live vaccine deferred while immunosuppressed",
			schedules: ph, asOf: "2025-10-20", excl: []Exclusion{{Antigen: "measles", Kind: "contraindicated", From: "2025-09-01", Until: "2025-12-31"}},
			recs: []wantRec{{antigen: "measles", st: "contraindicated"}, {antigen: "rubella", st: "due"}}},
	})
}

func TestForecastPhilippinesPPS(t *testing.T) {
	pps := []string{"ph_pps"}
	hexa := []given{{"dtap_ipv_hib_hepb", "2025-02-26"}, {"dtap_ipv_hib_hepb", "2025-03-26"}, {"dtap_ipv_hib_hepb", "2025-04-23"}}
	runCases(t, Default(), []fcase{
		{name: "on time: 12 months, the Hib booster", cite: "PPS/PIDSP 2024: Hib booster at 12–15 months; MMR, varicella at 12 months",
			schedules: pps, given: hexa, asOf: "2026-01-15", recs: []wantRec{
				{antigen: "hib", dose: 4, doses: 4, earliest: "2026-01-15", due: "2026-01-15", st: "due"},
				{antigen: "hepb", dose: 3, doses: 3, st: "complete"},
				{antigen: "varicella", dose: 1, due: "2026-01-15", st: "due"},
				{antigen: "measles", dose: 1, due: "2025-10-15", st: "overdue"},
				{antigen: "polio", dose: 4, due: "2029-01-15", st: "upcoming"},
			}},
		{name: "late start of Hib at 13 months: two doses", cite: "PPS/PIDSP 2024 catch-up: first dose at 12–14 months, 2 doses 8 weeks apart",
			schedules: pps, birth: "2024-01-15", given: []given{{"hib", "2025-02-15"}}, asOf: "2025-02-16",
			recs: []wantRec{{antigen: "hib", dose: 2, doses: 2, earliest: "2025-04-12", due: "2025-04-12", st: "upcoming"}}},
		{name: "late start of Hib at 16 months: one dose", cite: "PPS/PIDSP 2024 catch-up: first dose at 15–59 months, 1 dose",
			schedules: pps, birth: "2024-01-15", asOf: "2025-05-15",
			recs: []wantRec{{antigen: "hib", dose: 1, doses: 1, earliest: "2025-01-15", due: "2025-01-15", st: "overdue"}}},
		{name: "rotavirus too early (5 weeks)", cite: "PPS/PIDSP 2024: rotavirus from 6 weeks",
			schedules: pps, given: []given{{"rv1", "2025-02-19"}}, asOf: "2025-02-20",
			evals: []wantEval{invalid(1, "rotavirus", "too_early")},
			recs:  []wantRec{{antigen: "rotavirus", dose: 1, earliest: "2025-02-26", st: "upcoming"}}},
		{name: "hepatitis A too close (3 months)", cite: "PPS/PIDSP 2024: hepatitis A 2 at least 6 months after dose 1",
			schedules: pps, given: []given{{"hepa_inact", "2026-07-15"}, {"hepa_inact", "2026-10-15"}}, asOf: "2026-10-16",
			evals: []wantEval{valid(1, "hepa", 1), invalid(2, "hepa", "too_close")},
			recs:  []wantRec{{antigen: "hepa", dose: 2, earliest: "2027-01-15", due: "2027-01-15"}}},
		{name: "a hexavalent vaccine after the birth dose", cite: "PPS/PIDSP 2024: hepatitis B birth dose, then with the combination",
			schedules: pps, given: []given{{"hepb_paed", born}, {"dtap_ipv_hib_hepb", "2025-02-26"}}, asOf: "2025-02-27",
			evals: []wantEval{valid(1, "hepb", 1), valid(2, "hepb", 2), valid(2, "polio", 1), valid(2, "hib", 1), valid(2, "pertussis", 1)}},
		{name: "a premature infant by chronological age", cite: "PPS/PIDSP 2024: chronological age",
			schedules: pps, asOf: "2025-02-26", recs: []wantRec{{antigen: "rotavirus", due: "2025-02-26", st: "due"}}},
		{name: "rotavirus dose 1 on its last day (14 weeks 6 days)", cite: "PPS/PIDSP 2024 (ACIP): first dose no later than 14 weeks 6 days",
			schedules: pps, asOf: "2025-04-29", recs: []wantRec{{antigen: "rotavirus", st: "overdue", latest: "2025-04-29"}}},
		{name: "rotavirus dose 1 the day after", cite: "PPS/PIDSP 2024 (ACIP): do not start from 15 weeks 0 days",
			schedules: pps, asOf: "2025-04-30", recs: []wantRec{{antigen: "rotavirus", st: "aged_out", due: "-"}}},
		{name: "rotavirus started at 15 weeks does not count", cite: "PPS/PIDSP 2024 (ACIP)",
			schedules: pps, given: []given{{"rv1", "2025-04-30"}}, asOf: "2025-05-01",
			evals: []wantEval{invalid(1, "rotavirus", "too_late")}},
		{name: "rotavirus dose 2 past 8 months", cite: "PPS/PIDSP 2024 (ACIP): last dose by 8 months 0 days",
			schedules: pps, given: []given{{"rv1", "2025-04-29"}}, asOf: "2025-09-16",
			recs: []wantRec{{antigen: "rotavirus", dose: 2, st: "aged_out", latest: "2025-09-15"}}},
		{name: "a refusal", cite: "a refusal keeps its due dates",
			schedules: pps, asOf: "2026-01-20", excl: []Exclusion{{Antigen: "varicella", Kind: "refused"}},
			recs: []wantRec{{antigen: "varicella", st: "refused", due: "2026-01-15"}}},
		{name: "a contraindication", cite: "PPS/PIDSP 2024: contraindications per product",
			schedules: pps, asOf: "2025-03-01", excl: []Exclusion{{Antigen: "rotavirus", Kind: "contraindicated"}},
			recs: []wantRec{{antigen: "rotavirus", st: "contraindicated"}}},
	})
}

// A schedule's grace days (ACIP's 4 days) count a dose given a few days early; none of the
// shipped ones grants any, so a clinic's own schedule is tested here.
func TestForecastGraceDays(t *testing.T) {
	programmes := strings.Replace(string(programmesTSV), "ph_pps\tph\t", "ph_pps\tph\t", 1)
	lines := strings.Split(programmes, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "ph_pps\t") {
			f := strings.Split(l, "\t")
			f[6] = "4"
			lines[i] = strings.Join(f, "\t")
		}
	}
	c, err := load(antigensTSV, vaccinesTSV, []byte(strings.Join(lines, "\n")), schedulesTSV, catchupTSV)
	if err != nil {
		t.Fatal(err)
	}
	pps := []string{"ph_pps"}
	runCases(t, c, []fcase{
		{name: "4 days early counts", cite: "ACIP General Best Practice: 4-day grace period",
			schedules: pps, given: []given{{"rv1", "2025-02-22"}}, asOf: "2025-02-23", evals: []wantEval{valid(1, "rotavirus", 1)}},
		{name: "5 days early does not", cite: "ACIP General Best Practice: 4-day grace period",
			schedules: pps, given: []given{{"rv1", "2025-02-21"}}, asOf: "2025-02-23",
			evals: []wantEval{invalid(1, "rotavirus", "too_early")},
			recs:  []wantRec{{antigen: "rotavirus", earliest: "2025-02-26"}}},
		{name: "the interval's grace", cite: "ACIP General Best Practice: 4-day grace period",
			schedules: pps, given: []given{{"rv1", "2025-02-26"}, {"rv1", "2025-03-22"}}, asOf: "2025-03-23",
			evals: []wantEval{valid(2, "rotavirus", 2)}},
	})
	// The shipped schedule grants none.
	runCases(t, Default(), []fcase{
		{name: "no grace shipped", cite: "PPS/PIDSP 2024 states no grace period",
			schedules: pps, given: []given{{"rv1", "2025-02-25"}}, asOf: "2025-02-26", evals: []wantEval{invalid(1, "rotavirus", "too_early")}},
	})
}

func TestForecastRussia(t *testing.T) {
	ru := []string{"ru_nc"}
	runCases(t, Default(), []fcase{
		{name: "on time: the day of birth", cite: "1122н: гепатит B в первые 24 часа; БЦЖ на 3–7 день",
			schedules: ru, asOf: born, recs: []wantRec{
				{antigen: "tb", earliest: born, due: "2025-01-18", overdue: "2025-01-23", st: "upcoming"},
				{antigen: "hepb", dose: 1, doses: 3, due: born, overdue: "2025-01-16", st: "due"},
				{antigen: "hib", absent: true},
				{antigen: "rotavirus", absent: true},
			}},
		{name: "on time: 4,5 months", cite: "1122н: вторая вакцинация АКДС, ИПВ, пневмококк в 4,5 месяца; гепатит B в 6 месяцев",
			schedules: ru, given: []given{{"hepb_paed", born}, {"bcg", "2025-01-18"}, {"hepb_paed", "2025-02-15"}, {"pcv13", "2025-03-15"},
				{"dtwp", "2025-04-15"}, {"ipv", "2025-04-15"}}, asOf: "2025-05-30",
			recs: []wantRec{
				{antigen: "diphtheria", dose: 2, earliest: "2025-05-30", due: "2025-05-30", st: "due"},
				{antigen: "pneumococcal", dose: 2, earliest: "2025-05-15", due: "2025-05-30", st: "due"},
				{antigen: "polio", dose: 2, due: "2025-05-30", st: "due"},
				{antigen: "hepb", dose: 3, earliest: "2025-07-02", due: "2025-07-15", st: "upcoming"},
				{antigen: "measles", due: "2026-01-15"},
			}},
		{name: "late start of PCV at 13 months", cite: "Превенар 13: 12–23 месяца — 2 дозы с интервалом не менее 8 недель; 1122н: ревакцинация в 15 месяцев",
			schedules: ru, birth: "2024-01-15", given: []given{{"pcv13", "2025-02-15"}}, asOf: "2025-02-16",
			recs: []wantRec{{antigen: "pneumococcal", dose: 2, doses: 2, earliest: "2025-04-12", due: "2025-04-15", st: "upcoming"}}},
		{name: "АКДС too early (2 months)", cite: "1122н: первая вакцинация в 3 месяца",
			schedules: ru, given: []given{{"dtwp", "2025-03-15"}}, asOf: "2025-03-16",
			evals: []wantEval{invalid(1, "pertussis", "too_early")},
			recs:  []wantRec{{antigen: "diphtheria", dose: 1, earliest: "2025-04-15", due: "2025-04-15"}}},
		{name: "АКДС too close (30 days)", cite: "АКДС instruction: интервал 45 дней",
			schedules: ru, given: []given{{"dtwp", "2025-04-15"}, {"dtwp", "2025-05-15"}}, asOf: "2025-05-16",
			evals: []wantEval{valid(1, "pertussis", 1), invalid(2, "pertussis", "too_close")},
			recs:  []wantRec{{antigen: "pertussis", dose: 2, earliest: "2025-05-30", due: "2025-05-30"}}},
		{name: "Пентаксим counts for each antigen; Hib outside the calendar still counts", cite: "Пентаксим: АаКДС-ИПВ-Hib; 1122н: Hib for risk groups only",
			schedules: ru, given: []given{{"dtap_ipv_hib", "2025-04-15"}}, asOf: "2025-04-16",
			evals: []wantEval{valid(1, "diphtheria", 1), valid(1, "tetanus", 1), valid(1, "pertussis", 1), valid(1, "polio", 1),
				{nth: 1, antigen: "hib", valid: true, number: 1, schedule: "-"}}},
		{name: "a premature infant by chronological age", cite: "1122н: возраст от даты рождения",
			schedules: ru, asOf: "2025-03-15", recs: []wantRec{{antigen: "pneumococcal", due: "2025-03-15", st: "due"}}},
		{name: "АКДС not from 4 years", cite: "АКДС instruction: до 3 лет 11 месяцев 29 дней",
			schedules: ru, birth: "2021-01-15", asOf: "2025-01-15",
			recs: []wantRec{{antigen: "pertussis", st: "aged_out", latest: "2025-01-14"}, {antigen: "diphtheria", st: "overdue"}}},
		{name: "rotavirus only from the next schedule chosen", cite: "1122н has no rotavirus; WHO rotavirus 2021",
			schedules: []string{"ru_nc", "who"}, asOf: "2025-03-01",
			recs: []wantRec{{antigen: "rotavirus", schedule: "who", st: "due"}, {antigen: "hib", schedule: "who"}, {antigen: "diphtheria", schedule: "ru_nc"}}},
		{name: "a refusal", cite: "a refusal keeps its due dates",
			schedules: ru, asOf: "2026-02-01", excl: []Exclusion{{Antigen: "mumps", Kind: "refused", From: "2025-12-01"}},
			recs: []wantRec{{antigen: "mumps", st: "refused", due: "2026-01-15"}, {antigen: "measles", st: "due"}}},
		{name: "a contraindication", cite: "АКДС instruction: прогрессирующие заболевания нервной системы",
			schedules: ru, asOf: "2025-04-15", excl: []Exclusion{{Antigen: "pertussis", Kind: "contraindicated"}},
			recs: []wantRec{{antigen: "pertussis", st: "contraindicated"}, {antigen: "diphtheria", st: "due"}}},
		{name: "pertussis contraindicated: diphtheria and tetanus offered as DT", cite: "ACIP General Best Practice: DT when pertussis vaccine is contraindicated; АДС-анатоксин",
			schedules: []string{"vn_epi"}, asOf: "2025-04-15", excl: []Exclusion{{Antigen: "pertussis", Kind: "contraindicated"}},
			recs: []wantRec{{antigen: "pertussis", st: "contraindicated"},
				{antigen: "diphtheria", first: "dt", without: []string{"dtwp", "dtap", "dtwp_hepb_hib", "dtap_ipv_hib_hepb"}},
				{antigen: "tetanus", first: "dt", without: []string{"dtwp_hepb_hib"}},
				{antigen: "hepb", without: []string{"dtwp_hepb_hib"}}}},
		{name: "pertussis contraindicated from birth: АДС course of two and a booster", cite: "АДС-анатоксин instruction: two doses 30 days apart, a booster 9–12 months after",
			schedules: ru, asOf: "2025-04-15", excl: []Exclusion{{Antigen: "pertussis", Kind: "contraindicated", From: born}},
			recs: []wantRec{{antigen: "diphtheria", dose: 1, doses: 5, due: "2025-04-15", first: "dt"}, {antigen: "tetanus", dose: 1, doses: 5}}},
		{name: "pertussis contraindicated after one АКДС: one АДС 30 days later counts", cite: "АДС-анатоксин instruction: after one АКДС dose, one АДС dose 30 days or more later",
			schedules: ru, given: []given{{"dtwp", "2025-04-15"}, {"dt", "2025-05-15"}}, asOf: "2025-05-20",
			excl:  []Exclusion{{Antigen: "pertussis", Kind: "contraindicated", From: "2025-04-20"}},
			evals: []wantEval{valid(1, "diphtheria", 1), valid(2, "diphtheria", 2), valid(2, "tetanus", 2)},
			recs:  []wantRec{{antigen: "diphtheria", dose: 3, doses: 5, earliest: "2026-02-15", due: "2026-02-15", overdue: "2026-05-15", st: "upcoming"}}},
		{name: "pertussis contraindicated after one АКДС: the next АДС due 30 days after it", cite: "АДС-анатоксин instruction",
			schedules: ru, given: []given{{"dtwp", "2025-04-15"}}, asOf: "2025-05-01",
			excl: []Exclusion{{Antigen: "pertussis", Kind: "contraindicated", From: "2025-04-20"}},
			recs: []wantRec{{antigen: "diphtheria", dose: 2, doses: 5, earliest: "2025-05-15", due: "2025-05-15", first: "dt"}, {antigen: "tetanus", dose: 2, due: "2025-05-15"}}},
		{name: "pertussis contraindicated after two АКДС: the course is complete, the booster 9 months after", cite: "АДС-анатоксин instruction: after two АКДС doses the course is complete",
			schedules: ru, given: []given{{"dtwp", "2025-04-15"}, {"dtwp", "2025-05-30"}}, asOf: "2025-07-15",
			excl: []Exclusion{{Antigen: "pertussis", Kind: "contraindicated", From: "2025-06-10"}},
			recs: []wantRec{{antigen: "diphtheria", dose: 3, doses: 5, earliest: "2026-02-28", due: "2026-02-28", st: "upcoming", first: "dt"}, {antigen: "tetanus", dose: 3, due: "2026-02-28"}}},
		{name: "pertussis contraindicated after three АКДС: the calendar's series stays", cite: "1122н: ревакцинация в 18 месяцев, 12 months after dose 3",
			schedules: ru, given: []given{{"dtwp", "2025-04-15"}, {"dtwp", "2025-05-30"}, {"dtwp", "2025-07-15"}}, asOf: "2025-09-01",
			excl: []Exclusion{{Antigen: "pertussis", Kind: "contraindicated", From: "2025-08-01"}},
			recs: []wantRec{{antigen: "diphtheria", dose: 4, doses: 6, earliest: "2026-07-15", due: "2026-07-15", first: "dt"}}},
		{name: "a temporary contraindication ended: the АДС doses given under it still count", cite: "the nurse's review: a dose is judged by the series in force on its day",
			schedules: ru, given: []given{{"dt", "2025-04-15"}, {"dt", "2025-05-15"}}, asOf: "2025-07-01",
			excl:  []Exclusion{{Antigen: "pertussis", Kind: "contraindicated", From: "2025-04-01", Until: "2025-06-01"}},
			evals: []wantEval{valid(1, "diphtheria", 1), valid(2, "diphtheria", 2)},
			recs:  []wantRec{{antigen: "diphtheria", dose: 3, earliest: "2026-02-15"}}},
		{name: "no contraindication: a second dose 30 days after the first is too close", cite: "АКДС instruction: 45 days, not shortened",
			schedules: ru, given: []given{{"dtwp", "2025-04-15"}, {"dt", "2025-05-15"}}, asOf: "2025-05-20",
			evals: []wantEval{valid(1, "diphtheria", 1), invalid(2, "diphtheria", "too_close")}},
		{name: "pertussis refused: DT offered first, the refusal kept", cite: "a family's choice; DT gives the rest",
			schedules: ru, asOf: "2025-04-15", excl: []Exclusion{{Antigen: "pertussis", Kind: "refused", From: "2025-04-01"}},
			recs: []wantRec{{antigen: "pertussis", st: "refused"}, {antigen: "diphtheria", first: "dt", with: []string{"dtwp"}}}},
		{name: "hepatitis B refused: the programme's DPT-VGB-Hib stays on the DTP dose, named after the others", cite: "TT 10/2024: DPT-VGB-Hib is the programme's product",
			schedules: []string{"vn_epi"}, asOf: "2025-03-15", excl: []Exclusion{{Antigen: "hepb", Kind: "refused", From: "2025-01-15"}},
			recs: []wantRec{{antigen: "diphtheria", with: []string{"dtwp_hepb_hib"}}, {antigen: "hib", with: []string{"dtwp_hepb_hib"}}}},
	})
}

func TestForecastChina(t *testing.T) {
	cn := []string{"cn_nip"}
	runCases(t, Default(), []fcase{
		{name: "on time: 1 month", cite: "2021年版: 乙肝第2剂1月龄; 2025: 百白破2月龄; IPV 2月龄",
			schedules: cn, given: []given{{"hepb_paed", born}, {"bcg", born}}, asOf: "2025-02-15",
			recs: []wantRec{
				{antigen: "hepb", dose: 2, doses: 3, earliest: "2025-02-15", due: "2025-02-15", st: "due"},
				{antigen: "polio", dose: 1, due: "2025-03-15", st: "upcoming"},
				{antigen: "pertussis", dose: 1, doses: 5, due: "2025-03-15", st: "upcoming"},
				{antigen: "tb", st: "complete"},
			}},
		{name: "hepatitis B at birth under 2,000 g does not count", cite: "2021年版: 出生体重<2000g…满1月龄后，再按0、1、6月程序完成3剂次",
			schedules: cn, given: []given{{"hepb_paed", born}, {"bcg", "2025-02-20"}}, lowWeight: []int{1}, asOf: "2025-02-01",
			evals: []wantEval{invalid(1, "hepb", "low_weight")},
			recs:  []wantRec{{antigen: "hepb", dose: 1, doses: 3, earliest: "2025-02-15", due: "2025-02-15", st: "upcoming"}}},
		{name: "under 2,000 g at birth: three more doses from 1 month", cite: "2021年版; ACIP 2018: the birth dose not counted",
			schedules: cn, given: []given{{"hepb_paed", born}, {"hepb_paed", "2025-02-15"}}, lowWeight: []int{1}, asOf: "2025-03-20",
			evals: []wantEval{invalid(1, "hepb", "low_weight"), valid(2, "hepb", 1)},
			recs:  []wantRec{{antigen: "hepb", dose: 2, doses: 3, due: "2025-03-15"}}},
		{name: "a dose from 1 month of age counts whatever the weight", cite: "ACIP 2018: from chronological age 1 month; 2021年版: 满1月龄后",
			schedules: cn, given: []given{{"hepb_paed", born}, {"hepb_paed", "2025-02-15"}}, lowWeight: []int{1, 2}, asOf: "2025-03-20",
			evals: []wantEval{invalid(1, "hepb", "low_weight"), valid(2, "hepb", 1)}},
		{name: "a weight under 2,000 g touches only hepatitis B", cite: "the weight rule is hepatitis B's",
			schedules: cn, given: []given{{"hepb_paed", born}, {"bcg", born}}, lowWeight: []int{2}, asOf: "2025-02-15",
			evals: []wantEval{valid(1, "hepb", 1), valid(2, "tb", 1)}},
		{name: "hepatitis B dose 3: timely until 12 months", cite: "2021年版: 第3剂6月龄; 及时接种<12月龄",
			schedules: cn, given: []given{{"hepb_paed", born}, {"hepb_paed", "2025-02-15"}}, asOf: "2025-08-01",
			recs: []wantRec{{antigen: "hepb", dose: 3, earliest: "2025-07-15", due: "2025-07-15", overdue: "2026-01-15", st: "due"}}},
		{name: "DTaP 3 at 6 months, overdue from 12", cite: "2025 百白破 6月龄; 及时接种<12月龄",
			schedules: cn, given: []given{{"dtap", "2025-03-15"}, {"dtap", "2025-05-15"}}, asOf: "2025-12-01",
			recs: []wantRec{{antigen: "pertussis", dose: 3, earliest: "2025-07-15", due: "2025-07-15", overdue: "2026-01-15", st: "due"}}},
		{name: "late start past 24 months: no group A, AC at 3 years", cite: "2021年版: ≥24月龄未接种A群者不再补种，接种AC群",
			schedules: cn, birth: "2022-01-15", asOf: "2024-03-01",
			recs: []wantRec{{antigen: "meningococcal", dose: 1, doses: 2, earliest: "2025-01-15", due: "2025-01-15", overdue: "2026-01-15", st: "upcoming"}}},
		{name: "late: one group A dose, then AC", cite: "2021年版: AC群第1剂与A群第2剂间隔≥12个月",
			schedules: cn, birth: "2022-01-15", given: []given{{"mpsv_a", "2022-07-15"}}, asOf: "2024-03-01",
			recs: []wantRec{{antigen: "meningococcal", dose: 2, doses: 3, earliest: "2025-01-15"}}},
		{name: "BCG not from 4 years", cite: "2021年版: ≥4岁儿童不予补种卡介苗",
			schedules: cn, birth: "2021-01-15", asOf: "2025-01-15", recs: []wantRec{{antigen: "tb", st: "aged_out", latest: "2025-01-14"}}},
		{name: "MMR too early (7 months)", cite: "2021年版: 麻腮风8月龄，月龄为最小接种年龄",
			schedules: cn, given: []given{{"mmr", "2025-08-15"}}, asOf: "2025-08-16",
			evals: []wantEval{invalid(1, "measles", "too_early"), invalid(1, "rubella", "too_early")},
			recs:  []wantRec{{antigen: "measles", dose: 1, earliest: "2025-09-15"}}},
		{name: "hepatitis B dose 3 too close (44 days)", cite: "2021年版: 第2剂和第3剂间隔≥60天",
			schedules: cn, given: []given{{"hepb_paed", born}, {"hepb_paed", "2025-06-01"}, {"hepb_paed", "2025-07-15"}}, asOf: "2025-07-16",
			evals: []wantEval{valid(2, "hepb", 2), invalid(3, "hepb", "too_close")},
			recs:  []wantRec{{antigen: "hepb", dose: 3, earliest: "2025-07-31", due: "2025-07-31"}}},
		{name: "MMR counts for measles, mumps and rubella", cite: "2021年版: 麻腮风疫苗",
			schedules: cn, given: []given{{"mmr", "2025-09-15"}}, asOf: "2025-09-16",
			evals: []wantEval{valid(1, "measles", 1), valid(1, "mumps", 1), valid(1, "rubella", 1)},
			recs:  []wantRec{{antigen: "mumps", dose: 2, due: "2026-07-15"}}},
		{name: "a premature infant by chronological age", cite: "2021年版: 按出生日期计算月龄",
			schedules: cn, asOf: "2025-03-15", recs: []wantRec{{antigen: "polio", due: "2025-03-15", st: "due"}}},
		{name: "a refusal", cite: "a refusal keeps its due dates",
			schedules: cn, asOf: "2025-09-20", excl: []Exclusion{{Antigen: "je", Kind: "refused"}},
			recs: []wantRec{{antigen: "je", st: "refused", due: "2025-09-15"}}},
		{name: "a contraindication", cite: "live JE vaccine: immunodeficiency contraindicates",
			schedules: cn, asOf: "2025-09-20", excl: []Exclusion{{Antigen: "je", Kind: "contraindicated"}},
			recs: []wantRec{{antigen: "je", st: "contraindicated"}}},
	})
}

func TestForecastWHO(t *testing.T) {
	who := []string{"who"}
	runCases(t, Default(), []fcase{
		{name: "on time: 6 weeks", cite: "WHO summary tables: DTP, bOPV from 6 weeks",
			schedules: who, given: []given{{"bcg", born}, {"hepb_paed", born}, {"bopv", born}}, asOf: "2025-02-26",
			recs: []wantRec{
				{antigen: "diphtheria", dose: 1, due: "2025-02-26", st: "due"},
				{antigen: "polio", dose: 2, doses: 6, due: "2025-02-26", st: "due"},
				{antigen: "hepb", dose: 2, doses: 4},
				{antigen: "hpv", absent: true},
			}},
		{name: "the bOPV birth dose late", cite: "WHO polio 2022: birth dose as soon as possible after birth",
			schedules: who, asOf: "2025-02-05",
			recs: []wantRec{{antigen: "polio", dose: 1, doses: 6, due: born, st: "due", latest: "2025-02-25"}}},
		{name: "the bOPV birth dose missed", cite: "WHO polio 2022; dropped at 6 weeks (project rule)",
			schedules: who, asOf: "2025-02-26",
			recs: []wantRec{{antigen: "polio", dose: 1, doses: 5, earliest: "2025-02-26", due: "2025-02-26", st: "due"}}},
		{name: "hepatitis B at 0 and 1 month counts (0-1-6)", cite: "WHO hepatitis B 2017: 4 weeks between doses",
			schedules: who, given: []given{{"hepb_paed", born}, {"hepb_paed", "2025-02-15"}}, asOf: "2025-02-16",
			evals: []wantEval{valid(1, "hepb", 1), valid(2, "hepb", 2)},
			recs:  []wantRec{{antigen: "hepb", dose: 3, earliest: "2025-03-15", due: "2025-03-26"}}},
		{name: "a hepatitis B birth dose given at 3 weeks still counts", cite: "WHO hepatitis B 2017: a late birth dose as soon as possible",
			schedules: who, given: []given{{"hepb_paed", "2025-02-05"}}, asOf: "2025-02-06",
			evals: []wantEval{valid(1, "hepb", 1)},
			recs:  []wantRec{{antigen: "hepb", dose: 2, doses: 4, earliest: "2025-03-05", due: "2025-03-05"}}},
		{name: "late start of Hib at 14 months: one dose", cite: "WHO Hib 2013: one dose from 12 months",
			schedules: who, birth: "2024-01-15", asOf: "2025-03-15", recs: []wantRec{{antigen: "hib", doses: 1, st: "overdue"}}},
		{name: "DTP too early (4 weeks)", cite: "WHO: DTP from 6 weeks",
			schedules: who, given: []given{{"dtwp", "2025-02-12"}}, asOf: "2025-02-13",
			evals: []wantEval{invalid(1, "diphtheria", "too_early")}, recs: []wantRec{{antigen: "diphtheria", earliest: "2025-02-26"}}},
		{name: "DTP too close (2 weeks)", cite: "WHO: 4 weeks between DTP doses",
			schedules: who, given: []given{{"dtwp", "2025-03-26"}, {"dtwp", "2025-04-09"}}, asOf: "2025-04-10",
			evals: []wantEval{invalid(2, "diphtheria", "too_close")}, recs: []wantRec{{antigen: "diphtheria", dose: 2, earliest: "2025-04-23"}}},
		{name: "pentavalent after the birth dose", cite: "WHO: hepatitis B with DTP",
			schedules: who, given: []given{{"hepb_paed", born}, {"dtwp_hepb_hib", "2025-02-26"}}, asOf: "2025-02-27",
			evals: []wantEval{valid(2, "hepb", 2), valid(2, "hib", 1), valid(2, "pertussis", 1)}},
		{name: "a premature infant by chronological age", cite: "WHO: preterm infants by chronological age",
			schedules: who, asOf: "2025-02-26", recs: []wantRec{{antigen: "rotavirus", due: "2025-02-26", st: "due"}}},
		{name: "rotavirus on the day of 24 months", cite: "WHO rotavirus 2021: not after 24 months",
			schedules: who, asOf: "2027-01-15", recs: []wantRec{{antigen: "rotavirus", st: "overdue", latest: "2027-01-15"}}},
		{name: "rotavirus after 24 months", cite: "WHO rotavirus 2021: not after 24 months",
			schedules: who, asOf: "2027-01-16", recs: []wantRec{{antigen: "rotavirus", st: "aged_out"}}},
		{name: "a third measles dose is not needed", cite: "WHO measles 2017: two doses",
			schedules: who, given: []given{{"mr", "2025-10-15"}, {"mr", "2026-04-15"}, {"mmr", "2027-01-15"}}, asOf: "2027-01-16",
			evals: []wantEval{valid(2, "measles", 2), invalid(3, "measles", "not_needed"), invalid(2, "rubella", "not_needed"),
				{nth: 3, antigen: "mumps", valid: true, number: 1, schedule: "-"}},
			recs: []wantRec{{antigen: "measles", st: "complete", dose: 2}}},
		{name: "HPV for a girl, none for a boy or an unknown sex", cite: "WHO HPV 2022: girls 9–14",
			schedules: who, birth: "2015-03-01", sex: "female", asOf: "2024-03-01", recs: []wantRec{{antigen: "hpv", doses: 1, st: "due"}}},
		{name: "no HPV when the sex is unknown", cite: "WHO HPV 2022: girls 9–14",
			schedules: who, birth: "2015-03-01", asOf: "2024-03-01", recs: []wantRec{{antigen: "hpv", absent: true}}},
		{name: "a refusal", cite: "a refusal keeps its due dates",
			schedules: who, asOf: "2025-03-01", excl: []Exclusion{{Antigen: "rotavirus", Kind: "refused", From: "2025-02-26"}},
			recs: []wantRec{{antigen: "rotavirus", st: "refused", due: "2025-02-26"}}},
		{name: "a contraindication not yet begun", cite: "an exclusion counts from its date",
			schedules: who, asOf: "2025-03-01", excl: []Exclusion{{Antigen: "rotavirus", Kind: "contraindicated", From: "2025-04-01"}},
			recs: []wantRec{{antigen: "rotavirus", st: "due"}}},
	})
}

// The forecast is the same for the same record, in a fixed order: dated recommendations by
// due day then antigen, then the undated ones by antigen; evaluations by the day given.
func TestForecastOrderIsDeterministic(t *testing.T) {
	c := Default()
	doses := []Dose{{ID: 3, Vaccine: "dtwp_hepb_hib", On: "2025-03-15"}, {ID: 1, Vaccine: "bcg", On: born}, {ID: 2, Vaccine: "hepb_paed", On: born}}
	a := c.Forecast([]string{"vn_epi"}, Child{BirthDate: born}, doses, nil, "2025-04-01")
	b := c.Forecast([]string{"vn_epi"}, Child{BirthDate: born}, []Dose{doses[2], doses[0], doses[1]}, nil, "2025-04-01")
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same record forecast twice differs")
	}
	var prev Recommendation
	for i, r := range a.Recommendations {
		if i > 0 {
			ok := prev.DueOn != "" && (r.DueOn == "" || prev.DueOn < r.DueOn || prev.DueOn == r.DueOn && prev.Antigen < r.Antigen) ||
				prev.DueOn == "" && r.DueOn == "" && prev.Antigen < r.Antigen
			if !ok {
				t.Errorf("%s (%s) after %s (%s)", r.Antigen, r.DueOn, prev.Antigen, prev.DueOn)
			}
		}
		prev = r
	}
	for i := 1; i < len(a.Evaluations); i++ {
		if a.Evaluations[i].On < a.Evaluations[i-1].On {
			t.Errorf("evaluations out of order: %+v", a.Evaluations)
		}
	}
	if a.Evaluations[0].DoseID != 1 {
		t.Errorf("first evaluation %+v", a.Evaluations[0])
	}
}

func TestForecastOddInput(t *testing.T) {
	c := Default()
	for _, tc := range []struct {
		name      string
		schedules []string
		child     Child
		asOf      string
	}{
		{"no birth date", []string{"who"}, Child{}, "2025-01-01"},
		{"a bad day", []string{"who"}, Child{BirthDate: born}, "soon"},
		{"no schedule", nil, Child{BirthDate: born}, "2025-03-01"},
		{"an unknown schedule", []string{"xx"}, Child{BirthDate: born}, "2025-03-01"},
	} {
		f := c.Forecast(tc.schedules, tc.child, []Dose{{ID: 1, Vaccine: "nothing", On: "2025-02-01"}}, nil, tc.asOf)
		if f.Evaluations == nil || f.Recommendations == nil || len(f.Recommendations) != 0 {
			t.Errorf("%s: %+v", tc.name, f)
		}
	}
	// Products named by the schedule come first.
	f := c.Forecast([]string{"vn_epi"}, Child{BirthDate: born}, nil, nil, "2025-03-01")
	for _, r := range f.Recommendations {
		if r.Antigen == "hib" && r.Vaccines[0] != "dtwp_hepb_hib" {
			t.Errorf("Hib in Viet Nam first offers %v", r.Vaccines)
		}
	}
}

// TestForecastEndsAtEighteen: the shipped schedules are childhood schedules: an adult with no
// record is forecast nothing (every antigen aged out), while a 17-year-old still catches up a
// dose the programme gives at any age before 18 (programmes.tsv, forecast_until).
func TestForecastEndsAtEighteen(t *testing.T) {
	c := Default()
	for _, sch := range []string{"vn_epi", "ph_epi", "ph_pps", "ru_nc", "cn_nip", "who"} {
		f := c.Forecast([]string{sch}, Child{BirthDate: "1970-05-01", Sex: "female"}, nil, nil, "2026-12-01")
		for _, r := range f.Recommendations {
			if r.Status != StatusAgedOut || r.DueOn != "" {
				t.Errorf("%s: an adult is forecast %s dose %d: %s (due %s)", sch, r.Antigen, r.DoseNumber, r.Status, r.DueOn)
			}
		}
	}
	f := c.Forecast([]string{"who"}, Child{BirthDate: "2009-06-01", Sex: "female"}, nil, nil, "2026-12-01")
	open := 0
	for _, r := range f.Recommendations {
		if r.Status == StatusOverdue || r.Status == StatusDue {
			open++
		}
	}
	if open == 0 {
		t.Errorf("a 17-year-old with no record is due nothing: %+v", f.Recommendations)
	}
}

// BenchmarkForecast: one child's forecast (the due list refreshes one per write, and all of
// them when the clinic's schedules change).
func BenchmarkForecast(b *testing.B) {
	c := Default()
	doses := []Dose{{ID: 1, Vaccine: "bcg", On: born}, {ID: 2, Vaccine: "hepb_paed", On: born},
		{ID: 3, Vaccine: "dtwp_hepb_hib", On: "2025-03-15"}, {ID: 4, Vaccine: "bopv", On: "2025-03-15"},
		{ID: 5, Vaccine: "dtwp_hepb_hib", On: "2025-04-15"}, {ID: 6, Vaccine: "bopv", On: "2025-04-15"}}
	for b.Loop() {
		c.Forecast([]string{"vn_epi", "who"}, Child{BirthDate: born}, doses, nil, "2025-06-01")
	}
}

func TestDayWritesTheLayout(t *testing.T) {
	for _, s := range []string{"2025-01-15", "0001-01-01", "9999-12-31", "2024-02-29", "1999-10-09"} {
		d, ok := parseDay(s)
		if !ok || day(d) != s || day(d) != d.Format(dayLayout) {
			t.Errorf("%s written as %s", s, day(d))
		}
	}
}

// The check at the point of giving judges a dose before it is saved.
func TestEvaluateACandidateDose(t *testing.T) {
	c := Default()
	child := Child{BirthDate: born}
	record := []Dose{{ID: 7, Vaccine: "dtwp_hepb_hib", On: "2025-03-15"}}
	got := c.Evaluate([]string{"vn_epi"}, child, record, Dose{ID: 99, Vaccine: "dtwp_hepb_hib", On: "2025-04-01"})
	if len(got) != 5 {
		t.Fatalf("%+v", got)
	}
	for _, e := range got {
		if e.Valid || e.Reason != ReasonTooClose || e.DoseID != 0 || e.On != "2025-04-01" {
			t.Errorf("%+v, want too close (TT 10/2024: 1 month apart)", e)
		}
	}
	got = c.Evaluate([]string{"vn_epi"}, child, record, Dose{Vaccine: "dtwp_hepb_hib", On: "2025-04-15"})
	for _, e := range got {
		if !e.Valid || e.DoseNumber != 2 {
			t.Errorf("%+v, want dose 2", e)
		}
	}
	// A second dose the same day as one on the record is the one that does not count.
	for _, e := range c.Evaluate([]string{"vn_epi"}, child, record, Dose{Vaccine: "dtwp_hepb_hib", On: "2025-03-15"}) {
		if e.Valid || e.Reason == "" {
			t.Errorf("the same day: %+v", e)
		}
	}
	if got := c.Evaluate([]string{"vn_epi"}, child, nil, Dose{Vaccine: "nothing", On: "2025-04-15"}); len(got) != 0 {
		t.Errorf("an unknown product: %+v", got)
	}
}

// Influenza comes round every year: Russia's calendar from 6 months, the PPS's from 6 months
// to 18 years (two doses the first time under 9 years).
func TestForecastInfluenzaRepeats(t *testing.T) {
	ru, pps := []string{"ru_nc"}, []string{"ph_pps"}
	runCases(t, Default(), []fcase{
		{name: "Russia: the first at 6 months", cite: "1122н: дети с 6 месяцев — ежегодно",
			schedules: ru, asOf: "2025-07-15", recs: []wantRec{{antigen: "influenza", dose: 1, due: "2025-07-15", st: "due"}}},
		{name: "Russia: under 9 the first time, a second dose 4 weeks after", cite: "Ультрикс Квадри, Совигрипп: 2 дозы с интервалом 4 недели детям до 9 лет, ранее не привитым",
			schedules: ru, given: []given{{"influenza", "2025-10-01"}}, asOf: "2025-10-02",
			recs: []wantRec{{antigen: "influenza", dose: 2, doses: 2, earliest: "2025-10-29", due: "2025-10-29", st: "upcoming"}}},
		{name: "Russia: after the two, the next a year after the last", cite: "1122н: ежегодно",
			schedules: ru, given: []given{{"influenza", "2025-09-03"}, {"influenza", "2025-10-01"}}, asOf: "2025-10-02",
			recs: []wantRec{{antigen: "influenza", dose: 3, doses: 2, earliest: "2025-10-29", due: "2026-10-01", overdue: "2026-10-29", st: "upcoming"}}},
		{name: "Russia: first at 10 years, one dose a season", cite: "instructions: from 9 years one dose",
			schedules: ru, birth: "2015-01-15", given: []given{{"influenza", "2025-10-01"}}, asOf: "2025-10-02",
			recs: []wantRec{{antigen: "influenza", dose: 2, doses: 1, due: "2026-10-01"}}},
		{name: "Russia: a second dose within 4 weeks does not count", cite: "project rule: not sooner than 4 weeks",
			schedules: ru, given: []given{{"influenza", "2025-10-01"}, {"influenza", "2025-10-10"}, {"influenza", "2026-09-15"}}, asOf: "2026-09-16",
			evals: []wantEval{valid(1, "influenza", 1), invalid(2, "influenza", "too_close"), valid(3, "influenza", 2)},
			recs:  []wantRec{{antigen: "influenza", dose: 3, due: "2027-09-15", st: "upcoming"}}},
		{name: "Russia: a year missed is overdue", cite: "1122н: ежегодно",
			schedules: ru, given: []given{{"influenza", "2025-10-01"}}, asOf: "2026-12-01",
			recs: []wantRec{{antigen: "influenza", dose: 2, st: "overdue"}}},
		{name: "PPS: two doses the first time, then yearly", cite: "PPS/PIDSP 2024: 2 doses 4 weeks apart under 9 years",
			schedules: pps, given: []given{{"influenza", "2025-07-15"}}, asOf: "2025-07-16",
			recs: []wantRec{{antigen: "influenza", dose: 2, doses: 2, earliest: "2025-08-15", due: "2025-08-15"}}},
		{name: "PPS: after the two, yearly", cite: "PPS/PIDSP 2024: yearly",
			schedules: pps, given: []given{{"influenza", "2025-07-15"}, {"influenza", "2025-08-15"}}, asOf: "2025-08-16",
			recs: []wantRec{{antigen: "influenza", dose: 3, due: "2026-08-15", latest: "2043-01-14", st: "upcoming"}}},
		{name: "PPS: first at 10 years, one dose a year", cite: "PPS/PIDSP 2024: from 9 years one dose",
			schedules: pps, birth: "2015-01-15", given: []given{{"influenza", "2025-03-01"}}, asOf: "2025-03-02",
			recs: []wantRec{{antigen: "influenza", dose: 2, doses: 1, due: "2026-03-01"}}},
		{name: "PPS: none from 18 years", cite: "PPS/PIDSP 2024: to 18 years",
			schedules: pps, birth: "2007-01-15", given: []given{{"influenza", "2024-03-01"}}, asOf: "2025-03-02",
			recs: []wantRec{{antigen: "influenza", st: "aged_out", latest: "2025-01-14"}}},
		{name: "a refused influenza dose keeps its date", cite: "a refusal keeps its due dates",
			schedules: ru, given: []given{{"influenza", "2025-09-03"}, {"influenza", "2025-10-01"}}, asOf: "2026-10-05",
			excl: []Exclusion{{Antigen: "influenza", Kind: "refused", From: "2026-09-01"}},
			recs: []wantRec{{antigen: "influenza", st: "refused", due: "2026-10-01"}}},
	})
}

// Whatever the record, the forecast holds together: earliest ≤ due < overdue, a dose number
// follows the valid doses counted, a status is one of the seven, and nothing panics.
func TestForecastInvariantsOnRandomRecords(t *testing.T) {
	c := Default()
	rng := rand.New(rand.NewPCG(59, 1))
	keys := make([]string, 0, len(c.vaccines))
	for _, v := range c.vaccines {
		keys = append(keys, v.Key)
	}
	statuses := []string{StatusUpcoming, StatusDue, StatusOverdue, StatusComplete, StatusAgedOut, StatusRefused, StatusContraindicated}
	all := []string{"vn_epi", "ph_epi", "ph_pps", "ru_nc", "cn_nip", "who"}
	b0, _ := parseDay("2010-01-01")
	for n := range 2000 {
		birth := b0.AddDate(0, 0, rng.IntN(16*365))
		asOf := birth.AddDate(0, 0, rng.IntN(19*365))
		var doses []Dose
		for k := range rng.IntN(25) {
			doses = append(doses, Dose{ID: int64(k + 1), Vaccine: keys[rng.IntN(len(keys))], On: day(birth.AddDate(0, 0, rng.IntN(int(asOf.Sub(birth).Hours()/24)+1)))})
		}
		schedules := []string{all[n%len(all)], all[rng.IntN(len(all))]}
		sex := []string{"female", "male", ""}[rng.IntN(3)]
		f := c.Forecast(schedules, Child{BirthDate: day(birth), Sex: sex}, doses, nil, day(asOf))
		valid := map[string]int{}
		for _, e := range f.Evaluations {
			if e.Valid {
				valid[e.Antigen]++
				if e.DoseNumber != valid[e.Antigen] {
					t.Fatalf("%v: %s dose numbered %d after %d valid", schedules, e.Antigen, e.DoseNumber, valid[e.Antigen]-1)
				}
			} else if e.Reason == "" || e.DoseNumber != 0 {
				t.Fatalf("an invalid dose %+v", e)
			}
		}
		for _, r := range f.Recommendations {
			if !slices.Contains(statuses, r.Status) {
				t.Fatalf("status %q", r.Status)
			}
			if r.DueOn != "" && (r.EarliestOn > r.DueOn || r.DueOn >= r.OverdueOn) {
				t.Fatalf("%v born %s on %s: %+v", schedules, day(birth), day(asOf), r)
			}
			if r.Status != StatusComplete && r.Status != StatusAgedOut && r.DoseNumber != valid[r.Antigen]+1 {
				t.Fatalf("%+v after %d valid doses", r, valid[r.Antigen])
			}
			if r.Status == StatusAgedOut && r.DueOn != "" {
				t.Fatalf("aged out with dates: %+v", r)
			}
		}
	}
}

// A dose counts only with a product the schedule's row counts it with (counts_with): an IPV
// dose is not given with oral polio vaccine, an infant's DTP dose not with reduced-antigen
// Td/Tdap.
func TestForecastCountsWithTheRightProduct(t *testing.T) {
	who, vn, ph, cn, ru := []string{"who"}, []string{"vn_epi"}, []string{"ph_epi"}, []string{"cn_nip"}, []string{"ru_nc"}
	ipvs := []string{"ipv", "dtap_ipv", "dtap_ipv_hib", "dtap_ipv_hib_hepb"}
	runCases(t, Default(), []fcase{
		{name: "six bOPV doses do not complete the WHO series", cite: "WHO polio position paper 2022: at least two IPV doses; bOPV has no type 2",
			schedules: who, given: []given{{"bopv", born}, {"bopv", "2025-02-26"}, {"bopv", "2025-03-26"}, {"bopv", "2025-04-23"},
				{"bopv", "2025-05-21"}, {"bopv", "2025-10-15"}}, asOf: "2025-10-16",
			evals: []wantEval{valid(4, "polio", 4), invalid(5, "polio", "wrong_vaccine"), invalid(6, "polio", "wrong_vaccine")},
			recs:  []wantRec{{antigen: "polio", dose: 5, doses: 6, due: "2025-04-23", st: "overdue", with: ipvs, without: []string{"bopv"}}}},
		{name: "IPV and bOPV the same day, IPV recorded first", cite: "WHO summary tables 2025: IPV 1 with bOPV 3 at 14 weeks",
			schedules: who, given: []given{{"bopv", born}, {"bopv", "2025-02-26"}, {"bopv", "2025-03-26"}, {"ipv", "2025-04-23"}, {"bopv", "2025-04-23"}},
			asOf:  "2025-04-24",
			evals: []wantEval{valid(5, "polio", 4), valid(4, "polio", 5)},
			recs:  []wantRec{{antigen: "polio", dose: 6, earliest: "2025-10-15", with: []string{"ipv"}, without: []string{"bopv"}}}},
		{name: "a hexavalent counts as an IPV dose", cite: "WHO polio position paper 2022: IPV-containing products",
			schedules: who, given: []given{{"bopv", born}, {"bopv", "2025-02-26"}, {"bopv", "2025-03-26"}, {"bopv", "2025-04-23"}, {"dtap_ipv_hib_hepb", "2025-04-23"}},
			asOf: "2025-04-24", evals: []wantEval{valid(5, "polio", 5)}},
		{name: "bOPV at 5 months is not the Vietnamese IPV dose", cite: "TT 10/2024/TT-BYT: IPV mũi 1 lúc 5 tháng tuổi",
			schedules: vn, given: []given{{"bopv", "2025-03-15"}, {"bopv", "2025-04-15"}, {"bopv", "2025-05-15"}, {"bopv", "2025-06-15"}}, asOf: "2025-06-16",
			evals: []wantEval{valid(3, "polio", 3), invalid(4, "polio", "wrong_vaccine")},
			recs:  []wantRec{{antigen: "polio", dose: 4, with: []string{"ipv"}, without: []string{"bopv"}}}},
		{name: "bOPV is not the Philippine IPV doses", cite: "DOH NIP: IPV 1 at 14 weeks, IPV 2 at 9 months",
			schedules: ph, given: []given{{"bopv", "2025-02-26"}, {"bopv", "2025-03-26"}, {"bopv", "2025-04-23"}, {"bopv", "2025-05-23"}, {"bopv", "2025-10-15"}}, asOf: "2025-10-16",
			evals: []wantEval{valid(3, "polio", 3), invalid(4, "polio", "wrong_vaccine"), invalid(5, "polio", "wrong_vaccine")},
			recs:  []wantRec{{antigen: "polio", dose: 4, without: []string{"bopv"}}}},
		{name: "bOPV at 2 months is not China's IPV dose", cite: "国家免疫规划（2021年版）: IPV 2、3月龄",
			schedules: cn, given: []given{{"bopv", "2025-03-15"}}, asOf: "2025-03-16",
			evals: []wantEval{invalid(1, "polio", "wrong_vaccine")},
			recs:  []wantRec{{antigen: "polio", dose: 1, without: []string{"bopv"}}}},
		{name: "bOPV at 3 months is not Russia's first (inactivated) dose", cite: "Приказ № 1122н: первая и вторая вакцинации инактивированной вакциной",
			schedules: ru, given: []given{{"bopv", "2025-04-15"}}, asOf: "2025-04-16",
			evals: []wantEval{invalid(1, "polio", "wrong_vaccine")}},
		{name: "Tdap at 5 years is not the DTP booster", cite: "WHO diphtheria 2017, pertussis 2015: reduced-antigen Tdap is not for the infant series",
			schedules: who, given: []given{{"dtwp_hepb_hib", "2025-02-26"}, {"dtwp_hepb_hib", "2025-03-26"}, {"dtwp_hepb_hib", "2025-04-23"}, {"tdap", "2030-02-01"}},
			asOf:  "2030-02-02",
			evals: []wantEval{invalid(4, "diphtheria", "wrong_vaccine"), invalid(4, "pertussis", "wrong_vaccine")},
			recs:  []wantRec{{antigen: "diphtheria", dose: 4, with: []string{"dtap"}, without: []string{"td", "tdap", "dtwp_hepb_hib"}}}},
		{name: "Td from 7 years completes the DTP series", cite: "WHO diphtheria position paper 2017: from 7 years the series is completed with Td",
			schedules: who, given: []given{{"dtwp_hepb_hib", "2025-02-26"}, {"dtwp_hepb_hib", "2025-03-26"}, {"td", "2033-02-01"}},
			asOf:  "2033-02-02",
			evals: []wantEval{valid(3, "diphtheria", 3), valid(3, "tetanus", 3)},
			recs:  []wantRec{{antigen: "diphtheria", dose: 4, with: []string{"td"}, without: []string{"dtwp", "dtap"}}, {antigen: "pertussis", st: "aged_out"}}},
	})
}

// A product is not given outside its ages (vaccines.tsv min_age, max_age): such a dose does not
// count, and the forecast names only the products of the child's age.
func TestForecastProductAges(t *testing.T) {
	who, ph := []string{"who"}, []string{"ph_pps"}
	runCases(t, Default(), []fcase{
		{name: "Td for a 2-month-old", cite: "WHO diphtheria 2017: Td not for the infant series",
			schedules: who, given: []given{{"td", "2025-03-15"}}, asOf: "2025-03-16",
			evals: []wantEval{invalid(1, "diphtheria", "product_age"), invalid(1, "tetanus", "product_age")},
			recs:  []wantRec{{antigen: "diphtheria", dose: 1, without: []string{"td", "tdap"}, with: []string{"dtwp_hepb_hib"}}}},
		{name: "yellow fever, varicella, typhoid Vi, HPV, Tdap at 2 months", cite: "prescribing information: yellow fever 9 months, varicella 12 months, Typhim Vi 2 years, HPV 9 years, Tdap 4 years",
			schedules: ph, given: []given{{"yellow_fever", "2025-03-15"}, {"varicella", "2025-03-15"}, {"typhoid_vi", "2025-03-15"}, {"hpv9", "2025-03-15"}, {"tdap", "2025-03-15"}},
			asOf: "2025-03-16",
			// Varicella and HPV are also under the schedule's age: too_early says so first (the
			// check at giving stops the product by its ages all the same).
			evals: []wantEval{invalid(1, "yellow_fever", "product_age"), invalid(2, "varicella", "too_early"), invalid(3, "typhoid", "product_age"),
				invalid(4, "hpv", "too_early"), invalid(5, "pertussis", "product_age")}},
		{name: "DTwP for a 10-year-old", cite: "WHO pertussis position paper 2015: whole-cell pertussis not from 7 years",
			schedules: who, birth: "2015-01-15", given: []given{{"dtwp", "2025-03-15"}}, asOf: "2025-03-16",
			evals: []wantEval{invalid(1, "diphtheria", "product_age"), invalid(1, "pertussis", "product_age")}},
		{name: "Rotarix after 24 weeks, RotaTeq until 32", cite: "Rotarix: completed by 24 weeks; RotaTeq: by 32 weeks",
			schedules: ph, given: []given{{"rv1", "2025-02-26"}, {"rv1", "2025-07-15"}}, asOf: "2025-07-16",
			evals: []wantEval{valid(1, "rotavirus", 1), invalid(2, "rotavirus", "product_age")},
			recs:  []wantRec{{antigen: "rotavirus", dose: 2, with: []string{"rv5"}, without: []string{"rv1"}}}},
		{name: "a 2-month-old is offered the infant products only", cite: "product ages",
			schedules: who, asOf: "2025-03-15",
			recs: []wantRec{{antigen: "diphtheria", dose: 1, with: []string{"dtwp_hepb_hib", "dtwp"}, without: []string{"td", "tdap"}}}},
	})
}

// From 7 years no whole-cell pertussis is forecast: an unvaccinated child is given three doses
// of Td (WHO diphtheria and tetanus position papers 2017).
func TestForecastSevenYearsAndOverTd(t *testing.T) {
	var cases []fcase
	for _, s := range []string{"who", "vn_epi", "ph_epi"} {
		cases = append(cases, fcase{name: s + ": unvaccinated at 8 years", cite: "WHO diphtheria 2017: Td catch-up from 7 years, 3 doses",
			schedules: []string{s}, birth: "2017-01-15", asOf: "2025-03-01",
			recs: []wantRec{
				{antigen: "diphtheria", dose: 1, doses: 3, st: "overdue", with: []string{"td"}, without: []string{"dtwp", "dtwp_hepb_hib", "dtap", "dt"}},
				{antigen: "tetanus", dose: 1, doses: 3, with: []string{"td"}, without: []string{"dtwp"}},
				{antigen: "pertussis", st: "aged_out"},
			}},
			fcase{name: s + ": the third Td dose 6 months or more after the second", cite: "WHO diphtheria 2017: Td catch-up",
				schedules: []string{s}, birth: "2017-01-15", given: []given{{"td", "2025-03-01"}, {"td", "2025-04-01"}}, asOf: "2025-04-02",
				evals: []wantEval{valid(1, "diphtheria", 1), valid(2, "diphtheria", 2), valid(2, "tetanus", 2)},
				recs:  []wantRec{{antigen: "diphtheria", dose: 3, doses: 3, with: []string{"td"}}}},
			fcase{name: s + ": wP at 7 years does not count for pertussis", cite: "WHO pertussis 2015",
				schedules: []string{s}, birth: "2017-01-15", given: []given{{"dtwp", "2025-03-01"}}, asOf: "2025-03-02",
				evals: []wantEval{invalid(1, "pertussis", "product_age")},
				recs:  []wantRec{{antigen: "pertussis", st: "aged_out"}}})
	}
	runCases(t, Default(), cases)
}

// RotaTeq (RV5) is three doses, Rotarix (RV1) two: a dose of RV5 in the series makes it three
// (WHO rotavirus position paper 2021; ACIP).
func TestForecastRotavirusSeriesByProduct(t *testing.T) {
	var cases []fcase
	for _, s := range []string{"who", "ph_pps"} {
		cases = append(cases,
			fcase{name: s + ": two doses of Rotarix complete it", cite: "Rotarix: 2 doses",
				schedules: []string{s}, given: []given{{"rv1", "2025-02-26"}, {"rv1", "2025-03-26"}}, asOf: "2025-05-01",
				recs: []wantRec{{antigen: "rotavirus", dose: 2, doses: 2, st: "complete"}}},
			fcase{name: s + ": two doses of RotaTeq need a third", cite: "RotaTeq: 3 doses",
				schedules: []string{s}, given: []given{{"rv5", "2025-02-26"}, {"rv5", "2025-03-26"}}, asOf: "2025-04-01",
				recs: []wantRec{{antigen: "rotavirus", dose: 3, doses: 3, earliest: "2025-04-23", with: []string{"rv5"}}}},
			fcase{name: s + ": RotaTeq then Rotarix: three doses", cite: "ACIP: any RV5 dose, three doses",
				schedules: []string{s}, given: []given{{"rv5", "2025-02-26"}, {"rv1", "2025-03-26"}, {"rv1", "2025-04-23"}}, asOf: "2025-05-01",
				evals: []wantEval{valid(3, "rotavirus", 3)},
				recs:  []wantRec{{antigen: "rotavirus", dose: 3, doses: 3, st: "complete"}}},
			fcase{name: s + ": a third dose after two of Rotarix is not needed", cite: "Rotarix: 2 doses",
				schedules: []string{s}, given: []given{{"rv1", "2025-02-26"}, {"rv1", "2025-03-26"}, {"rv5", "2025-04-23"}}, asOf: "2025-05-01",
				evals: []wantEval{invalid(3, "rotavirus", "not_needed")}},
		)
	}
	runCases(t, Default(), cases)
}

// Live injectable vaccines not given the same day are at least 28 days apart, else the later
// does not count (ACIP General Best Practice Guidelines; WHO).
func TestForecastLiveInjectableInterval(t *testing.T) {
	pps := []string{"ph_pps"}
	runCases(t, Default(), []fcase{
		{name: "varicella 17 days after MMR", cite: "ACIP General Best Practice: live injectable vaccines 4 weeks apart",
			schedules: pps, given: []given{{"mmr", "2026-01-15"}, {"varicella", "2026-02-01"}}, asOf: "2026-02-02",
			evals: []wantEval{valid(1, "measles", 1), invalid(2, "varicella", "live_interval")},
			recs:  []wantRec{{antigen: "varicella", dose: 1}}},
		{name: "varicella the same day as MMR", cite: "ACIP: live vaccines the same day",
			schedules: pps, given: []given{{"mmr", "2026-01-15"}, {"varicella", "2026-01-15"}}, asOf: "2026-01-16",
			evals: []wantEval{valid(2, "varicella", 1)}},
		{name: "varicella 28 days after MMR", cite: "ACIP: 28 days",
			schedules: pps, given: []given{{"mmr", "2026-01-15"}, {"varicella", "2026-02-12"}}, asOf: "2026-02-13",
			evals: []wantEval{valid(2, "varicella", 1)}},
		{name: "live JE 15 days after MMR", cite: "ACIP General Best Practice: live injectable vaccines 4 weeks apart",
			schedules: pps, given: []given{{"mmr_priorix", "2025-10-15"}, {"je_chimeric", "2025-10-30"}}, asOf: "2025-10-31",
			evals: []wantEval{invalid(2, "je", "live_interval")}},
	})
}

// The products of the next dose: those the schedule names for that dose first.
func TestForecastProductsOfTheDose(t *testing.T) {
	runCases(t, Default(), []fcase{
		{name: "Viet Nam's IPV dose names IPV first", cite: "TT 10/2024/TT-BYT: IPV mũi 1 lúc 5 tháng tuổi",
			schedules: []string{"vn_epi"}, given: []given{{"bopv", "2025-03-15"}, {"bopv", "2025-04-15"}, {"bopv", "2025-05-15"}}, asOf: "2025-05-16",
			recs: []wantRec{{antigen: "polio", dose: 4, first: "ipv"}}},
		{name: "Russia's fourth polio dose names bOPV first", cite: "Приказ № 1122н: первая ревакцинация в 18 месяцев (живой вакциной)",
			schedules: []string{"ru_nc"}, given: []given{{"ipv", "2025-04-15"}, {"ipv", "2025-06-01"}, {"bopv", "2025-07-20"}}, asOf: "2025-07-21",
			recs: []wantRec{{antigen: "polio", dose: 4, first: "bopv"}}},
		{name: "the WHO booster at 12 months names DTwP first", cite: "WHO summary tables 2025: DTP-containing booster",
			schedules: []string{"who"}, given: []given{{"dtwp_hepb_hib", "2025-02-26"}, {"dtwp_hepb_hib", "2025-03-26"}, {"dtwp_hepb_hib", "2025-04-23"}}, asOf: "2025-05-01",
			recs: []wantRec{{antigen: "diphtheria", dose: 4, first: "dtwp"}}},
	})
}

func TestForecastDeferral(t *testing.T) {
	vn := []string{"vn_epi"}
	deferred := func(antigen, from, until string) Exclusion {
		return Exclusion{Antigen: antigen, Kind: KindDeferred, From: from, Until: until}
	}
	runCases(t, Default(), []fcase{
		{name: "deferred for a fever: due from the day to come back", cite: "QĐ 1575/QĐ-BYT: tạm hoãn tiêm chủng",
			schedules: vn, asOf: "2025-03-15", excl: []Exclusion{deferred("diphtheria", "2025-03-15", "2025-03-22")},
			recs: []wantRec{{antigen: "diphtheria", dose: 1, earliest: "2025-03-22", due: "2025-03-22", st: "deferred"}, {antigen: "pertussis", st: "due", due: "2025-03-15"}}},
		{name: "a dose due months after the day to come back is upcoming, not deferred", cite: "the deferral moves only what was due by then",
			schedules: vn, asOf: "2025-03-15", excl: []Exclusion{deferred("measles", "2025-03-15", "2025-03-22")},
			recs: []wantRec{{antigen: "measles", st: "upcoming", due: "2025-10-15"}}},
		{name: "the day to come back: due", cite: "QĐ 1575/QĐ-BYT",
			schedules: vn, asOf: "2025-03-22", excl: []Exclusion{deferred("diphtheria", "2025-03-15", "2025-03-22")},
			recs: []wantRec{{antigen: "diphtheria", dose: 1, due: "2025-03-22", st: "due"}}},
		{name: "a deferral before the last dose is spent", cite: "the next dose keeps its interval from the dose given",
			schedules: vn, given: []given{{"dtwp_hepb_hib", "2025-03-25"}}, asOf: "2025-04-01",
			excl: []Exclusion{deferred("diphtheria", "2025-03-15", "2025-03-22")},
			recs: []wantRec{{antigen: "diphtheria", dose: 2, earliest: "2025-04-22", st: "upcoming"}}},
		{name: "a deferral past the last day a dose may be given: due until that day", cite: "the nurse's review: rotavirus dose 1 deferred past its age limit stays givable",
			schedules: vn, birth: "2025-01-15", asOf: "2025-04-01", excl: []Exclusion{deferred("rotavirus", "2025-04-01", "2025-06-30")},
			recs: []wantRec{{antigen: "rotavirus", st: "deferred", due: "2025-06-14", latest: "2025-06-14"}}},
		{name: "a refusal outweighs a deferral", cite: "a family's choice",
			schedules: vn, asOf: "2025-03-16", excl: []Exclusion{deferred("diphtheria", "2025-03-15", "2025-03-22"), {Antigen: "diphtheria", Kind: "refused", From: "2025-03-16"}},
			recs: []wantRec{{antigen: "diphtheria", st: "refused"}}},
	})
}
