package immunisation

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"emr/internal/database"
	"emr/internal/user"
)

// The immunisation card: the paper a family keeps (internal/document's kind
// "immunisation_card", its placeholder {{patient.immunisations}}), read through CardOf — the
// document package reads immunisations through it alone.

// CardDose is a dose as the card lists it.
type CardDose struct {
	On       string // YYYY-MM-DD
	Vaccine  string // the product's name in the card's language
	Antigens string // what it protects against, named, joined by the caller's separator
	Dose     int    // the dose it counts as (0: not said)
	Lot      string
	GivenBy  string // who gave it here; empty for a dose given elsewhere
	// Elsewhere is set for a dose given elsewhere: where (the place) or "".
	Elsewhere *string
	// Source is how a dose given elsewhere is known: card, registry or parent (a parent's
	// account is said so on the paper).
	Source  string
	givenBy int64
}

// CardDue is a next visit as the card lists it: the doses due on a day that one product
// gives (GroupNext), or a lone antigen's dose.
type CardDue struct {
	Antigen string // the antigens, named, joined by the caller's separator
	Vaccine string // the product, named, when it gives several doses of the visit; "" otherwise
	Dose    int    // the dose number when every dose of the visit is the same one; 0 otherwise
	DueOn   string
	// OutsideProgramme: a service vaccine, outside the clinic's national programme.
	OutsideProgramme bool
}

// CardExclusion is a contraindication on the card: a nurse elsewhere must see it.
type CardExclusion struct {
	Antigen string // named
	Reason  string // as recorded
	From    string // YYYY-MM-DD
	Until   string // YYYY-MM-DD; empty: for good
}

// CardReaction is a reaction after immunisation on the card.
type CardReaction struct {
	Vaccine  string // the product of the dose, named
	DoseOn   string // the day of the dose
	OnsetOn  string
	Reaction string // a key of the catalogue's reactions (fever, anaphylaxis…)
	Severity string // mild, moderate, severe
	Serious  bool
	Note     string // the description recorded
}

// Card is what the card prints of a child's record.
type Card struct {
	// AsOf: the day the card was read (a next dose due before it is overdue).
	AsOf              string
	Doses             []CardDose
	Next              []CardDue
	Contraindications []CardExclusion
	Reactions         []CardReaction
}

// CardOf reads patient patientID's card in lang as of day asOf: every completed dose (given
// here or elsewhere) the forecast does not mark invalid, oldest first, and the next doses of
// the due list, soonest first.
func CardOf(ctx context.Context, q database.Querier, patientID int64, lang, asOf, sep string) (Card, error) {
	set, err := ReadDueSettings(ctx, q)
	if err != nil {
		return Card{}, err
	}
	f, _, _, err := forecastOf(ctx, q, patientID, set.Schedules, asOf)
	if err != nil {
		return Card{}, err
	}
	// A dose counts when the forecast counts it for an antigen, or has not read it at all.
	counted, invalid := map[int64]int{}, map[int64]bool{}
	for _, e := range f.Evaluations {
		if e.Valid {
			if counted[e.DoseID] == 0 {
				counted[e.DoseID] = e.DoseNumber
			}
		} else {
			invalid[e.DoseID] = true
		}
	}
	names := antigenNames(lang)
	rows, err := q.QueryContext(ctx, `SELECT i.id, i.kind, i.vaccine, i.occurred_on, i.dose_number, i.lot, i.place, i.source, i.performer, i.given_by
		FROM immunisations i
		WHERE i.patient_id = $1 AND i.status = 'completed' AND i.kind IN ('given', 'elsewhere') ORDER BY i.occurred_on, i.id`, patientID)
	if err != nil {
		return Card{}, fmt.Errorf("read the doses for the card: %w", err)
	}
	defer rows.Close()
	card := Card{AsOf: asOf, Doses: []CardDose{}, Next: []CardDue{}}
	givers := map[int64]int{} // who gave a dose here, by the dose's place on the card
	for rows.Next() {
		var id int64
		var kind, vaccine, on, lot, place, source, by string
		var dose, givenBy sql.NullInt64
		if err := rows.Scan(&id, &kind, &vaccine, &on, &dose, &lot, &place, &source, &by, &givenBy); err != nil {
			return Card{}, err
		}
		if givenBy.Valid {
			givers[givenBy.Int64] = 0
		}
		if invalid[id] && counted[id] == 0 {
			continue // given too early or too close: it does not count
		}
		d := CardDose{On: on, Vaccine: vaccine, Lot: lot, Dose: int(dose.Int64)}
		if n := counted[id]; n > 0 {
			d.Dose = n
		}
		if v, ok := Default().Vaccine(vaccine, lang); ok {
			d.Vaccine = v.Name
			var list []string
			for _, a := range v.Antigens {
				list = append(list, names.of(a))
			}
			d.Antigens = strings.Join(list, sep)
		}
		if kind == "elsewhere" {
			where := strings.TrimSpace(place)
			d.Elsewhere, d.Source = &where, source
		} else {
			d.GivenBy = by
			if givenBy.Valid {
				d.givenBy = givenBy.Int64
			}
		}
		card.Doses = append(card.Doses, d)
	}
	if err := rows.Err(); err != nil {
		return Card{}, err
	}
	rows.Close()
	if len(givers) > 0 {
		ids := make([]int64, 0, len(givers))
		for id := range givers {
			ids = append(ids, id)
		}
		who, err := user.Names(ctx, q, ids)
		if err != nil {
			return Card{}, err
		}
		for i := range card.Doses {
			if n := who[card.Doses[i].givenBy]; n != "" {
				card.Doses[i].GivenBy = n
			}
		}
	}
	if card.Contraindications, err = cardExclusions(ctx, q, patientID, names); err != nil {
		return Card{}, err
	}
	if card.Reactions, err = cardReactions(ctx, q, patientID, lang); err != nil {
		return Card{}, err
	}
	next, err := q.QueryContext(ctx, `SELECT antigen, dose_number, schedule, due_on FROM immunisation_due
		WHERE patient_id = $1 AND (latest_on = '' OR latest_on >= $2) ORDER BY due_on, antigen`, patientID, asOf)
	if err != nil {
		return Card{}, fmt.Errorf("read the next doses for the card: %w", err)
	}
	defer next.Close()
	// The due rows, with the products the forecast offers for each (what groups them).
	var due []Recommendation
	for next.Next() {
		var r Recommendation
		if err := next.Scan(&r.Antigen, &r.DoseNumber, &r.Schedule, &r.DueOn); err != nil {
			return Card{}, err
		}
		r.Vaccines = Default().ProductsFor(r.Schedule, r.Antigen)
		for _, fr := range f.Recommendations { // the forecast's: those of an age for the child
			if fr.Antigen == r.Antigen && fr.DoseNumber == r.DoseNumber && open(fr) {
				r.Vaccines = fr.Vaccines
				break
			}
		}
		r.OutsideProgramme = Default().OutsideProgramme(set.Schedules, r.Schedule)
		due = append(due, r)
	}
	if err := next.Err(); err != nil {
		return Card{}, err
	}
	stocked, err := stockedOf(ctx, q)
	if err != nil {
		return Card{}, err
	}
	for _, v := range GroupNext(due, stocked) {
		d := CardDue{DueOn: v.DueOn, OutsideProgramme: v.OutsideProgramme, Dose: v.Doses[0].DoseNumber}
		var list []string
		for _, r := range v.Doses {
			list = append(list, names.of(r.Antigen))
			if r.DoseNumber != d.Dose {
				d.Dose = 0
			}
		}
		d.Antigen = strings.Join(list, sep)
		if len(v.Doses) > 1 && v.Vaccine != "" {
			if p, ok := Default().Vaccine(v.Vaccine, lang); ok {
				d.Vaccine = p.Name
			}
		}
		card.Next = append(card.Next, d)
	}
	return card, nil
}

// stockedOf are the products the clinic stocks (its settings), which a visit's product is
// taken from first.
func stockedOf(ctx context.Context, q database.Querier) ([]string, error) {
	set, err := ReadSettings(ctx, q)
	if err != nil {
		return nil, err
	}
	return set.Stocked, nil
}

// cardExclusions are the patient's recorded contraindications (not refusals: the card is the
// family's and a refusal is theirs to say), oldest first; one whose end has passed stays, its
// end said.
func cardExclusions(ctx context.Context, q database.Querier, patientID int64, names names) ([]CardExclusion, error) {
	rows, err := q.QueryContext(ctx, `SELECT antigen, reason, occurred_on, until_on FROM immunisations
		WHERE patient_id = $1 AND status = 'completed' AND kind = 'contraindicated' ORDER BY occurred_on, id`, patientID)
	if err != nil {
		return nil, fmt.Errorf("read the contraindications for the card: %w", err)
	}
	defer rows.Close()
	out := []CardExclusion{}
	for rows.Next() {
		var e CardExclusion
		if err := rows.Scan(&e.Antigen, &e.Reason, &e.From, &e.Until); err != nil {
			return nil, err
		}
		e.Antigen = names.of(e.Antigen)
		out = append(out, e)
	}
	return out, rows.Err()
}

// cardReactions are the reactions recorded after the patient's doses (not those entered in
// error), by onset.
func cardReactions(ctx context.Context, q database.Querier, patientID int64, lang string) ([]CardReaction, error) {
	rows, err := q.QueryContext(ctx, `SELECT i.vaccine, i.occurred_on, r.onset_on, r.reaction, r.severity, r.serious, r.description
		FROM immunisation_reactions r JOIN immunisations i ON i.id = r.immunisation_id
		WHERE r.patient_id = $1 AND r.status = 'completed' ORDER BY r.onset_on, r.id`, patientID)
	if err != nil {
		return nil, fmt.Errorf("read the reactions for the card: %w", err)
	}
	defer rows.Close()
	out := []CardReaction{}
	for rows.Next() {
		var r CardReaction
		if err := rows.Scan(&r.Vaccine, &r.DoseOn, &r.OnsetOn, &r.Reaction, &r.Severity, &r.Serious, &r.Note); err != nil {
			return nil, err
		}
		if v, ok := Default().Vaccine(r.Vaccine, lang); ok {
			r.Vaccine = v.Name
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
