package immunisation

import (
	"bufio"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// The shipped catalogue reads, and every row of it holds together: each vaccine's antigens
// exist, each schedule row's antigen and products exist, everything is named in the four
// languages and every row has a source.

func TestShippedCatalogueReads(t *testing.T) {
	c, err := load(antigensTSV, vaccinesTSV, programmesTSV, schedulesTSV, catchupTSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.antigens) < 20 || len(c.vaccines) < 40 || len(c.programmes) != 6 {
		t.Fatalf("%d antigens, %d vaccines, %d schedules", len(c.antigens), len(c.vaccines), len(c.programmes))
	}
	for _, s := range []string{"vn_epi", "ph_epi", "ph_pps", "ru_nc", "cn_nip", "who"} {
		if !c.HasSchedule(s) || len(c.rows[s]) == 0 {
			t.Errorf("schedule %s is missing or empty", s)
		}
	}
}

func TestEveryVaccineRowHoldsTogether(t *testing.T) {
	c := Default()
	cvx := regexp.MustCompile(`^\d{1,3}$`)
	countries := []string{"vn", "ph", "ru", "cn"}
	for _, v := range c.vaccines {
		if len(v.Antigens) == 0 {
			t.Errorf("%s gives no antigen", v.Key)
		}
		for _, a := range v.Antigens {
			if _, ok := c.Antigen(a, "en"); !ok {
				t.Errorf("%s: antigen %s is not in antigens.tsv", v.Key, a)
			}
		}
		if v.CVX == "" {
			if !strings.Contains(v.Source, "no CVX code") {
				t.Errorf("%s has no CVX code and its source does not say why", v.Key)
			}
		} else if !cvx.MatchString(v.CVX) {
			t.Errorf("%s: CVX %q", v.Key, v.CVX)
		}
		if !strings.HasPrefix(v.ATC, "J07") {
			t.Errorf("%s: ATC %q is no vaccine code (J07)", v.Key, v.ATC)
		}
		for _, l := range Languages {
			if strings.TrimSpace(v.Names[l]) == "" {
				t.Errorf("%s has no %s name", v.Key, l)
			}
		}
		if !strings.Contains(v.Source, "CVX") || !strings.Contains(v.Source, "ATC") {
			t.Errorf("%s: the source names neither the CVX set nor the ATC index: %q", v.Key, v.Source)
		}
		for country := range v.Brands {
			if !slices.Contains(countries, country) {
				t.Errorf("%s: brand country %q", v.Key, country)
			}
		}
	}
}

// The components a person may react to, as the check at the point of giving reads them.
// Egg: no alert for influenza or MMR (ACIP 2023–24, ACIP General Best Practice); yellow fever
// keeps it.
func TestComponentsAreTheOnesThatMatter(t *testing.T) {
	c := Default()
	has := func(key, comp string) bool {
		v, ok := c.Vaccine(key, "en")
		if !ok {
			t.Fatalf("no vaccine %s", key)
		}
		return slices.Contains(v.Components, comp)
	}
	for _, tc := range []struct {
		vaccine, component string
		want               bool
		cite               string
	}{
		{"influenza", "egg", false, "ACIP 2023–24: egg allergy needs no precaution beyond any vaccine's"},
		{"mmr", "egg", false, "ACIP General Best Practice: MMR may be given to people with egg allergy"},
		{"mmr_priorix", "egg", false, "ACIP General Best Practice"},
		{"yellow_fever", "egg", true, "YF-VAX prescribing information: grown in chicken embryos"},
		{"yellow_fever", "gelatin", true, "YF-VAX prescribing information"},
		{"mmr", "gelatin", true, "M-M-R II prescribing information"},
		{"mmr_priorix", "gelatin", false, "Priorix prescribing information: no gelatin"},
		{"varicella", "gelatin", true, "Varivax prescribing information"},
		{"mmr", "neomycin", true, "M-M-R II prescribing information"},
		{"varicella", "neomycin", true, "Varivax prescribing information"},
		{"ipv", "neomycin", true, "IPOL prescribing information"},
		{"dtap_ipv_hib_hepb", "neomycin", true, "Infanrix hexa SmPC"},
		{"hepb_paed", "yeast", true, "Engerix-B prescribing information"},
		{"hpv4", "yeast", true, "Gardasil prescribing information"},
		{"dtwp_hepb_hib", "yeast", true, "recombinant HBsAg"},
		{"rv1", "latex", true, "Rotarix prescribing information"},
	} {
		if got := has(tc.vaccine, tc.component); got != tc.want {
			t.Errorf("%s lists %s: %v, want %v (%s)", tc.vaccine, tc.component, got, tc.want, tc.cite)
		}
	}
}

// Each product's default route, as its prescribing information gives it.
func TestRoutes(t *testing.T) {
	c := Default()
	for key, want := range map[string]string{"bcg": "ID", "bopv": "PO", "rv1": "PO", "mmr": "SC", "varicella": "SC",
		"dtwp_hepb_hib": "IM", "ipv": "IM", "pcv13": "IM", "yellow_fever": "SC", "influenza": "IM"} {
		if v, _ := c.Vaccine(key, "en"); v.Route != want {
			t.Errorf("%s route %q, want %q", key, v.Route, want)
		}
	}
}

// Live vaccines are the ones the pregnancy and immunosuppression check stops.
func TestLiveVaccines(t *testing.T) {
	var live []string
	for _, v := range Default().Vaccines("en") {
		if v.Live {
			live = append(live, v.Key)
		}
	}
	want := []string{"bcg", "bopv", "rv1", "rotavin", "rv5", "measles", "measles_ru", "mr", "mmr", "mmr_priorix", "varicella", "hepa_live",
		"je_live", "je_chimeric", "yellow_fever"}
	slices.Sort(live)
	slices.Sort(want)
	if !slices.Equal(live, want) {
		t.Errorf("live vaccines %v, want %v", live, want)
	}
}

// Each component key names a substance of the medicine-safety catalogue
// (internal/catalogue/substances.tsv), so one reading serves vaccines and medicines. The keys
// that catalogue still lacks are listed here and must be added there; any other key is a typo.
func TestComponentsAreSubstances(t *testing.T) {
	f, err := os.Open("../catalogue/substances.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	substances := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, _, _ := strings.Cut(sc.Text(), "\t")
		substances[key] = true
	}
	pending := []string{"gelatin", "egg", "neomycin", "yeast", "latex", "polymyxin b", "streptomycin"}
	var missing []string
	for _, v := range Default().vaccines {
		for _, comp := range v.Components {
			switch {
			case substances[comp]:
			case slices.Contains(pending, comp):
				if !slices.Contains(missing, comp) {
					missing = append(missing, comp)
				}
			default:
				t.Errorf("%s: component %q is neither a substance nor a pending one", v.Key, comp)
			}
		}
	}
	if len(missing) > 0 {
		t.Logf("substances.tsv still lacks: %s", strings.Join(missing, ", "))
	}
}

func TestEverythingIsNamedInTheFourLanguages(t *testing.T) {
	c := Default()
	for _, a := range c.antigens {
		for _, l := range Languages {
			if strings.TrimSpace(a.names[l]) == "" {
				t.Errorf("antigen %s has no %s name", a.key, l)
			}
		}
		if a.source == "" {
			t.Errorf("antigen %s has no source", a.key)
		}
	}
	for _, p := range c.programmes {
		for _, l := range Languages {
			if strings.TrimSpace(p.names[l]) == "" {
				t.Errorf("schedule %s has no %s name", p.key, l)
			}
		}
		if p.source == "" {
			t.Errorf("schedule %s has no source", p.key)
		}
	}
	// The reader's language, English when one is missing.
	if a, _ := c.Antigen("measles", "ru"); a.Name != "Корь" {
		t.Errorf("measles in ru: %q", a.Name)
	}
	if a, _ := c.Antigen("measles", "xx"); a.Name != "Measles" {
		t.Errorf("measles in an unknown language: %q", a.Name)
	}
	if v, _ := c.Vaccine("dtap_ipv_hib", "ru"); v.Name != "Пентаксим (АаКДС-ИПВ-Hib)" {
		t.Errorf("Pentaxim in ru: %q", v.Name)
	}
}

func TestEveryScheduleRowHoldsTogether(t *testing.T) {
	c := Default()
	birth := time.Date(2024, 1, 31, 0, 0, 0, 0, time.UTC)
	for s, byAntigen := range c.rows {
		for a, rows := range byAntigen {
			if _, ok := c.Antigen(a, "en"); !ok {
				t.Errorf("%s: antigen %s is not in antigens.tsv", s, a)
			}
			for _, r := range rows {
				where := s + " " + a + " dose " + r.minAge.String()
				if strings.TrimSpace(r.source) == "" {
					t.Errorf("%s has no source", where)
				}
				if r.dueAge.after(birth).Before(r.minAge.after(birth)) {
					t.Errorf("%s: due age %s under the minimum age %s", where, r.dueAge, r.minAge)
				}
				if r.overdueAge != nil && !r.overdueAge.after(birth).After(r.dueAge.after(birth)) {
					t.Errorf("%s: overdue age %s not after the due age %s", where, r.overdueAge, r.dueAge)
				}
				if r.maxAge != nil && r.maxAge.after(birth).Before(r.minAge.after(birth)) {
					t.Errorf("%s: maximum age %s under the minimum %s", where, r.maxAge, r.minAge)
				}
				for _, v := range r.vaccines {
					vi, ok := c.vaccineBy[v]
					if !ok || !slices.Contains(c.vaccines[vi].Antigens, a) {
						t.Errorf("%s names %s, which gives no %s", where, v, a)
					}
				}
			}
		}
		for a, crs := range c.catchup[s] {
			for _, cr := range crs {
				if strings.TrimSpace(cr.source) == "" {
					t.Errorf("catch-up %s %s has no source", s, a)
				}
			}
		}
	}
}

func TestAges(t *testing.T) {
	for _, tc := range []struct{ birth, age, want string }{
		{"2025-01-15", "6w", "2025-02-26"},
		{"2025-01-15", "2m", "2025-03-15"},
		{"2025-01-31", "1m", "2025-02-28"}, // clamped to the month's last day
		{"2024-01-31", "1m", "2024-02-29"}, // a leap year
		{"2024-02-29", "1y", "2025-02-28"},
		{"2025-01-15", "4m15d", "2025-05-30"},
		{"2025-01-15", "14w6d", "2025-04-29"},
		{"2021-01-15", "4y-1d", "2025-01-14"},
		{"2025-01-15", "0d", "2025-01-15"},
	} {
		a, err := parseAge(tc.age)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := parseDay(tc.birth)
		if got := day(a.after(b)); got != tc.want {
			t.Errorf("%s + %s = %s, want %s", tc.birth, tc.age, got, tc.want)
		}
	}
	for _, bad := range []string{"", "2 months", "6", "m", "1.5m"} {
		if _, err := parseAge(bad); err == nil {
			t.Errorf("%q read as an age", bad)
		}
	}
}

// A broken table is refused with the row that breaks it.
func TestLoadRefusesBrokenRows(t *testing.T) {
	header := "schedule\tantigen\tdose\tmin_age\tdue_age\toverdue_age\tmax_age\ton_max\tmin_interval\trepeat\trepeat_min\tsex\tvaccines\tcounts_with\tif_given\tsource\n"
	for _, tc := range []struct{ row, want string }{
		{"who\tnoantigen\t1\t0d\t0d\t\t\t\t\t\t\t\t\t\t\tx\n", "no antigen"},
		{"who\tmeasles\t1\t9 months\t9m\t\t\t\t\t\t\t\t\t\t\tx\n", "min_age"},
		{"who\tmeasles\t1\t9m\t9m\t\t5y\t\t\t\t\t\t\t\t\tx\n", "on_max"},
		{"who\tmeasles\t1\t9m\t9m\t\t\t\t\t\t\t\tbcg\t\t\tx\n", "gives no measles"},
		{"nowhere\tmeasles\t1\t9m\t9m\t\t\t\t\t\t\t\t\t\t\tx\n", "no schedule"},
		{"who\tmeasles\t1\t9m\t9m\t\t\t\t\t\t4w\t\t\t\t\tx\n", "repeat_min without repeat"},
		{"who\tmeasles\t1\t9m\t9m\t\t\t\t\t\t\tboys\t\t\t\tx\n", "sex"},
		{"who\tmeasles\t1\t9m\t9m\t\t\t\t\n", "fields"},
		{"who\tpolio\t1\t6w\t6w\t\t\t\t\t\t\t\t\tnovaccine\t\tx\n", "counts_with: no vaccine"},
		{"who\tpolio\t1\t6w\t6w\t\t\t\t\t\t\t\t\ttd\t\tx\n", "counts_with: vaccine td gives no polio"},
		{"who\tpolio\t1\t6w\t6w\t\t\t\t\t\t\t\t\tipv@7 years\t\tx\n", "counts_with"},
		{"who\trotavirus\t1\t6w\t6w\t\t\t\t\t\t\t\t\t\tipv\tx\n", "if_given"},
	} {
		_, err := load(antigensTSV, vaccinesTSV, programmesTSV, []byte(header+tc.row), []byte("schedule\tantigen\tfirst_from\tdoses\tinterval\tsource\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.row, err, tc.want)
		}
	}
	// A table without a column the reader needs is refused, not read half.
	_, err := load(antigensTSV, vaccinesTSV, programmesTSV, []byte("schedule\tantigen\n"), catchupTSV)
	if err == nil || !strings.Contains(err.Error(), "no column") {
		t.Errorf("a table short of columns: %v", err)
	}
}

// docs/knowledge.md indexes this package's tables.
func TestKnowledgeIndexNamesTheImmunisationTables(t *testing.T) {
	doc, err := os.ReadFile("../../docs/knowledge.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "## Immunisations")
	if !ok {
		t.Fatal("docs/knowledge.md has no Immunisations section")
	}
	for _, f := range []string{"antigens.tsv", "vaccines.tsv", "programmes.tsv", "schedules.tsv", "catchup.tsv"} {
		if !strings.Contains(section, "internal/immunisation/"+f) {
			t.Errorf("the Immunisations section does not name %s", f)
		}
	}
}

func TestScheduleDoses(t *testing.T) {
	c := Default()
	doses := c.ScheduleDoses("ru_nc", "ru")
	var pcv []ScheduleDose
	for _, d := range doses {
		if d.Antigen == "pneumococcal" {
			pcv = append(pcv, d)
		}
	}
	if len(pcv) != 3 || pcv[1].DueAge != "4m15d" || pcv[1].MinInterval != "8w" || pcv[0].AntigenName != "Пневмококковая инфекция" {
		t.Errorf("Russia's pneumococcal doses: %+v", pcv)
	}
	for _, d := range c.ScheduleDoses("ph_pps", "en") {
		if d.Antigen == "rotavirus" && d.Dose == 1 && (d.MaxAge != "14w6d" || d.OnMax != "end") {
			t.Errorf("PPS rotavirus 1: %+v", d)
		}
	}
	if c.ScheduleDoses("nowhere", "en") != nil {
		t.Error("an unknown schedule has doses")
	}
	// The notation reads back to itself.
	for _, s := range c.programmes {
		for _, d := range c.ScheduleDoses(s.key, "en") {
			for _, a := range []string{d.MinAge, d.DueAge, d.OverdueAge, d.MaxAge, d.MinInterval} {
				if a == "" {
					continue
				}
				if p, err := parseAge(a); err != nil || p.String() != a {
					t.Errorf("%s %s %d: age %q reads back as %q (%v)", s.key, d.Antigen, d.Dose, a, p.String(), err)
				}
			}
		}
	}
}
