package catalogue

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What the clinic's medicines are made of: active ingredients (substances) with their WHO
// ATC codes, and the drug classes that allergies and duplicate therapy are judged by
// (penicillins, cephalosporins, NSAIDs, …), each named in the four languages so that an
// allergy or a free-text line written in any of them is recognised (docs/adr/0015).

//go:embed substances.tsv
var substancesTSV []byte

//go:embed drug_classes.tsv
var drugClassesTSV []byte

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
	Key   string // the English INN, lower case: "amoxicillin"
	ATC   string // its WHO ATC code, "" if it has none of its own
	Names Names
	terms [][]string // every name and synonym, folded into words
}

// DrugClass is a group of substances an allergy or duplicate therapy is judged by.
type DrugClass struct {
	Key   string   // "penicillins"
	ATC   []string // the ATC code prefixes of its members: "J01C"
	Extra []string // members outside those codes (aspirin among the NSAIDs)
	// Cross are the classes with a known cross-sensitivity (penicillins: cephalosporins).
	Cross []string
	Names Names
	terms [][]string
}

// Drugs is the built-in knowledge of substances and classes.
type Drugs struct {
	Substances []*Substance
	Classes    []*DrugClass
	byKey      map[string]*Substance
	classByKey map[string]*DrugClass
}

// KnownDrugs is the shipped knowledge, read once.
var KnownDrugs = mustReadDrugs()

func mustReadDrugs() *Drugs {
	d, err := readDrugs(substancesTSV, drugClassesTSV)
	if err != nil {
		panic(err)
	}
	return d
}

func readTSV(data []byte) ([][]string, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma, r.LazyQuotes = '\t', true
	recs, err := r.ReadAll()
	if err != nil || len(recs) < 2 {
		return nil, fmt.Errorf("read drug list: %v", err)
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

// nameTerms folds every name into its words.
func nameTerms(names ...string) [][]string {
	var out [][]string
	for _, n := range names {
		if w := words(n); len(w) > 0 && !slices.ContainsFunc(out, func(o []string) bool { return slices.Equal(o, w) }) {
			out = append(out, w)
		}
	}
	return out
}

func readDrugs(substances, classes []byte) (*Drugs, error) {
	d := &Drugs{byKey: map[string]*Substance{}, classByKey: map[string]*DrugClass{}}
	recs, err := readTSV(substances)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		s := &Substance{Key: r[0], ATC: r[1], Names: Names{EN: r[2], RU: r[3], ZH: r[4], VI: r[5]}}
		s.terms = nameTerms(append([]string{r[0], r[2], r[3], r[4], r[5]}, split(r[6])...)...)
		d.Substances = append(d.Substances, s)
		d.byKey[s.Key] = s
	}
	if recs, err = readTSV(classes); err != nil {
		return nil, err
	}
	for _, r := range recs {
		c := &DrugClass{Key: r[0], ATC: split(r[1]), Extra: split(r[2]), Cross: split(r[3]), Names: Names{EN: r[4], RU: r[5], ZH: r[6], VI: r[7]}}
		c.terms = nameTerms(append([]string{r[4], r[5], r[6], r[7]}, split(r[8])...)...)
		d.Classes = append(d.Classes, c)
		d.classByKey[c.Key] = c
	}
	return d, nil
}

// Substance returns the substance of key, or nil.
func (d *Drugs) Substance(key string) *Substance { return d.byKey[key] }

// Class returns the class of key, or nil.
func (d *Drugs) Class(key string) *DrugClass { return d.classByKey[key] }

// hasHan reports whether s holds Chinese characters (written without spaces).
func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// contains reports whether the words of a text hold a name's words in a row. Chinese
// names match anywhere in a word; others match whole words, or (for names of five or
// more letters, with inflect) words that add at most three letters to them — a plural or
// a case ending: "penicillins", «пенициллину», «амоксициллина».
func contains(text, name []string, inflect bool) bool {
	if len(name) == 0 {
		return false
	}
	wordMatch := func(w, n string) bool {
		if w == n {
			return true
		}
		if hasHan(n) {
			return strings.Contains(w, n)
		}
		if !inflect || utf8.RuneCountInString(n) < 5 || !strings.HasPrefix(w, n) {
			return false
		}
		return utf8.RuneCountInString(w)-utf8.RuneCountInString(n) <= 3
	}
	for i := 0; i+len(name) <= len(text); i++ {
		ok := true
		for j, n := range name {
			if !wordMatch(text[i+j], n) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func matchesAny(text []string, terms [][]string, inflect bool) bool {
	return slices.ContainsFunc(terms, func(t []string) bool { return contains(text, t, inflect) })
}

// Profile is what a prescription line or an allergy is made of: its substances (their
// keys, or for a substance the knowledge lacks, its folded name) and the classes they fall in.
type Profile struct {
	Substances []string
	Classes    []string
	// ATC is the line's own code (a combination product has one of its own).
	ATC []string
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

// ATCPattern is a WHO ATC code at any of its five levels: J, J01, J01C, J01CA, J01CA04.
var ATCPattern = regexp.MustCompile(`^[A-Z]([0-9]{2}([A-Z]([A-Z]([0-9]{2})?)?)?)?$`)

// classify adds the classes that the profile's substances and codes fall in.
func (d *Drugs) classify(p *Profile) {
	codes := slices.Clone(p.ATC)
	for _, k := range p.Substances {
		if s := d.byKey[k]; s != nil && s.ATC != "" {
			codes = append(codes, s.ATC)
		}
	}
	for _, c := range d.Classes {
		member := slices.ContainsFunc(p.Substances, func(s string) bool { return slices.Contains(c.Extra, s) })
		for _, code := range codes {
			member = member || slices.ContainsFunc(c.ATC, func(prefix string) bool { return strings.HasPrefix(code, prefix) })
		}
		if member {
			p.addClass(c.Key)
		}
	}
	sort.Strings(p.Classes)
}

// Line profiles a prescription line: the substances its catalogue entry lists (ingredients,
// its ATC code) and any substance or class the line's text names, in any of the languages.
func (d *Drugs) Line(text string, ingredients []string, atc string) Profile {
	var p Profile
	if atc != "" {
		p.ATC = []string{atc}
	}
	for _, in := range ingredients {
		p.addSubstance(d.resolveSubstance(in))
	}
	w := words(text)
	for _, s := range d.Substances {
		if matchesAny(w, s.terms, true) {
			p.addSubstance(s.Key)
		}
	}
	for _, c := range d.Classes {
		if matchesAny(w, c.terms, false) {
			p.addClass(c.Key)
		}
	}
	d.classify(&p)
	return p
}

// resolveSubstance names an ingredient by the knowledge's key when it knows it, else by its
// folded words.
func (d *Drugs) resolveSubstance(name string) string {
	w := words(name)
	for _, s := range d.Substances {
		if slices.ContainsFunc(s.terms, func(t []string) bool { return slices.Equal(t, w) }) {
			return s.Key
		}
	}
	return strings.Join(w, " ")
}

// Allergen is what a recorded allergy names: classes, or a substance (with the classes it
// falls in, for the same-class and cross-sensitivity cautions).
type Allergen struct {
	// Classes the allergy names outright ("penicillin allergy").
	Classes []string
	// Substance is the one substance the allergy names ("amoxicillin"), if any: a key, or
	// the folded text of a substance the knowledge lacks.
	Substance string
	// SubstanceClasses are the classes that substance falls in.
	SubstanceClasses []string
}

// Allergen reads a recorded allergy's substance text: a class named in any language wins,
// then a known substance, else the text itself stands for a substance.
func (d *Drugs) Allergen(text string) Allergen {
	var a Allergen
	w := words(text)
	if len(w) == 0 {
		return a
	}
	for _, c := range d.Classes {
		if matchesAny(w, c.terms, true) {
			a.Classes = append(a.Classes, c.Key)
		}
	}
	if len(a.Classes) > 0 {
		return a
	}
	for _, s := range d.Substances {
		if matchesAny(w, s.terms, true) {
			a.Substance = s.Key
			p := Profile{Substances: []string{s.Key}}
			d.classify(&p)
			a.SubstanceClasses = p.Classes
			return a
		}
	}
	a.Substance = strings.Join(w, " ")
	return a
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
