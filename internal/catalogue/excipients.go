package catalogue

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
)

// Excipients and components: what a medicine or a vaccine holds besides its active
// substances that a person may be allergic to — gelatin (capsule shells, live vaccines),
// egg protein (yellow fever vaccine), yeast (hepatitis B vaccine), latex (stoppers), residual
// antibiotics (neomycin), lactose, soya and peanut oil. A recorded allergy is read for them
// by the same reading as for substances (Allergen), so that "gelatin anaphylaxis" or «яйцо»
// is recognised, and judged against a line's excipients (Judge) and a vaccine's components.

var (
	//go:embed excipients.tsv
	excipientsTSV []byte
	//go:embed medicine_excipients.tsv
	medicineExcipientsTSV []byte
)

// Excipient is an allergen that is no active substance: one row of excipients.tsv.
type Excipient struct {
	Key    string
	Names  Names
	Source string
}

// medicineExcipient is a row of medicine_excipients.tsv: the catalogue entries of a generic
// name ("*": any) and form that hold the excipients.
type medicineExcipient struct {
	generic, form string
	excipients    []string
}

var medicineExcipients []medicineExcipient

// readExcipients reads excipients.tsv into d and its names into names.
func (d *Drugs) readExcipients(names *[]lexName) error {
	recs, err := readTSV(excipientsTSV, 7)
	if err != nil {
		return err
	}
	d.excipientByKey = map[string]*Excipient{}
	for _, r := range recs {
		e := &Excipient{Key: r[0], Names: Names{EN: r[1], RU: r[2], ZH: r[3], VI: r[4]}, Source: r[6]}
		if d.excipientByKey[e.Key] != nil || d.byKey[e.Key] != nil || e.Source == "" {
			return fmt.Errorf("excipient %s twice, also a substance, or without a source", e.Key)
		}
		d.Excipients = append(d.Excipients, e)
		d.excipientByKey[e.Key] = e
		for _, n := range append([]string{r[0], r[1], r[2], r[3], r[4]}, split(r[5])...) {
			*names = append(*names, lexName{name: n, kind: mentionExcipient, keys: []string{e.Key}, inflect: true})
		}
	}
	rows, err := readTSV(medicineExcipientsTSV, 4)
	if err != nil {
		return err
	}
	medicineExcipients = medicineExcipients[:0]
	for _, r := range rows {
		m := medicineExcipient{generic: r[0], form: r[1], excipients: split(r[2])}
		for _, k := range m.excipients {
			if d.excipientByKey[k] == nil {
				return fmt.Errorf("medicine excipient %v names unknown %s", r, k)
			}
		}
		if r[3] == "" || m.form == "" {
			return fmt.Errorf("medicine excipient %v: form or source", r)
		}
		medicineExcipients = append(medicineExcipients, m)
	}
	return nil
}

// Excipient is the excipient of a key, nil when there is none.
func (d *Drugs) Excipient(key string) *Excipient { return d.excipientByKey[key] }

// ExcipientsOf are the excipients (keys) a catalogue entry is known to hold, by its generic
// name and form (medicine_excipients.tsv): a gelatin capsule shell, an oil.
func ExcipientsOf(m Medicine) []string {
	var out []string
	for _, r := range medicineExcipients {
		if (r.generic == "*" || strings.EqualFold(r.generic, strings.TrimSpace(m.GenericName))) && strings.EqualFold(r.form, strings.TrimSpace(m.Form)) {
			addOnce(&out, r.excipients...)
		}
	}
	return out
}

// WithExcipients is p holding the excipients keys too.
func (p Profile) WithExcipients(keys []string) Profile {
	if len(keys) == 0 {
		return p
	}
	p.Excipients = slices.Clone(p.Excipients)
	addOnce(&p.Excipients, keys...)
	return p
}

// Components reads a product's components as written (keys of excipients.tsv or
// substances.tsv, or their names in any language: "gelatine", «желатин») as the keys an
// allergy is judged against; a name the knowledge does not know is kept, folded.
func (d *Drugs) Components(names []string) []string {
	var out []string
	for _, n := range names {
		r := d.read(n)
		if len(r.excipients)+len(r.substances) == 0 {
			if k := strings.Join(tokens(n), " "); k != "" {
				addOnce(&out, k)
			}
			continue
		}
		addOnce(&out, r.excipients...)
		addOnce(&out, r.substances...)
	}
	return out
}

// ComponentName names a component key in lang: an excipient's or a substance's name, else
// the key.
func (d *Drugs) ComponentName(key, lang string) string {
	if e := d.excipientByKey[key]; e != nil {
		return e.Names.In(lang)
	}
	if s := d.byKey[key]; s != nil {
		return s.Names.In(lang)
	}
	return key
}
