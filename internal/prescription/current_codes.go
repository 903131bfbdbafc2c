package prescription

import (
	"context"
	"time"

	"emr/internal/catalogue"
	"emr/internal/database"
)

// CurrentCode is a medicine a patient takes now with its WHO ATC codes (its entry's and its
// substances'), for a check outside prescribing: the immunisation check reads immunosuppressants
// (L01, L04) and systemic corticosteroids (H02AB) from them.
type CurrentCode struct {
	Medicine string
	ATC      []string
}

// CurrentCodes are the medicines patientID takes as of now, as CurrentMedicines counts them
// (prescribed here and still supplied, or recorded as taken and not stopped), with their codes.
func CurrentCodes(ctx context.Context, q database.Querier, patientID int64, now time.Time) ([]CurrentCode, error) {
	here, err := prescribedHere(ctx, q, patientID, now, now.Location())
	if err != nil {
		return nil, err
	}
	taken, err := recorded(ctx, q, patientID)
	if err != nil {
		return nil, err
	}
	r := &reader{ctx: ctx, q: q, drugs: catalogue.KnownDrugs, cache: map[int64]catalogue.Medicine{}}
	out := []CurrentCode{}
	for _, t := range append(here, taken...) {
		if !t.Active() {
			continue
		}
		l, err := r.line(Item{MedicineID: t.MedicineID, Medicine: t.Medicine, Route: t.Route})
		if err != nil {
			return nil, err
		}
		out = append(out, CurrentCode{Medicine: t.Medicine, ATC: l.ATC})
	}
	return out, nil
}
