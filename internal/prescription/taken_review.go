package prescription

import (
	"context"
	"strconv"
	"strings"
	"time"

	"emr/internal/catalogue"
	"emr/internal/patient"
)

// The list's own review (issue 55, C1; ADR 25): a medicine recorded, corrected or confirmed
// is checked against everything else the patient takes, and the whole list against itself,
// as NPSG.03.06.01 EP3 and the WHO High 5s reconciliation ask: the prescriber comparing the
// lists, not only whoever prescribes next.

// takenCheck is what the safety check says of a recorded medicine beside everything else
// the patient takes (issue 55, C1): the allergies it meets, and its duplicates of and
// interactions with the other recorded medicines and the prescriptions here still supplied —
// what it would say were it prescribed now. Recording is allowed whatever it says (the
// patient takes it already); the findings are for whoever records it to see and act on.
// It also says what the check read the entry as (M1).
func (s *Store) takenCheck(ctx context.Context, t *Taken, lang string) error {
	// An allergy status never asked says nothing of this medicine: only the list is read.
	list, _, err := patient.Allergies(ctx, s.DB, t.PatientID)
	if err != nil {
		return err
	}
	drugs, err := catalogue.DrugsFor(ctx, s.DB, s.DB)
	if err != nil {
		return err
	}
	r := &reader{ctx: ctx, q: s.DB, drugs: drugs, cache: map[int64]catalogue.Medicine{}}
	line, err := r.line(Item{MedicineID: t.MedicineID, Medicine: t.Medicine, Route: t.Route})
	if err != nil {
		return err
	}
	d := describer{drugs: drugs, lang: lang}
	t.ReadAs = d.readAs(line.Profile)
	in := safetyInput{allergies: list, lines: []lineDrugs{line}, recording: true, now: s.now(), loc: s.Loc}
	if in.recent, err = r.recent(t.PatientID, 0, in.now, s.Loc); err != nil {
		return err
	}
	taken, err := r.takenNow(t.PatientID, in.now, s.Loc)
	if err != nil {
		return err
	}
	for _, o := range taken {
		if o.id != t.ID { // not beside itself
			in.taken = append(in.taken, o)
		}
	}
	t.Findings = check(in, d)
	return nil
}

// ReadName is a substance (or, when no substance was read, a class) the safety check read a
// medicine as, with its ATC code when it has one: "Warfarin B01AA03".
type ReadName struct {
	Name string `json:"name"`
	ATC  string `json:"atc,omitempty"`
}

// readAs names what the check read a line as; empty when it read nothing, so that the user
// knows the check cannot see the medicine (M1).
func (d describer) readAs(p catalogue.Profile) []ReadName {
	out := []ReadName{}
	for _, key := range p.Substances {
		n := ReadName{Name: d.substance(key)}
		if s := d.drugs.Substance(key); s != nil && len(s.ATC) > 0 {
			n.ATC = s.ATC[0]
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		for _, key := range p.Classes {
			out = append(out, ReadName{Name: d.class(key)})
		}
	}
	return out
}

// reviewList marks, on each medicine of a patient's current list, what it shares with or how
// it interacts with a medicine above it: the list reviewed against itself, for a doctor to
// resolve. Two lines prescribed here were checked when written (with their renewals) and are
// not said again; the same product recorded and prescribed here is said as a caution, for
// the recorded entry to be stopped once the prescription here replaces it (m1).
//
// Each finding names its pair (Pair), and says when it is kept knowingly (Kept): by a
// prescriber's keep of this very pair, or by the reason a line here was prescribed with
// over the same finding.
func (s *Store) reviewList(ctx context.Context, patientID int64, list []Taken, lang string) error {
	drugs, err := catalogue.DrugsFor(ctx, s.DB, s.DB)
	if err != nil {
		return err
	}
	kept, err := keptPairs(ctx, s.DB, patientID)
	if err != nil {
		return err
	}
	r := &reader{ctx: ctx, q: s.DB, drugs: drugs, cache: map[int64]catalogue.Medicine{}}
	var at []int // the index in list of each line checked
	in := safetyInput{now: s.now(), loc: s.Loc}
	for i, t := range list {
		if !t.Active() {
			continue
		}
		l, err := r.line(Item{MedicineID: t.MedicineID, Medicine: t.Medicine, Route: t.Route})
		if err != nil {
			return err
		}
		in.lines, at = append(in.lines, l), append(at, i)
		list[i].ReadAs = describer{drugs: drugs, lang: lang}.readAs(l.Profile)
	}
	for _, f := range check(in, describer{drugs: drugs, lang: lang}) {
		if f.OtherLine == nil || (f.Kind != FindDuplicate && f.Kind != FindInteraction) {
			continue
		}
		this, other := &list[at[f.Line]], list[at[*f.OtherLine]]
		if this.Source == SourceHere && other.Source == SourceHere {
			continue
		}
		finding := f.Key // the finding by its kind and what makes it, not the lines' places
		if f.Kind == FindInteraction {
			finding = strings.TrimSuffix(f.Key, ":line:"+strconv.Itoa(*f.OtherLine))
		}
		f.Pair = &PairRef{This: entryKey(*this), Other: entryKey(other), Finding: finding}
		a, b := pairSide{f.Pair.This, entryWhat(*this)}, pairSide{f.Pair.Other, entryWhat(other)}
		if k, ok := kept[pairID(a, b, finding)]; ok {
			f.Kept = k // nil: reopened, to be reviewed again
		} else if this.Source == SourceHere {
			f.Kept = prescribedKeep(*this, other.ID, finding)
		} else if other.Source == SourceHere {
			f.Kept = prescribedKeep(other, this.ID, finding)
		}
		// kept on the line this one renews, at the same dose, frequency and route (M9); a
		// course extended (an antimicrobial, a corticosteroid, an NSAID) is a new decision
		if k, ok := kept[renewalID(a, b, finding)]; f.Kept == nil && ok && k != nil &&
			!hasATC(in.lines[f.Line].Profile, courseATC) && !hasATC(in.lines[*f.OtherLine].Profile, courseATC) {
			f.Kept = k
		}
		if f.Kind == FindDuplicate && sameProduct(in.lines[f.Line], in.lines[*f.OtherLine]) {
			f.Tier, f.RequiresReason = catalogue.TierLow, false
		}
		// worded as the check words them: a recorded medicine by its source and the day it was
		// recorded, a prescription here by its number and the day it was issued
		f.Line, f.OtherLine, f.OtherDate = 0, nil, other.RecordedAt.In(s.Loc).Format(time.DateOnly)
		if other.ID != 0 {
			id := other.ID
			f.OtherTaken, f.OtherSource = &id, other.Source
		} else {
			f.OtherPrescription = other.PrescriptionID
		}
		if f.Kind == FindDuplicate { // named by the other medicine, not a line of a prescription
			f.Kind = FindTaken
			if other.ID == 0 {
				f.Kind = FindRecent
			}
		}
		this.Findings = append(this.Findings, f)
	}
	return nil
}
