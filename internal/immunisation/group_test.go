package immunisation

import (
	"slices"
	"strings"
	"testing"
)

// TestGroupNext: doses due on the same day that one product gives are one visit naming it;
// different days, or no product in common, stay apart; a product the clinic stocks is taken
// before one it does not.
func TestGroupNext(t *testing.T) {
	rec := func(antigen, due string, vaccines ...string) Recommendation {
		return Recommendation{Antigen: antigen, DueOn: due, Vaccines: vaccines}
	}
	type visit struct {
		due, vaccine string
		antigens     []string
	}
	for _, c := range []struct {
		name    string
		recs    []Recommendation
		stocked []string
		want    []visit
	}{
		{"same product and day: one visit", []Recommendation{
			rec("diphtheria", "2026-03-01", "dtap_ipv_hib_hepb", "dtap"), rec("tetanus", "2026-03-01", "dtap_ipv_hib_hepb", "dtap"),
			rec("pertussis", "2026-03-01", "dtap_ipv_hib_hepb", "dtap"), rec("polio", "2026-03-01", "ipv", "dtap_ipv_hib_hepb"),
			rec("hib", "2026-03-01", "hib", "dtap_ipv_hib_hepb"), rec("hepb", "2026-03-01", "hepb_paed", "dtap_ipv_hib_hepb"),
		}, nil, []visit{{"2026-03-01", "dtap_ipv_hib_hepb", []string{"diphtheria", "tetanus", "pertussis", "polio", "hib", "hepb"}}}},
		{"different days: apart", []Recommendation{
			rec("measles", "2026-09-01", "mmr"), rec("mumps", "2026-10-01", "mmr"),
		}, nil, []visit{{"2026-09-01", "mmr", []string{"measles"}}, {"2026-10-01", "mmr", []string{"mumps"}}}},
		{"no common product: apart", []Recommendation{
			rec("tb", "2026-01-01", "bcg"), rec("hepb", "2026-01-01", "hepb_paed"),
		}, nil, []visit{{"2026-01-01", "bcg", []string{"tb"}}, {"2026-01-01", "hepb_paed", []string{"hepb"}}}},
		{"the stocked product first: Viet Nam's 5-in-1 and IPV, not a 6-in-1 the clinic lacks", []Recommendation{
			rec("diphtheria", "2026-03-01", "dtap_ipv_hib_hepb", "dtwp_hepb_hib"), rec("tetanus", "2026-03-01", "dtap_ipv_hib_hepb", "dtwp_hepb_hib"),
			rec("pertussis", "2026-03-01", "dtap_ipv_hib_hepb", "dtwp_hepb_hib"), rec("hib", "2026-03-01", "dtap_ipv_hib_hepb", "dtwp_hepb_hib"),
			rec("hepb", "2026-03-01", "dtap_ipv_hib_hepb", "dtwp_hepb_hib"), rec("polio", "2026-03-01", "ipv", "dtap_ipv_hib_hepb"),
		}, []string{"dtwp_hepb_hib", "ipv"}, []visit{
			{"2026-03-01", "dtwp_hepb_hib", []string{"diphtheria", "tetanus", "pertussis", "hib", "hepb"}},
			{"2026-03-01", "ipv", []string{"polio"}},
		}},
		{"by day, soonest first; a dose with no product alone", []Recommendation{
			rec("rubella", "2026-09-01", "mmr", "mr"), rec("hpv", "2026-05-01"), rec("measles", "2026-09-01", "mmr", "mr"), rec("mumps", "2026-09-01", "mmr"),
		}, nil, []visit{{"2026-05-01", "", []string{"hpv"}}, {"2026-09-01", "mmr", []string{"rubella", "measles", "mumps"}}}},
		{"nothing", nil, nil, []visit{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := []visit{}
			for _, v := range GroupNext(c.recs, c.stocked) {
				got = append(got, visit{v.DueOn, v.Vaccine, v.Antigens()})
			}
			if !slices.EqualFunc(got, c.want, func(a, b visit) bool {
				return a.due == b.due && a.vaccine == b.vaccine && slices.Equal(a.antigens, b.antigens)
			}) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestOutsideProgramme: a dose from a later schedule is outside a national programme listed
// first, not outside WHO's recommendations listed first.
func TestOutsideProgramme(t *testing.T) {
	c := Default()
	for _, x := range []struct {
		schedules []string
		schedule  string
		want      bool
	}{
		{[]string{"vn_epi", "who"}, "who", true},
		{[]string{"vn_epi", "who"}, "vn_epi", false},
		{[]string{"ph_epi", "ph_pps"}, "ph_pps", true},
		{[]string{"who", "vn_epi"}, "vn_epi", false},
		{nil, "who", false},
	} {
		if got := c.OutsideProgramme(x.schedules, x.schedule); got != x.want {
			t.Errorf("%v %s: %v", x.schedules, x.schedule, got)
		}
	}
}

// TestDueMessageGroupsAVisit: a reminder names a combination due on one day once, with its
// antigens, and a lone dose by its antigen.
func TestDueMessageGroupsAVisit(t *testing.T) {
	doses := []dueDose{{"diphtheria", 1, "2026-03-01", "vn_epi"}, {"tetanus", 1, "2026-03-01", "vn_epi"}, {"pertussis", 1, "2026-03-01", "vn_epi"},
		{"hib", 1, "2026-03-01", "vn_epi"}, {"hepb", 2, "2026-03-01", "vn_epi"}, {"polio", 1, "2026-03-01", "vn_epi"}}
	for _, c := range []struct{ lang, combo, lone string }{
		{"en", "DTwP-HepB-Hib vaccine (pentavalent) (against Diphtheria, ", "Poliomyelitis (dose 1)"},
		{"vi", "Vắc xin 5 trong 1 DPT-VGB-Hib (phòng ", "(mũi 1)"},
	} {
		_, body := dueMessage(c.lang, true, "Clinic", "0123", "", "Mai", doses, []string{"dtwp_hepb_hib", "ipv"})
		if !strings.Contains(body, c.combo) || !strings.Contains(body, c.lone) || strings.Count(body, "(dose") > 1 {
			t.Errorf("%s: %s", c.lang, body)
		}
	}
}
