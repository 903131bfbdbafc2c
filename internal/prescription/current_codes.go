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
	// Until: the last day it was taken when it has been stopped or its supply has run out
	// (RecentCodes); empty while it is taken.
	Until string
}

// RecentCodes are the medicines patientID takes as of now or took from since on, with their
// codes and, for those no longer taken, the last day (the day it was stopped, or its supply's
// last day): the immunisation check waits months after an immunosuppressant is stopped before
// a live vaccine (ACIP General Best Practice Guidelines, Altered Immunocompetence).
func RecentCodes(ctx context.Context, q database.Querier, patientID int64, now, since time.Time) ([]CurrentCode, error) {
	loc := now.Location()
	here, err := prescribedSince(ctx, q, patientID, now, since, loc)
	if err != nil {
		return nil, err
	}
	taken, err := recorded(ctx, q, patientID)
	if err != nil {
		return nil, err
	}
	from := since.In(loc).Format(time.DateOnly)
	today := now.In(loc).Format(time.DateOnly)
	r := &reader{ctx: ctx, q: q, drugs: catalogue.KnownDrugs, cache: map[int64]catalogue.Medicine{}}
	out := []CurrentCode{}
	for _, t := range append(here, taken...) {
		until := ""
		switch {
		case t.InError():
			continue
		case t.StoppedOn != "":
			until = t.StoppedOn
		case t.SupplyUntil != "" && t.SupplyUntil < today:
			until = t.SupplyUntil
		}
		if until != "" && until < from {
			continue
		}
		l, err := r.line(Item{MedicineID: t.MedicineID, Medicine: t.Medicine, Route: t.Route})
		if err != nil {
			return nil, err
		}
		out = append(out, CurrentCode{Medicine: t.Medicine, ATC: l.ATC, Until: until})
	}
	return out, nil
}
