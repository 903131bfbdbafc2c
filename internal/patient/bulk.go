package patient

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"emr/internal/database"
	"emr/internal/textsearch"
)

// bulkRows is how many patients one INSERT statement carries (26 parameters each stays
// well under both engines' parameter limits).
const bulkRows = 500

// BulkInsert registers many already-valid patients quickly, in one transaction: patient
// numbers are taken for all of them in one step. It is for seeding; it writes no
// audit events (the seed command is not a person acting on a record).
func (s *Store) BulkInsert(ctx context.Context, in []Input) error {
	now := s.now()
	year := s.today().Year()
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		numbers, err := patientNumbers.Take(ctx, tx, s.DB.Engine, year, len(in))
		if err != nil {
			return err
		}
		for start := 0; start < len(in); start += bulkRows {
			end := min(start+bulkRows, len(in))
			if err := insertChunk(ctx, tx, s.DB, now, year, numbers[start:end], in[start:end]); err != nil {
				return err
			}
		}
		return database.AddToTotal(ctx, tx, s.DB.Engine, activeTotal, int64(len(in)))
	})
}

func insertChunk(ctx context.Context, tx database.Querier, db *database.DB, now time.Time, year int, numbers []int64, chunk []Input) error {
	ph := db.Placeholder
	// PostgreSQL keeps the full-text terms in a column, written here with the row.
	pg := db.Engine == database.Postgres
	cols := 24
	extra := ""
	if pg {
		cols, extra = 25, ", search_terms"
	}
	var q strings.Builder
	q.WriteString(`INSERT INTO patients (mrn, mrn_digits, first_name, middle_name, last_name, sex, birth_date, birth_date_estimated,
		civil_status, phone, phone_digits, email, address, occupation, referred_by, blood_type, remarks, history, emergency_contact,
		name_key, sort_name, created_at, updated_at, phone_key` + extra + `, version) VALUES `)
	args := make([]any, 0, len(chunk)*cols)
	byMRN := make(map[string]Input, len(chunk))
	for i, in := range chunk {
		if i > 0 {
			q.WriteString(", ")
		}
		n := len(args)
		q.WriteString("(")
		for j := 1; j <= cols; j++ {
			if j > 1 {
				q.WriteString(", ")
			}
			q.WriteString(ph(n + j))
		}
		q.WriteString(", 1)")
		mrn := fmt.Sprintf("%d-%06d", year, numbers[i])
		byMRN[mrn] = in
		history, contact := encode(in)
		args = append(args, mrn, textsearch.Digits(mrn), in.FirstName, in.MiddleName, in.LastName, in.Sex, in.BirthDate, in.BirthDateEstimated,
			in.CivilStatus, in.Phone, textsearch.Digits(in.Phone), in.Email, in.Address, in.Occupation, in.ReferredBy, in.BloodType, in.Remarks,
			history, contact, NameKey(in.FirstName, in.MiddleName, in.LastName), SortName(in.FirstName, in.MiddleName, in.LastName), now, now,
			textsearch.PhoneKey(in.Phone))
		if pg {
			args = append(args, textsearch.PrefixTerms(textsearch.Tokens(in.FirstName, in.MiddleName, in.LastName)))
		}
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
	var ids []int64
	terms := make(map[int64]string, len(chunk))
	for rows.Next() {
		var id int64
		var mrn string
		if err := rows.Scan(&id, &mrn); err != nil {
			rows.Close()
			return err
		}
		in := byMRN[mrn]
		ids = append(ids, id)
		words := textsearch.Tokens(in.FirstName, in.MiddleName, in.LastName)
		terms[id] = strings.Join(words, " ")
		for _, t := range words {
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
	// SQLite's full-text index (PostgreSQL's search_terms went in with the rows).
	if db.Engine == database.SQLite {
		var fq strings.Builder
		fq.WriteString(`INSERT INTO patient_search (rowid, terms) VALUES `)
		fargs := make([]any, 0, 2*len(ids))
		for i, id := range ids {
			if i > 0 {
				fq.WriteString(", ")
			}
			fmt.Fprintf(&fq, "(%s, %s)", ph(2*i+1), ph(2*i+2))
			fargs = append(fargs, id, terms[id])
		}
		if _, err := tx.ExecContext(ctx, fq.String(), fargs...); err != nil {
			return fmt.Errorf("bulk index names: %w", err)
		}
	}
	return nil
}
