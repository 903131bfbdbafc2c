package immunisation

import (
	"slices"
	"sort"
	"time"
)

// The record's tests need vaccines before the shipped catalogue has them: a small catalogue
// of their own, read through the same seam (the vaccines interface) as the shipped one.

// UseTestCatalogue makes the record read the test catalogue until the returned func is called.
func UseTestCatalogue() func() {
	old := shipped
	shipped = newTestCatalogue(testVaccines, testAntigens)
	return func() { shipped = old }
}

var testAntigens = []Antigen{{Key: "measles", Name: "Measles"}, {Key: "mumps", Name: "Mumps"}, {Key: "rubella", Name: "Rubella"},
	{Key: "varicella", Name: "Varicella"}, {Key: "yellow_fever", Name: "Yellow fever"}, {Key: "influenza", Name: "Influenza"},
	{Key: "hepb", Name: "Hepatitis B"}, {Key: "diphtheria", Name: "Diphtheria"}, {Key: "tetanus", Name: "Tetanus"}, {Key: "pertussis", Name: "Pertussis"}}

// testVaccines: components as ACIP reads them — MMR and influenza hold no egg that matters,
// yellow fever does.
var testVaccines = []Vaccine{
	{Key: "mmr", CVX: "03", ATC: "J07BD52", Live: true, Antigens: []string{"measles", "mumps", "rubella"}, Components: []string{"gelatin", "neomycin"},
		Names: map[string]string{"en": "MMR", "ru": "Корь-краснуха-паротит"}},
	{Key: "varicella", CVX: "21", ATC: "J07BK01", Live: true, Antigens: []string{"varicella"}, Components: []string{"gelatin", "neomycin"},
		Names: map[string]string{"en": "Varicella vaccine", "ru": "Вакцина против ветряной оспы"}},
	{Key: "yf", CVX: "37", ATC: "J07BL01", Live: true, Antigens: []string{"yellow_fever"}, Components: []string{"egg", "gelatin"},
		Names: map[string]string{"en": "Yellow fever vaccine"}},
	{Key: "flu", CVX: "150", ATC: "J07BB02", Antigens: []string{"influenza"}, Names: map[string]string{"en": "Influenza vaccine"}},
	{Key: "hepb", CVX: "08", ATC: "J07BC01", Antigens: []string{"hepb"}, Components: []string{"yeast"}, Names: map[string]string{"en": "Hepatitis B vaccine"}},
	{Key: "dtp", CVX: "20", ATC: "J07AJ52", Antigens: []string{"diphtheria", "tetanus", "pertussis"}, Names: map[string]string{"en": "DTaP"}},
}

type testCatalogue struct {
	vaccines []Vaccine
	antigens []Antigen
}

// newTestCatalogue is a catalogue of the rows given, with one schedule ("who") whose every
// antigen is a dose from 42 days of age, then doses 28 days apart.
func newTestCatalogue(v []Vaccine, a []Antigen) *testCatalogue {
	return &testCatalogue{vaccines: v, antigens: a}
}

func (c *testCatalogue) Vaccine(key, lang string) (Vaccine, bool) {
	for _, v := range c.vaccines {
		if v.Key == key {
			v.Name = v.Names[lang]
			if v.Name == "" {
				v.Name = v.Names["en"]
			}
			return v, true
		}
	}
	return Vaccine{}, false
}

func (c *testCatalogue) Vaccines(lang string) []Vaccine {
	out := []Vaccine{}
	for _, v := range c.vaccines {
		v, _ = c.Vaccine(v.Key, lang)
		out = append(out, v)
	}
	return out
}

func (c *testCatalogue) Antigens(lang string) []Antigen { return slices.Clone(c.antigens) }

func (c *testCatalogue) Schedules(lang string) []Schedule {
	return []Schedule{{Key: "who", Name: "WHO", Source: "test"}, {Key: "vn_epi", Name: "Viet Nam EPI", Country: "VN", Source: "test"}}
}

func (c *testCatalogue) Forecast(schedules []string, child Child, doses []Dose, excl []Exclusion, asOf string) Forecast {
	f := Forecast{AsOf: asOf, Evaluations: []Evaluation{}, Recommendations: []Recommendation{}}
	birth, _ := time.Parse(time.DateOnly, child.BirthDate)
	sort.SliceStable(doses, func(i, j int) bool { return doses[i].On < doses[j].On })
	last := map[string]time.Time{}
	count := map[string]int{}
	for _, d := range doses {
		v, _ := c.Vaccine(d.Vaccine, "en")
		on, _ := time.Parse(time.DateOnly, d.On)
		for _, a := range v.Antigens {
			e := Evaluation{DoseID: d.ID, Antigen: a, Schedule: "who"}
			prev, had := last[a]
			switch {
			case on.Before(birth.AddDate(0, 0, 42)):
				e.Reason = "too_early"
			case had && on.Before(prev.AddDate(0, 0, 28)):
				e.Reason = "too_close"
			default:
				count[a]++
				e.Valid, e.DoseNumber = true, count[a]
				last[a] = on
			}
			f.Evaluations = append(f.Evaluations, e)
		}
	}
	for _, a := range c.antigens {
		next := birth.AddDate(0, 0, 42)
		if t, ok := last[a.Key]; ok {
			next = t.AddDate(0, 0, 28)
		}
		f.Recommendations = append(f.Recommendations, Recommendation{Antigen: a.Key, Schedule: "who", DoseNumber: count[a.Key] + 1, Doses: 3,
			EarliestOn: next.Format(time.DateOnly), DueOn: next.Format(time.DateOnly), OverdueOn: next.AddDate(0, 1, 0).Format(time.DateOnly), Status: "due",
			Vaccines: []string{}, Source: "test"})
	}
	return f
}
