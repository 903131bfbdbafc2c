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

// CardDue is a next dose as the card lists it.
type CardDue struct {
	Antigen string // named
	Dose    int
	DueOn   string
}

// Card is what the card prints of a child's record.
type Card struct {
	Doses []CardDose
	Next  []CardDue
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
	card := Card{Doses: []CardDose{}, Next: []CardDue{}}
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
	next, err := q.QueryContext(ctx, `SELECT antigen, dose_number, due_on FROM immunisation_due
		WHERE patient_id = $1 AND (latest_on = '' OR latest_on >= $2) ORDER BY due_on, antigen`, patientID, asOf)
	if err != nil {
		return Card{}, fmt.Errorf("read the next doses for the card: %w", err)
	}
	defer next.Close()
	for next.Next() {
		var d CardDue
		if err := next.Scan(&d.Antigen, &d.Dose, &d.DueOn); err != nil {
			return Card{}, err
		}
		d.Antigen = names.of(d.Antigen)
		card.Next = append(card.Next, d)
	}
	return card, next.Err()
}
