package immunisation

import (
	"cmp"
	"slices"
)

// NextVisit is the next doses one product gives on one day: a combination (DTaP-IPV-HepB-Hib,
// MMR, Viet Nam's DTP-HepB-Hib) read as one visit, not one line per antigen. The card, the
// reminder and the chart's forecast (web/src/features/immunisations/group.ts, the same rule)
// list these.
type NextVisit struct {
	DueOn string
	// Vaccine is the product that gives every dose of the visit ("" when a lone dose has no
	// product the child is of an age for).
	Vaccine string
	// Doses are the antigens' recommendations, in the order given.
	Doses []Recommendation
	// OutsideProgramme: one of the doses is outside the clinic's national programme.
	OutsideProgramme bool
}

// Antigens are the keys of the visit's antigens.
func (v NextVisit) Antigens() []string {
	out := make([]string, len(v.Doses))
	for i, d := range v.Doses {
		out[i] = d.Antigen
	}
	return out
}

// GroupNext groups next doses (recommendations with a due day, in the order given) into
// visits: doses due on the same day that one product gives are one visit naming it. Within a
// day the product that gives the most of the doses left is taken first (one the clinic stocks
// before one it does not, then the one the doses list first); a dose no other dose of its day
// shares a product with is a visit of its own. Visits are by due day, then in the order of
// their first dose.
func GroupNext(recs []Recommendation, stocked []string) []NextVisit {
	byDay := map[string][]Recommendation{}
	var days []string
	for _, r := range recs {
		if _, ok := byDay[r.DueOn]; !ok {
			days = append(days, r.DueOn)
		}
		byDay[r.DueOn] = append(byDay[r.DueOn], r)
	}
	slices.SortStableFunc(days, cmp.Compare[string])
	out := []NextVisit{}
	for _, d := range days {
		left := byDay[d]
		for len(left) > 0 {
			// The products the doses left name, in the order they name them.
			var products []string
			for _, r := range left {
				for _, v := range r.Vaccines {
					if !slices.Contains(products, v) {
						products = append(products, v)
					}
				}
			}
			best, bestN, bestStocked := "", 0, false
			for _, p := range products {
				n := 0
				for _, r := range left {
					if slices.Contains(r.Vaccines, p) {
						n++
					}
				}
				s := slices.Contains(stocked, p)
				if best == "" || (s && !bestStocked) || (s == bestStocked && n > bestN) {
					best, bestN, bestStocked = p, n, s
				}
			}
			visit := NextVisit{DueOn: d, Vaccine: best}
			var rest []Recommendation
			for _, r := range left {
				if (best == "" && len(visit.Doses) == 0) || (best != "" && slices.Contains(r.Vaccines, best)) {
					visit.Doses = append(visit.Doses, r)
					visit.OutsideProgramme = visit.OutsideProgramme || r.OutsideProgramme
				} else {
					rest = append(rest, r)
				}
			}
			out = append(out, visit)
			left = rest
		}
	}
	return out
}
