package charting

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
	since := s.now().AddDate(0, 0, -UsesDays)
	codeUses, testUses, err := appointment.Uses(ctx, s.DB, userID, since)
	if err != nil {
		return out, err
	}
	medUses, err := prescription.Uses(ctx, s.DB, userID, since)
	if err != nil {
		return out, err
	}
	medicineUses := map[string]int{}
	for id, n := range medUses {
		medicineUses[strconv.FormatInt(id, 10)] = n
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
