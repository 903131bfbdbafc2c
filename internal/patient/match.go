package patient

import (
	"context"
	"fmt"
	"strings"

	"emr/internal/database"
	"emr/internal/textsearch"
)

// Match is a registered patient an online booking's details may belong to (ADR 43).
type Match struct {
	Summary
	// Sure: the same whole name and birth date and the same phone or e-mail, on a record
	// still on the register; anything less is only a candidate for the desk to weigh.
	Sure bool `json:"sure"`
}

// Matches lists up to 10 patients who may be the person who gave these details: the same
// whole name with the same birth date (any sex: the booking page asks none), or the same
// phone number; the sure ones first. Two bounded index look-ups, as the duplicate check.
// A sure match's phone is the same line (textsearch.PhoneIdentity, home the clinic's calling
// code), not only the same national digits.
func Matches(ctx context.Context, q database.Querier, first, last, birthDate, phone, email, home string) ([]Match, error) {
	nameKey, phoneKey := NameKey(first, "", last), textsearch.PhoneKey(phone)
	email = strings.ToLower(strings.TrimSpace(email))
	rows, err := q.QueryContext(ctx, `SELECT p.id, p.name_key, p.birth_date, p.phone, p.email FROM patients p WHERE p.id IN (
		SELECT id FROM (SELECT d.id FROM patients d WHERE d.name_key = $1 AND d.birth_date = $2 LIMIT 20) by_name
		UNION
		SELECT id FROM (SELECT f.id FROM patients f WHERE f.phone_key = $3 AND $3 <> '' LIMIT 20) by_phone)
		ORDER BY p.id LIMIT 40`, nameKey, strings.TrimSpace(birthDate), phoneKey)
	if err != nil {
		return nil, fmt.Errorf("match a booking's patient: %w", err)
	}
	type found struct {
		id   int64
		sure bool
	}
	var list []found
	for rows.Next() {
		var f found
		var nk, bd, ph, em string
		if err := rows.Scan(&f.id, &nk, &bd, &ph, &em); err != nil {
			rows.Close()
			return nil, err
		}
		samePhone := phoneKey != "" && textsearch.PhoneIdentity(ph, home) == textsearch.PhoneIdentity(phone, home)
		sameContact := samePhone || (email != "" && strings.ToLower(em) == email)
		f.sure = nk == nameKey && bd == strings.TrimSpace(birthDate) && sameContact
		list = append(list, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ids := make([]int64, len(list))
	for i, f := range list {
		ids[i] = f.id
	}
	refs, err := Summaries(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	out := []Match{}
	for _, sure := range []bool{true, false} {
		for _, f := range list {
			s, ok := refs[f.id]
			if !ok || (f.sure && !s.Archived) != sure {
				continue
			}
			out = append(out, Match{Summary: s, Sure: sure})
		}
	}
	if len(out) > 10 {
		out = out[:10]
	}
	return out, nil
}
