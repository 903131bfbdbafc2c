package charting

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/auth"
	"emr/internal/catalogue"
	"emr/internal/prescription"
)

// Kinds of favourite: a catalogue medicine (ref: its id), a test (its code), a diagnosis
// code.
var FavouriteKinds = []string{"medicine", "test", "code"}

// UsesDays is how far back "most used" looks.
const UsesDays = 90

// maxPicks is how many favourites and most used a picker is offered of each kind.
const maxPicks = 30

// Pick is one entry a picker offers first: a favourite, or one the doctor used in the last
// 90 days, with its label in the reader's language. A medicine carries its catalogue entry
// (the prescription line fills from it).
type Pick struct {
	Ref       string              `json:"ref"`
	Label     string              `json:"label"`
	Favourite bool                `json:"favourite"`
	Uses      int                 `json:"uses"`
	Medicine  *catalogue.Medicine `json:"medicine,omitempty"`
}

// Picks are a doctor's favourites then most used, of each kind: favourites first (newest
// starred first), then by uses.
type Picks struct {
	Medicines []Pick `json:"medicines"`
	Tests     []Pick `json:"tests"`
	Codes     []Pick `json:"codes"`
}

// UsesFresh is how long a doctor's counts of the last 90 days are kept before they are read
// again: reading them is a pass over three months of the doctor's visits and prescriptions
// (bench/CHARTING-LOAD-RESULTS.md), and "most used" need not know the last few minutes. What
// the doctor stars shows at once (favourites are read on every request).
const UsesFresh = 10 * time.Minute

// uses is one doctor's counts of the last 90 days, as read at a time.
type uses struct {
	mu                      sync.Mutex
	at                      time.Time
	codes, tests, medicines map[string]int
}

// usesCache keeps each doctor's counts for UsesFresh; one reading at a time per doctor.
type usesCache struct {
	mu sync.Mutex
	by map[int64]*uses
}

// usesOf answers the doctor's counts of the last 90 days: diagnosis codes and tests from
// their visits, catalogue medicines (by id) from their prescriptions. The maps are shared:
// read them, never change them.
func (s *Store) usesOf(ctx context.Context, userID int64) (codes, tests, medicines map[string]int, err error) {
	s.uses.mu.Lock()
	if s.uses.by == nil {
		s.uses.by = map[int64]*uses{}
	}
	u := s.uses.by[userID]
	if u == nil {
		u = &uses{}
		s.uses.by[userID] = u
	}
	s.uses.mu.Unlock()
	u.mu.Lock()
	defer u.mu.Unlock()
	now := s.now()
	if !u.at.IsZero() && now.Sub(u.at) < UsesFresh {
		return u.codes, u.tests, u.medicines, nil
	}
	since := now.AddDate(0, 0, -UsesDays)
	if codes, tests, err = appointment.Uses(ctx, s.DB, userID, since); err != nil {
		return nil, nil, nil, err
	}
	byID, err := prescription.Uses(ctx, s.DB, userID, since)
	if err != nil {
		return nil, nil, nil, err
	}
	medicines = make(map[string]int, len(byID))
	for id, n := range byID {
		medicines[strconv.FormatInt(id, 10)] = n
	}
	u.at, u.codes, u.tests, u.medicines = now, codes, tests, medicines
	return codes, tests, medicines, nil
}

// Picks reads the reader's favourites and most used of the last 90 days.
func (s *Store) Picks(ctx context.Context, lang string) (Picks, error) {
	userID := auth.PrincipalFrom(ctx).UserID
	out := Picks{Medicines: []Pick{}, Tests: []Pick{}, Codes: []Pick{}}
	starred := map[string][]string{}
	rows, err := s.DB.QueryContext(ctx, `SELECT kind, ref FROM favourites WHERE user_id = $1 ORDER BY created_at DESC, ref`, userID)
	if err != nil {
		return out, fmt.Errorf("read favourites: %w", err)
	}
	for rows.Next() {
		var kind, ref string
		if err := rows.Scan(&kind, &ref); err != nil {
			rows.Close()
			return out, err
		}
		starred[kind] = append(starred[kind], ref)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return out, err
	}
	codeUses, testUses, medicineUses, err := s.usesOf(ctx, userID)
	if err != nil {
		return out, err
	}
	codes := rank(starred["code"], codeUses)
	labels, err := s.Codes.Labels(ctx, s.DB, refs(codes), lang)
	if err != nil {
		return out, err
	}
	for _, p := range codes {
		if l, ok := labels[p.Ref]; ok {
			p.Label = l
			out.Codes = append(out.Codes, p)
		}
	}
	tests, err := s.testLabels(ctx, lang)
	if err != nil {
		return out, err
	}
	for _, p := range rank(starred["test"], testUses) {
		if l, ok := tests[p.Ref]; ok {
			p.Label = l
			out.Tests = append(out.Tests, p)
		}
	}
	for _, p := range rank(starred["medicine"], medicineUses) {
		id, _ := strconv.ParseInt(p.Ref, 10, 64)
		m, err := catalogue.GetMedicine(ctx, s.DB, id)
		if errors.Is(err, apperr.ErrNotFound) || (err == nil && !m.Active) {
			continue
		}
		if err != nil {
			return out, err
		}
		m.Localise(lang)
		p.Label, p.Medicine = m.Label, &m
		out.Medicines = append(out.Medicines, p)
	}
	return out, nil
}

// rank orders favourites (as given) then the most used others, at most maxPicks.
func rank(favourites []string, uses map[string]int) []Pick {
	out := []Pick{}
	for _, ref := range favourites {
		out = append(out, Pick{Ref: ref, Favourite: true, Uses: uses[ref]})
	}
	var used []Pick
	for ref, n := range uses {
		if !slices.Contains(favourites, ref) {
			used = append(used, Pick{Ref: ref, Uses: n})
		}
	}
	slices.SortFunc(used, func(a, b Pick) int { return cmp.Or(b.Uses-a.Uses, strings.Compare(a.Ref, b.Ref)) })
	out = append(out, used...)
	if len(out) > maxPicks {
		out = out[:maxPicks]
	}
	return out
}

func refs(picks []Pick) []string {
	out := make([]string, len(picks))
	for i, p := range picks {
		out[i] = p.Ref
	}
	return out
}

// checkFavourite checks that ref names an active entry of kind.
func (s *Store) checkFavourite(ctx context.Context, kind, ref string) (string, error) {
	var ok bool
	var err error
	switch kind {
	case "medicine":
		id, perr := strconv.ParseInt(ref, 10, 64)
		if perr != nil {
			return ref, apperr.NotFound("medicine.not_found")
		}
		ok, err = catalogue.MedicineExists(ctx, s.DB, id)
	case "test":
		ok, err = catalogue.LabTestExists(ctx, s.DB, ref)
	case "code":
		ref = strings.ToUpper(ref)
		ok, err = catalogue.CodeExists(ctx, s.DB, ref)
	default:
		return ref, apperr.NotFound("charting.favourite_kind")
	}
	if err != nil {
		return ref, err
	}
	if !ok {
		return ref, apperr.NotFound("charting.favourite_unknown")
	}
	return ref, nil
}

// Star makes an entry one of the reader's favourites (starring it again changes nothing). A
// favourite is a preference of the doctor's, not part of any record: it is not audited.
func (s *Store) Star(ctx context.Context, kind, ref string) error {
	ref, err := s.checkFavourite(ctx, kind, ref)
	if err != nil {
		return err
	}
	userID := auth.PrincipalFrom(ctx).UserID
	var n int
	if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM favourites WHERE user_id = $1`, userID).Scan(&n); err != nil {
		return fmt.Errorf("count favourites: %w", err)
	}
	if n >= maxOwned {
		return apperr.Conflict("charting.too_many", maxOwned)
	}
	_, err = s.DB.ExecContext(ctx, `INSERT INTO favourites (user_id, kind, ref, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (user_id, kind, ref) DO NOTHING`, userID, kind, ref, s.now())
	if err != nil {
		return fmt.Errorf("star: %w", err)
	}
	return nil
}

// Unstar takes an entry off the reader's favourites (one that is not there changes nothing).
func (s *Store) Unstar(ctx context.Context, kind, ref string) error {
	if !slices.Contains(FavouriteKinds, kind) {
		return apperr.NotFound("charting.favourite_kind")
	}
	if kind == "code" {
		ref = strings.ToUpper(ref)
	}
	_, err := s.DB.ExecContext(ctx, `DELETE FROM favourites WHERE user_id = $1 AND kind = $2 AND ref = $3`,
		auth.PrincipalFrom(ctx).UserID, kind, ref)
	if err != nil {
		return fmt.Errorf("unstar: %w", err)
	}
	return nil
}
