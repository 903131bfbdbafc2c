package catalogue

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"emr/internal/textsearch"
)

// What the clinic's medicines are made of, and what a pharmacist knows of them: active
// ingredients (substances) with their WHO ATC codes; brand and combination names; the
// stems of international non-proprietary names; drug classes (for allergies, duplicate
// therapy and interactions); graded cross-sensitivities between classes; and drug–drug
// interactions, each with its source — every name in the four languages, so that an
// allergy or a free-text line written in any of them is recognised (docs/adr/0015, 0025).

var (
	//go:embed substances.tsv
	substancesTSV []byte
	//go:embed drug_aliases.tsv
	aliasesTSV []byte
	//go:embed drug_stems.tsv
	stemsTSV []byte
	//go:embed drug_classes.tsv
	drugClassesTSV []byte
	//go:embed drug_cross.tsv
	crossTSV []byte
	//go:embed drug_interactions.tsv
	interactionsTSV []byte
	//go:embed drug_washout.tsv
	washoutTSV []byte
)

// Names are a substance's or a class's names in the four languages.
type Names struct {
	EN string `json:"en"`
	RU string `json:"ru"`
	ZH string `json:"zh"`
	VI string `json:"vi"`
}

// In returns the name in lang, or the English one.
func (n Names) In(lang string) string {
	switch lang {
	case "ru":
		return n.RU
	case "zh":
		return n.ZH
	case "vi":
		return n.VI
	}
	return n.EN
}

// Substance is an active ingredient.
type Substance struct {
	Key   string   // the English INN, lower case: "amoxicillin"
	ATC   []string // its WHO ATC codes (aspirin has two), none if it has none of its own
	Names Names
	// Washout is how many days after the last dose it still acts and interacts (fluoxetine
	// 35, amiodarone 90: drug_washout.tsv); 0 for the many that are gone within days.
	Washout int
}

// Tier is how strongly a finding speaks: an allergy (hard), a cross-sensitivity to avoid
// unless cleared (high), or a caution shown without asking for a reason (low).
type Tier string

// The tiers, strongest first.
const (
	TierHard Tier = "hard"
	TierHigh Tier = "high"
	TierLow  Tier = "low"
)

func (t Tier) rank() int {
	switch t {
	case TierHard:
		return 3
	case TierHigh:
		return 2
	case TierLow:
		return 1
	}
	return 0
}

// Stronger reports whether t outranks u.
func (t Tier) Stronger(u Tier) bool { return t.rank() > u.rank() }

// What a class is for.
const (
	UseAllergy     = "allergy"     // named by allergies, judged by the cross-sensitivity table
	UseDuplicate   = "duplicate"   // two members on one patient are duplicate therapy
	UseBoth        = "both"        // both of the above
	UseGroup       = "group"       // a side-chain group: only the cross-sensitivity table names it
	UseVague       = "vague"       // "antibiotics", "painkillers": an allergy to clarify
	UseInteraction = "interaction" // named by interaction rules only
)

// DrugClass is a group of substances an allergy, duplicate therapy or an interaction is
// judged by.
type DrugClass struct {
	Key     string   // "penicillins"
	Use     string   // one of the Use* values
	ATC     []string // the ATC code prefixes of its members: "J01C"
	Members []string // members outside those codes (aspirin among the NSAIDs)
	// Exclude are substances (or ATC codes) under its prefixes that are not members
	// (glucosamine under M01A).
	Exclude []string
	// Named is the tier of a line in the class when an allergy names the class outright
	// ("penicillin allergy": hard; "statin allergy", usually myalgia: low).
	Named        Tier
	Names        Names
	excludeCodes []string
}

func (c *DrugClass) forAllergy() bool { return c.Use == UseAllergy || c.Use == UseBoth }

func (c *DrugClass) forDuplicates() bool { return c.Use == UseDuplicate || c.Use == UseBoth }

// Cross is a graded cross-sensitivity: an allergy to a member of From and a line in To.
type Cross struct {
	From, To string
	Tier     Tier
	// IfSevere is the tier after a severe reaction (anaphylaxis, angioedema, SJS/TEN, DRESS).
	IfSevere Tier
	// When limits the link: "named" (only when the allergy names From outright), "angioedema"
	// (only when the reaction was angioedema, or is not recorded).
	When string
	// Basis says why, for the prescriber: class, side_chain, beta_lactam, cox1, angioedema,
	// aromatic, paba, contrast, structure.
	Basis string
}

// Interaction is a drug–drug interaction rule: a line holding one of A with another
// medicine holding one of B (and, when Also is set, a third holding one of Also). Each
// entry is a substance key or a class key.
type Interaction struct {
	Key               string
	A, B, Also        []string
	Severity          string // contraindicated, major, moderate
	Effect, Action    string // keys the interface words in each language
	Mechanism, Source string
	ClinicID          int64 // set for a rule the clinic added
	// A clinic's rule names its two sides as text, read like an allergy entry.
	first, second   string
	firstA, secondA Allergen
}

// Interaction severities, strongest first.
const (
	Contraindicated = "contraindicated"
	Major           = "major"
	Moderate        = "moderate"
)

// SeverityRank orders interaction severities (0 for an unknown one).
func SeverityRank(s string) int {
	switch s {
	case Contraindicated:
		return 3
	case Major:
		return 2
	case Moderate:
		return 1
	}
	return 0
}

// InteractionEffects and InteractionActions are the words a rule may use; the interface
// says each in the four languages.
var (
	InteractionEffects = []string{"bleeding", "inr_rise", "myelotoxicity", "hyperkalaemia", "kidney_injury", "myopathy", "hypotension",
		"serotonin_syndrome", "qt_prolongation", "cns_depression", "drug_toxicity", "hypoglycaemia", "reduced_effect", "reduced_absorption",
		"av_block", "contraceptive_failure", "lactic_acidosis", "other"}
	InteractionActions = []string{"avoid", "review_need", "monitor_inr", "monitor_potassium", "monitor_kidney", "reduce_dose", "monitor_ecg",
		"monitor_glucose", "monitor_levels", "use_alternative", "separate_doses", "monitor_heart_rate", "extra_contraception", "hold_metformin"}
)

// Drugs is the knowledge of substances, names, classes, cross-sensitivities and interactions.
type Drugs struct {
	Substances   []*Substance
	Classes      []*DrugClass
	Cross        []Cross
	Interactions []Interaction
	// Aliases counts the brand and combination names known, the clinic's among them.
	Aliases int
	// Excipients are the allergens that are no active substance (excipients.tsv).
	Excipients     []*Excipient
	byKey          map[string]*Substance
	excipientByKey map[string]*Excipient
	classByKey     map[string]*DrugClass
	lex            *lexicon
	lines          *lineCache
}

// KnownDrugs is the shipped knowledge, read once.
var KnownDrugs = mustReadDrugs()

func mustReadDrugs() *Drugs {
	d, err := readDrugs()
	if err != nil {
		panic(err)
	}
	return d
}

// readTSV reads a shipped tab-separated list (a header line, then rows of columns fields;
// -1: any number) and returns its rows.
func readTSV(data []byte, columns int) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, columns
	recs, err := r.ReadAll()
	if err != nil || len(recs) < 2 {
		return nil, fmt.Errorf("read a shipped list: %v", err)
	}
	return recs[1:], nil
}

func split(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "|") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// ATCPattern is a WHO ATC code at any of its five levels: J, J01, J01C, J01CA, J01CA04.
var ATCPattern = regexp.MustCompile(`^[A-Z]([0-9]{2}([A-Z]([A-Z]([0-9]{2})?)?)?)?$`)

func readDrugs() (*Drugs, error) {
	d := &Drugs{byKey: map[string]*Substance{}, classByKey: map[string]*DrugClass{}, lines: &lineCache{}}
	var names []lexName
	recs, err := readTSV(substancesTSV, 7)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		s := &Substance{Key: r[0], ATC: split(r[1]), Names: Names{EN: r[2], RU: r[3], ZH: r[4], VI: r[5]}}
		if d.byKey[s.Key] != nil {
			return nil, fmt.Errorf("substance %s twice", s.Key)
		}
		d.Substances = append(d.Substances, s)
		d.byKey[s.Key] = s
		for _, n := range append([]string{r[0], r[2], r[3], r[4], r[5]}, split(r[6])...) {
			names = append(names, lexName{name: n, kind: mentionSubstance, keys: []string{s.Key}, inflect: true})
		}
	}
	if err := d.readExcipients(&names); err != nil {
		return nil, err
	}
	aliasRows, err := readTSV(aliasesTSV, 2)
	if err != nil {
		return nil, err
	}
	if recs, err = readTSV(drugClassesTSV, 11); err != nil {
		return nil, err
	}
	for _, r := range recs {
		c := &DrugClass{Key: r[0], Use: r[1], ATC: split(r[2]), Members: split(r[3]), Exclude: split(r[4]), Named: Tier(r[5]),
			Names: Names{EN: r[6], RU: r[7], ZH: r[8], VI: r[9]}}
		if d.classByKey[c.Key] != nil || d.byKey[c.Key] != nil {
			return nil, fmt.Errorf("class %s twice, or also a substance", c.Key)
		}
		d.Classes = append(d.Classes, c)
		d.classByKey[c.Key] = c
		kind := mentionClass
		if c.Use == UseVague {
			kind = mentionVague
		}
		if c.forAllergy() || c.Use == UseVague {
			for _, n := range split(r[10]) {
				// Class words are not inflected below seven letters: "sulfa" is no "sulfate".
				names = append(names, lexName{name: n, kind: kind, keys: []string{c.Key}, inflect: len([]rune(n)) >= 7})
			}
		}
	}
	for _, c := range d.Classes {
		for _, x := range c.Exclude {
			if ATCPattern.MatchString(x) {
				c.excludeCodes = append(c.excludeCodes, x)
			} else if s := d.byKey[x]; s != nil {
				c.excludeCodes = append(c.excludeCodes, s.ATC...)
			} else {
				return nil, fmt.Errorf("class %s excludes unknown %s", c.Key, x)
			}
		}
		for _, m := range append(slices.Clone(c.Members), c.Exclude...) {
			if d.byKey[m] == nil && !ATCPattern.MatchString(m) {
				return nil, fmt.Errorf("class %s names unknown substance %s", c.Key, m)
			}
		}
	}
	if recs, err = readTSV(crossTSV, 6); err != nil {
		return nil, err
	}
	for _, r := range recs {
		x := Cross{From: r[0], To: r[1], Tier: Tier(r[2]), IfSevere: Tier(r[3]), When: r[4], Basis: r[5]}
		if d.classByKey[x.From] == nil || d.classByKey[x.To] == nil || x.Tier.rank() == 0 || x.IfSevere.rank() == 0 ||
			!slices.Contains([]string{"", "named", "angioedema"}, x.When) {
			return nil, fmt.Errorf("cross-sensitivity %v: unknown class, tier or condition", r)
		}
		d.Cross = append(d.Cross, x)
	}
	if recs, err = readTSV(interactionsTSV, 9); err != nil {
		return nil, err
	}
	for _, r := range recs {
		in := Interaction{Key: r[0], A: split(r[1]), B: split(r[2]), Also: split(r[3]), Severity: r[4], Effect: r[5], Action: r[6], Mechanism: r[7], Source: r[8]}
		for _, k := range slices.Concat(in.A, in.B, in.Also) {
			if d.byKey[k] == nil && d.classByKey[k] == nil {
				return nil, fmt.Errorf("interaction %s names unknown %s", in.Key, k)
			}
		}
		if SeverityRank(in.Severity) == 0 || !slices.Contains(InteractionEffects, in.Effect) || !slices.Contains(InteractionActions, in.Action) || in.Source == "" {
			return nil, fmt.Errorf("interaction %s: severity, effect, action or source", in.Key)
		}
		d.Interactions = append(d.Interactions, in)
	}
	if recs, err = readTSV(washoutTSV, 3); err != nil {
		return nil, err
	}
	for _, r := range recs {
		days, err := strconv.Atoi(r[1])
		if s := d.byKey[r[0]]; s == nil || err != nil || days <= 0 || r[2] == "" {
			return nil, fmt.Errorf("washout %v: unknown substance, days or source", r)
		}
		d.byKey[r[0]].Washout = days
	}
	stems, err := readTSV(stemsTSV, 3)
	if err != nil {
		return nil, err
	}
	var stemList []stem
	for _, r := range stems {
		st := stem{text: textsearch.Fold(r[0]), at: r[1], key: r[2]}
		if d.classByKey[st.key] == nil && d.byKey[st.key] == nil {
			return nil, fmt.Errorf("stem %s means unknown %s", r[0], r[2])
		}
		stemList = append(stemList, st)
	}
	aliases, err := d.aliasNames(aliasRows)
	if err != nil {
		return nil, err
	}
	d.Aliases = len(aliasRows)
	d.lex = newLexicon(append(names, aliases...), stemList)
	return d, nil
}

// aliasNames turns alias rows (ingredients, names) into lexicon names; every ingredient
// must be a known substance.
func (d *Drugs) aliasNames(rows [][]string) ([]lexName, error) {
	var out []lexName
	for _, r := range rows {
		keys, err := d.ingredientKeys(r[0])
		if err != nil {
			return nil, err
		}
		for _, n := range split(r[1]) {
			out = append(out, lexName{name: n, kind: mentionSubstance, keys: keys, inflect: true})
		}
	}
	return out, nil
}

// ingredientKeys reads "amoxicillin + clavulanic acid" (or the names in any of the four
// languages: «амоксициллин + клавулановая кислота») as substance keys.
func (d *Drugs) ingredientKeys(s string) ([]string, error) {
	var keys []string
	for _, in := range Ingredients(s) {
		k := strings.ToLower(in)
		if d.byKey[k] == nil && d.lex != nil {
			if r := d.read(in); len(r.substances) == 1 && len(r.classes) == 0 {
				k = r.substances[0]
			}
		}
		if d.byKey[k] == nil {
			return nil, fmt.Errorf("alias ingredient %q is not a known substance", in)
		}
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("alias without ingredients")
	}
	return keys, nil
}

// Alias is a clinic's own brand or combination name and what it is made of.
type Alias struct {
	Name        string
	Ingredients string
}

// With returns the knowledge with a clinic's own aliases and interaction rules added.
func (d *Drugs) With(aliases []Alias, rules []Interaction) (*Drugs, error) {
	if len(aliases) == 0 && len(rules) == 0 {
		return d, nil
	}
	out := *d
	out.lines = &lineCache{}
	var names []lexName
	for _, a := range aliases {
		keys, err := d.ingredientKeys(a.Ingredients)
		if err != nil {
			return nil, err
		}
		names = append(names, lexName{name: a.Name, kind: mentionSubstance, keys: keys, inflect: true})
	}
	out.lex = d.lex.with(names)
	out.Aliases += len(aliases)
	out.Interactions = slices.Clone(d.Interactions)
	for _, r := range rules {
		r.firstA, r.secondA = out.Allergen(r.first), out.Allergen(r.second)
		out.Interactions = append(out.Interactions, r)
	}
	return &out, nil
}

// ClinicInteraction makes a clinic's rule between the medicines (or classes) two texts name.
func ClinicInteraction(id int64, first, second, severity, effect, action, note, source string) Interaction {
	return Interaction{Key: fmt.Sprintf("clinic-%d", id), ClinicID: id, Severity: severity, Effect: effect, Action: action,
		Mechanism: note, Source: source, first: first, second: second}
}

// Washout is how many days a medicine of profile p still acts after its last dose: the
// longest of its substances' washouts, 0 when none lingers.
func (d *Drugs) Washout(p Profile) int {
	days := 0
	for _, k := range p.Substances {
		if s := d.byKey[k]; s != nil {
			days = max(days, s.Washout)
		}
	}
	return days
}

// LongestWashout is the longest washout of any substance (amiodarone's 90 days): how far back
// a stopped medicine must be read to know whether it still acts.
func (d *Drugs) LongestWashout() int {
	days := 0
	for _, s := range d.byKey {
		days = max(days, s.Washout)
	}
	return days
}

// Substance returns the substance of key, or nil.
func (d *Drugs) Substance(key string) *Substance { return d.byKey[key] }

// Class returns the class of key, or nil.
func (d *Drugs) Class(key string) *DrugClass { return d.classByKey[key] }

// Profile is what a prescription line is made of: its substances (their keys, or for an
// ingredient the knowledge lacks, its folded name), the classes they fall in, its ATC codes
// and the words of its text (for allergens the knowledge does not know).
type Profile struct {
	Substances []string
	Classes    []string
	// ATC are the line's own code (a combination product has one of its own) and its
	// substances' codes.
	ATC   []string
	Words []string
	// Excipients are the excipients and components it holds (keys of excipients.tsv): read
	// from its text and ingredients, or known of its catalogue entry (WithExcipients).
	Excipients []string
	// sides are the interaction rules' sides it holds (set by Line).
	sides ruleSides
}

func (p *Profile) addSubstance(key string) {
	if key != "" && !slices.Contains(p.Substances, key) {
		p.Substances = append(p.Substances, key)
	}
}

func (p *Profile) addClass(key string) {
	if !slices.Contains(p.Classes, key) {
		p.Classes = append(p.Classes, key)
	}
}

// InClass reports whether the profile is in class key.
func (p Profile) InClass(key string) bool { return slices.Contains(p.Classes, key) }

// Has reports whether the profile holds substance or class key.
func (p Profile) Has(key string) bool {
	return slices.Contains(p.Substances, key) || slices.Contains(p.Classes, key)
}

func hasPrefix(codes, prefixes []string) bool {
	return slices.ContainsFunc(codes, func(code string) bool {
		return slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(code, p) })
	})
}

// classesOf are the classes substances and codes fall in.
func (d *Drugs) classesOf(substances, codes []string) []string {
	var out []string
	for _, c := range d.Classes {
		member := false
		for _, k := range substances {
			if slices.Contains(c.Exclude, k) {
				continue
			}
			var own []string
			if s := d.byKey[k]; s != nil {
				own = s.ATC
			}
			if slices.Contains(c.Members, k) || hasPrefix(own, c.ATC) && !hasPrefix(own, c.excludeCodes) {
				member = true
			}
		}
		for _, code := range codes {
			if hasPrefix([]string{code}, c.ATC) && !hasPrefix([]string{code}, c.excludeCodes) {
				member = true
			}
		}
		if member {
			out = append(out, c.Key)
		}
	}
	return out
}

// classify sets the classes of a profile's substances and codes, and gathers the codes.
func (d *Drugs) classify(p *Profile) {
	for _, k := range p.Substances {
		if s := d.byKey[k]; s != nil {
			for _, c := range s.ATC {
				if !slices.Contains(p.ATC, c) {
					p.ATC = append(p.ATC, c)
				}
			}
		}
	}
	for _, c := range d.classesOf(p.Substances, p.ATC) {
		p.addClass(c)
	}
	sort.Strings(p.Classes)
}

// profileLine profiles a prescription line: the substances its catalogue entry lists
// (ingredients, its ATC code) and every substance, brand, combination, class or INN stem its
// text names, in any of the languages.
func (d *Drugs) profileLine(text string, ingredients []string, atc string) Profile {
	var p Profile
	if atc != "" {
		p.ATC = []string{atc}
	}
	for _, in := range ingredients {
		r := d.read(in)
		if len(r.substances) == 0 && len(r.stemClasses) == 0 {
			p.addSubstance(strings.Join(tokens(in), " "))
		}
		for _, s := range r.substances {
			p.addSubstance(s)
		}
		for _, c := range r.stemClasses {
			p.addClass(c)
		}
		addOnce(&p.Excipients, r.excipients...)
	}
	r := d.read(text)
	for _, s := range r.substances {
		p.addSubstance(s)
	}
	addOnce(&p.Excipients, r.excipients...)
	for _, c := range append(slices.Clone(r.classes), r.stemClasses...) {
		if cls := d.classByKey[c]; cls != nil && cls.Use != UseVague {
			p.addClass(c)
		}
	}
	p.Words = tokens(text + " " + strings.Join(ingredients, " "))
	d.classify(&p)
	p.sides = d.sidesOf(p)
	return p
}

// lineCache keeps the profiles of lines read recently: a check reads the patient's recent
// prescriptions again each time, and their lines do not change. Profiles are never changed
// once made.
type lineCache struct {
	sync.Mutex
	m map[string]Profile
}

const lineCacheSize = 20_000

// Line profiles a prescription line (see profileLine), from the cache when it can.
func (d *Drugs) Line(text string, ingredients []string, atc string) Profile {
	key := text + "\x00" + strings.Join(ingredients, "\x01") + "\x00" + atc
	d.lines.Lock()
	p, ok := d.lines.m[key]
	d.lines.Unlock()
	if ok {
		return p
	}
	p = d.profileLine(text, ingredients, atc)
	d.lines.Lock()
	if d.lines.m == nil || len(d.lines.m) >= lineCacheSize {
		d.lines.m = map[string]Profile{}
	}
	d.lines.m[key] = p
	d.lines.Unlock()
	return p
}

// notDuplicateGroups are the ATC subgroups whose members are given together on purpose:
// antiplatelets (aspirin with clopidogrel) and inhaled β2-agonists (a reliever with a
// controller).
var notDuplicateGroups = []string{"B01AC", "R03AC"}

// atcGroups are the chemical subgroups (ATC level 4: J01CA) of a profile's codes that make
// duplicate therapy.
func atcGroups(p Profile) []string {
	var out []string
	for _, c := range p.ATC {
		if len(c) >= 5 && !slices.Contains(out, c[:5]) && !slices.Contains(notDuplicateGroups, c[:5]) {
			out = append(out, c[:5])
		}
	}
	return out
}

// Shared names what makes two medicines duplicate therapy: a substance ("substance",
// key), a duplicate-therapy class ("class", key) or an ATC subgroup ("atc", code); "" when
// nothing does.
func (d *Drugs) Shared(a, b Profile) (kind, key string) {
	// the first of each kind in sorted order, so that Shared(a, b) is Shared(b, a) and the
	// finding's key does not hang on which line came first (m8 of the pharmacist's review of
	// 2026-11-29: two two-ingredient products)
	first := func(keys []string) string {
		if len(keys) == 0 {
			return ""
		}
		return slices.Min(keys)
	}
	var shared []string
	for _, s := range a.Substances {
		if slices.Contains(b.Substances, s) {
			shared = append(shared, s)
		}
	}
	if k := first(shared); k != "" {
		return "substance", k
	}
	shared = nil
	for _, pair := range [2][2]Profile{{a, b}, {b, a}} {
		for _, c := range pair[0].Classes {
			if cls := d.classByKey[c]; cls != nil && cls.forDuplicates() && pair[1].InClass(c) {
				shared = append(shared, c)
			}
		}
	}
	if k := first(shared); k != "" {
		return "class", k
	}
	shared = nil
	for _, g := range atcGroups(a) {
		if slices.Contains(atcGroups(b), g) {
			shared = append(shared, g)
		}
	}
	if k := first(shared); k != "" {
		return "atc", k
	}
	return "", ""
}

// Ingredients splits a catalogue entry's ingredients text ("amoxicillin + clavulanic acid",
// "a; b") into its names.
func Ingredients(s string) []string {
	var out []string
	for _, p := range strings.FieldsFunc(s, func(r rune) bool { return r == '+' || r == ';' || r == ',' || r == '/' }) {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}
