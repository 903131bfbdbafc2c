package patient

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"

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
			if _, err := insertChunk(ctx, tx, s.DB, now, year, numbers[start:end], in[start:end], nil); err != nil {
				return err
			}
		}
		return database.AddToTotal(ctx, tx, s.DB.Engine, activeTotal, int64(len(in)))
	})
}

// insertChunk inserts a chunk of patients (and their name index) in a few statements, by
// actor (nil: nobody), and answers their ids by patient number.
func insertChunk(ctx context.Context, tx database.Querier, db *database.DB, now time.Time, year int, numbers []int64, chunk []Input, actor any) (map[string]int64, error) {
	ph := db.Placeholder
	// PostgreSQL keeps the full-text terms in a column, written here with the row.
	pg := db.Engine == database.Postgres
	cols := 28
	extra := ""
	if pg {
		cols, extra = 29, ", search_terms"
	}
	var q strings.Builder
	q.WriteString(`INSERT INTO patients (mrn, mrn_digits, first_name, middle_name, last_name, sex, birth_date, birth_date_estimated,
		civil_status, phone, phone_digits, email, address, occupation, referred_by, blood_type, remarks, history, emergency_contact,
		name_key, sort_name, created_at, updated_at, phone_key, created_by, updated_by, reminders, message_language` + extra + `, version) VALUES `)
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
		reminders := in.Reminders
		if reminders == "" {
			reminders = DefaultReminders(in.Phone, in.Email)
		}
		args = append(args, mrn, textsearch.Digits(mrn), in.FirstName, in.MiddleName, in.LastName, in.Sex, in.BirthDate, in.BirthDateEstimated,
			in.CivilStatus, in.Phone, textsearch.Digits(in.Phone), in.Email, in.Address, in.Occupation, in.ReferredBy, in.BloodType, in.Remarks,
			history, contact, NameKey(in.FirstName, in.MiddleName, in.LastName), SortName(in.FirstName, in.MiddleName, in.LastName), now, now,
			textsearch.PhoneKey(in.Phone), actor, actor, reminders, in.MessageLanguage)
		if pg {
			args = append(args, textsearch.PrefixTerms(textsearch.Tokens(in.FirstName, in.MiddleName, in.LastName)))
		}
	}
	q.WriteString(" RETURNING id, mrn")
	rows, err := tx.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("bulk insert patients: %w", err)
	}
	idOf := make(map[string]int64, len(chunk))
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
			return nil, err
		}
		idOf[mrn] = id
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
		return nil, err
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
			return nil, fmt.Errorf("bulk insert name tokens: %w", err)
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
			return nil, fmt.Errorf("bulk index names: %w", err)
		}
	}
	return idOf, nil
}

// CreateMany registers many patients in tx, by the same rules as Create — each input
// cleaned and checked, a possible duplicate (of the register, or of an earlier input) refused
// — in a few statements for all of them: the duplicate check one query per few hundred, the
// rows, names, first versions in multi-row inserts, an audit event each. It answers each
// input's patient or error; atomic: the first error is a *StepError and nothing is written.
func (s *Store) CreateMany(ctx context.Context, e audit.Event, ins []Input, atomic bool) ([]Patient, []error, error) {
	var out []Patient
	var errs []error
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		out, errs, err = s.createMany(ctx, tx, e, ins, atomic)
		return err
	})
	return out, errs, err
}

func (s *Store) createMany(ctx context.Context, tx *sql.Tx, e audit.Event, ins []Input, atomic bool) ([]Patient, []error, error) {
	now := s.now()
	errs := make([]error, len(ins))
	cleaned := make([]Input, len(ins))
	seenName, seenPhone := map[string]bool{}, map[string]bool{}
	var locks []int64
	for i, in := range ins {
		if err := in.Clean(s.today()); err != nil {
			errs[i] = err
			continue
		}
		in.History.stampAllergies(History{}, e.ActorName, now)
		cleaned[i] = in
		name := NameKey(in.FirstName, in.MiddleName, in.LastName) + "|" + in.BirthDate + "|" + in.Sex
		phone := textsearch.PhoneKey(in.Phone)
		if seenName[name] || (phone != "" && seenPhone[phone]) {
			errs[i] = apperr.Conflict("patient.possible_duplicate")
			continue
		}
		seenName[name] = true
		locks = append(locks, keyHash("patient-name:"+NameKey(in.FirstName, in.MiddleName, in.LastName)+"|"+in.BirthDate))
		if phone != "" {
			seenPhone[phone] = true
			locks = append(locks, keyHash("patient-phone:"+phone))
		}
	}
	if err := lockKeys(ctx, tx, s.DB.Engine, locks); err != nil {
		return nil, nil, err
	}
	if err := s.duplicatesOf(ctx, tx, cleaned, errs); err != nil {
		return nil, nil, err
	}
	for i := range errs {
		if errs[i] == errRegistered {
			// Named as one by one (TwinsOf): a query each, for the inputs refused alone.
			twins, err := duplicates(ctx, tx, cleaned[i], 0)
			if err != nil {
				return nil, nil, err
			}
			errs[i] = duplicateOf(twins)
		}
		if errs[i] != nil && atomic {
			return nil, nil, &StepError{Step: i, Err: errs[i]}
		}
	}
	var pending []int
	for i := range ins {
		if errs[i] == nil {
			pending = append(pending, i)
		}
	}
	out := make([]Patient, len(ins))
	if len(pending) == 0 {
		return out, errs, nil
	}
	year := s.today().Year()
	numbers, err := patientNumbers.Take(ctx, tx, s.DB.Engine, year, len(pending))
	if err != nil {
		return nil, nil, err
	}
	for start := 0; start < len(pending); start += bulkRows {
		part := pending[start:min(start+bulkRows, len(pending))]
		chunk := make([]Input, len(part))
		for k, i := range part {
			chunk[k] = cleaned[i]
		}
		ids, err := insertChunk(ctx, tx, s.DB, now, year, numbers[start:start+len(part)], chunk, e.Actor())
		if err != nil {
			return nil, nil, err
		}
		for k, i := range part {
			mrn := fmt.Sprintf("%d-%06d", year, numbers[start+k])
			out[i] = Patient{ID: ids[mrn], MRN: mrn, Input: cleaned[i], CreatedAt: now, UpdatedAt: now, Version: 1}
			out[i].History = out[i].History.Known()
			if r := cleaned[i].Received; r != nil {
				// Its callers send identifiers, which another patient may hold, one by one (Create).
				if err := writeReceived(ctx, tx, s.DB.Engine, out[i].ID, *r); err != nil {
					return nil, nil, err
				}
				out[i].Received = *r
			}
		}
		if err := s.keepFirstVersions(ctx, tx, out, part, e, now); err != nil {
			return nil, nil, err
		}
	}
	if err := database.AddToTotal(ctx, tx, s.DB.Engine, activeTotal, int64(len(pending))); err != nil {
		return nil, nil, err
	}
	for _, i := range pending {
		ev := e
		ev.Action, ev.EntityType, ev.EntityID, ev.Outcome, ev.At = "patient.create", "patient", strconv.FormatInt(out[i].ID, 10), audit.Success, now
		if err := audit.Record(ctx, tx, ev); err != nil {
			return nil, nil, err
		}
		if s.ChildChanged != nil {
			if err := s.ChildChanged(ctx, tx, out[i].ID); err != nil {
				return nil, nil, err
			}
		}
	}
	return out, errs, nil
}

// errRegistered marks, while createMany checks, an input the register holds a possible
// duplicate of (the twins are then named).
var errRegistered = apperr.Conflict("patient.possible_duplicate")

// duplicatesOf marks in errs the inputs the register holds a possible duplicate of
// (errRegistered): the same name key, birth date and sex, or the same phone, a few hundred
// inputs a query.
func (s *Store) duplicatesOf(ctx context.Context, q database.Querier, ins []Input, errs []error) error {
	const per = 300
	ph := s.DB.Placeholder
	var idx []int
	for i := range ins {
		if errs[i] == nil {
			idx = append(idx, i)
		}
	}
	for start := 0; start < len(idx); start += per {
		part := idx[start:min(start+per, len(idx))]
		var names, phones strings.Builder
		var nargs, pargs []any
		for _, i := range part {
			in := ins[i]
			if len(nargs) > 0 {
				names.WriteString(", ")
			}
			n := len(nargs)
			fmt.Fprintf(&names, "(%s, %s, %s)", ph(n+1), ph(n+2), ph(n+3))
			nargs = append(nargs, NameKey(in.FirstName, in.MiddleName, in.LastName), in.BirthDate, in.Sex)
			if k := textsearch.PhoneKey(in.Phone); k != "" {
				if len(pargs) > 0 {
					phones.WriteString(", ")
				}
				phones.WriteString(ph(len(pargs) + 1))
				pargs = append(pargs, k)
			}
		}
		taken := map[string]bool{}
		rows, err := q.QueryContext(ctx, `SELECT name_key, birth_date, sex FROM patients WHERE (name_key, birth_date, sex) IN (VALUES `+names.String()+`)`, nargs...)
		if err != nil {
			return fmt.Errorf("check duplicates: %w", err)
		}
		for rows.Next() {
			var k, b, x string
			if err := rows.Scan(&k, &b, &x); err != nil {
				rows.Close()
				return err
			}
			taken[k+"|"+b+"|"+x] = true
		}
		rows.Close()
		if len(pargs) > 0 {
			found, err := database.Column[string](q.QueryContext(ctx, `SELECT phone_key FROM patients WHERE phone_key IN (`+phones.String()+`)`, pargs...))
			if err != nil {
				return fmt.Errorf("check duplicates: %w", err)
			}
			for _, k := range found {
				taken["phone:"+k] = true
			}
		}
		for _, i := range part {
			in := ins[i]
			k := textsearch.PhoneKey(in.Phone)
			if taken[NameKey(in.FirstName, in.MiddleName, in.LastName)+"|"+in.BirthDate+"|"+in.Sex] || (k != "" && taken["phone:"+k]) {
				errs[i] = errRegistered
			}
		}
	}
	return nil
}

// keepFirstVersions writes the first version of the patients of list at idx.
func (s *Store) keepFirstVersions(ctx context.Context, tx *sql.Tx, list []Patient, idx []int, e audit.Event, now time.Time) error {
	ph := s.DB.Placeholder
	var q strings.Builder
	q.WriteString(`INSERT INTO patient_versions (patient_id, version, recorded_at, recorded_by, data) VALUES `)
	args := make([]any, 0, 5*len(idx))
	for k, i := range idx {
		if k > 0 {
			q.WriteString(", ")
		}
		n := len(args)
		fmt.Fprintf(&q, "(%s, 1, %s, %s, %s)", ph(n+1), ph(n+2), ph(n+3), ph(n+4))
		data, err := json.Marshal(list[i])
		if err != nil {
			return err
		}
		args = append(args, list[i].ID, now, e.Actor(), string(data))
	}
	if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
		return fmt.Errorf("keep first versions: %w", err)
	}
	return nil
}
