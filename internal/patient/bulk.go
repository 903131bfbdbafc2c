package patient

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"emr/internal/database"
)

// bulkRows is how many patients one INSERT statement carries (26 parameters each stays
// well under both engines' parameter limits).
const bulkRows = 500

// BulkInsert registers many already-valid patients quickly, in one transaction: patient
// numbers are taken from the year's counter in one step. It is for seeding; it writes no
// audit events (the seed command is not a person acting on a record).
func (s *Store) BulkInsert(ctx context.Context, in []Input) error {
	now := s.now()
	year := s.today().Year()
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		last, err := bump(ctx, tx, fmt.Sprintf("mrn:%d", year), int64(len(in)))
		if err != nil {
			return err
		}
		first := last - int64(len(in)) + 1
		for start := 0; start < len(in); start += bulkRows {
			chunk := in[start:min(start+bulkRows, len(in))]
			if err := insertChunk(ctx, tx, s.DB, now, year, first+int64(start), chunk); err != nil {
				return err
			}
		}
		_, err = bump(ctx, tx, "patients:active", int64(len(in)))
		return err
	})
}

func insertChunk(ctx context.Context, tx database.Querier, db *database.DB, now time.Time, year int, seq int64, chunk []Input) error {
	ph := db.Placeholder
	var q strings.Builder
	q.WriteString(`INSERT INTO patients (mrn, mrn_digits, first_name, middle_name, last_name, sex, birth_date, birth_date_estimated,
		civil_status, phone, phone_digits, email, address, occupation, referred_by, blood_type, remarks, history, emergency_contact,
		name_key, sort_name, created_at, updated_at, version) VALUES `)
	args := make([]any, 0, len(chunk)*23)
	byMRN := make(map[string]Input, len(chunk))
	for i, in := range chunk {
		if i > 0 {
			q.WriteString(", ")
		}
		n := len(args)
		q.WriteString("(")
		for j := 1; j <= 23; j++ {
			if j > 1 {
				q.WriteString(", ")
			}
			q.WriteString(ph(n + j))
		}
		q.WriteString(", 1)")
		mrn := fmt.Sprintf("%d-%06d", year, seq+int64(i))
		byMRN[mrn] = in
		history, contact := encode(in)
		args = append(args, mrn, Digits(mrn), in.FirstName, in.MiddleName, in.LastName, in.Sex, in.BirthDate, in.BirthDateEstimated,
			in.CivilStatus, in.Phone, Digits(in.Phone), in.Email, in.Address, in.Occupation, in.ReferredBy, in.BloodType, in.Remarks,
			history, contact, NameKey(in.FirstName, in.MiddleName, in.LastName), SortName(in.FirstName, in.MiddleName, in.LastName), now, now)
	}
	q.WriteString(" RETURNING id, mrn")
	rows, err := tx.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return fmt.Errorf("bulk insert patients: %w", err)
	}
	type token struct {
		t  string
		id int64
	}
	var tokens []token
	var ids []any
	for rows.Next() {
		var id int64
		var mrn string
		if err := rows.Scan(&id, &mrn); err != nil {
			rows.Close()
			return err
		}
		in := byMRN[mrn]
		ids = append(ids, id)
		for _, t := range Tokens(in.FirstName, in.MiddleName, in.LastName) {
			tokens = append(tokens, token{t, id})
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for start := 0; start < len(tokens); start += 2000 {
		part := tokens[start:min(start+2000, len(tokens))]
		var tq strings.Builder
		tq.WriteString(`INSERT INTO patient_name_tokens (token, patient_id) VALUES `)
		targs := make([]any, 0, len(part)*2)
		for i, t := range part {
			if i > 0 {
				tq.WriteString(", ")
			}
			fmt.Fprintf(&tq, "(%s, %s)", ph(2*i+1), ph(2*i+2))
			targs = append(targs, t.t, t.id)
		}
		if _, err := tx.ExecContext(ctx, tq.String(), targs...); err != nil {
			return fmt.Errorf("bulk insert name tokens: %w", err)
		}
	}
	// The full-text index, built from the tokens just written.
	in := make([]string, len(ids))
	for i := range ids {
		in[i] = ph(i + 1)
	}
	list := strings.Join(in, ", ")
	index := `INSERT INTO patient_search (rowid, terms) SELECT patient_id, group_concat(token, ' ')
		FROM patient_name_tokens WHERE patient_id IN (` + list + `) GROUP BY patient_id`
	if db.Engine == database.Postgres {
		index = `UPDATE patients p SET search_terms = t.terms FROM (SELECT patient_id, string_agg(token, ' ') AS terms
			FROM patient_name_tokens WHERE patient_id IN (` + list + `) GROUP BY patient_id) t WHERE p.id = t.patient_id`
	}
	if _, err := tx.ExecContext(ctx, index, ids...); err != nil {
		return fmt.Errorf("bulk index names: %w", err)
	}
	return nil
}
