package patient

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/textsearch"
)

// Store reads and writes patients. Loc is the clinic's time zone (for "today" and the year
// in patient numbers).
type Store struct {
	DB  *database.DB
	Loc *time.Location
	Now func() time.Time
	// ReachChanged, when set, is told inside the update's transaction that a patient's
	// reminders, phone, e-mail or message language changed (patient messages re-write what
	// still waits for them).
	ReachChanged func(ctx context.Context, tx *sql.Tx, id int64) error
	// SignInChanged, when set, is told inside the update's transaction that a patient's phone
	// or e-mail changed — the addresses a portal code signs in by — with the old and the new
	// (the portal tells the old ones: ASVS 2.2.3).
	SignInChanged func(ctx context.Context, tx *sql.Tx, id int64, old, new SignInAddresses) error
	// ChildChanged, when set, is told inside the transaction that a patient was registered,
	// their birth date changed, or they were archived or restored (the immunisation due list
	// rebuilds the patient's rows: what is due hangs on the age, and the list leaves out the
	// archived).
	ChildChanged func(ctx context.Context, tx *sql.Tx, id int64) error
	// AgeOrSexChanged, when set, is told inside the update's transaction, at its time, that a
	// patient's birth date or sex changed (what is worked out of them and versioned with the
	// visits — the vitals' flags by age, the BMI percentile the FHIR API reads — takes a new
	// version).
	AgeOrSexChanged func(ctx context.Context, tx *sql.Tx, id int64, now time.Time) error
}

// SignInAddresses are a patient's phone and e-mail, and the language of their messages.
type SignInAddresses struct {
	Phone, Email, Language string
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}

// Today is the clinic's current date (midnight UTC of it), against which birth dates are
// checked.
func (s *Store) Today() time.Time { return s.today() }

func (s *Store) today() time.Time {
	loc := s.Loc
	if loc == nil {
		loc = time.UTC
	}
	y, m, d := s.now().In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

const patientColumns = `p.id, p.mrn, p.first_name, p.middle_name, p.last_name, p.sex, p.birth_date, p.birth_date_estimated,
	p.civil_status, p.phone, p.email, p.address, p.occupation, p.referred_by, p.blood_type, p.remarks, p.history,
	p.emergency_contact, p.photo_file_id IS NOT NULL, p.archived_at, p.archive_reason, p.created_at, p.updated_at, p.version, p.received,
	p.reminders, p.message_language, p.gestation_weeks`

func scanPatient(row interface{ Scan(...any) error }) (Patient, error) {
	var p Patient
	var history, contact, received string
	var archivedAt sql.NullTime
	var gestation sql.NullInt64
	err := row.Scan(&p.ID, &p.MRN, &p.FirstName, &p.MiddleName, &p.LastName, &p.Sex, &p.BirthDate, &p.BirthDateEstimated,
		&p.CivilStatus, &p.Phone, &p.Email, &p.Address, &p.Occupation, &p.ReferredBy, &p.BloodType, &p.Remarks, &history,
		&contact, &p.HasPhoto, &archivedAt, &p.ArchiveReason, &p.CreatedAt, &p.UpdatedAt, &p.Version, &received,
		&p.Reminders, &p.MessageLanguage, &gestation)
	if err != nil {
		return p, err
	}
	if gestation.Valid {
		g := int(gestation.Int64)
		p.GestationWeeks = &g
	}
	if err := json.Unmarshal([]byte(received), &p.Received); err != nil {
		return p, fmt.Errorf("patient %d received: %w", p.ID, err)
	}
	if err := json.Unmarshal([]byte(history), &p.History); err != nil {
		return p, fmt.Errorf("patient %d history: %w", p.ID, err)
	}
	p.History = p.History.Known()
	if err := json.Unmarshal([]byte(contact), &p.EmergencyContact); err != nil {
		return p, fmt.Errorf("patient %d contact: %w", p.ID, err)
	}
	if archivedAt.Valid {
		p.Archived, p.ArchivedAt = true, &archivedAt.Time
	}
	return p, nil
}

func get(ctx context.Context, q database.Querier, id int64) (Patient, error) {
	p, err := scanPatient(q.QueryRowContext(ctx, `SELECT `+patientColumns+` FROM patients p WHERE p.id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return p, apperr.NotFound("patient.not_found")
	}
	if err != nil {
		return p, fmt.Errorf("read patient: %w", err)
	}
	return p, nil
}

// Get returns one patient (archived ones too).
func (s *Store) Get(ctx context.Context, id int64) (Patient, error) { return get(ctx, s.DB, id) }

// writeTokens indexes a patient's changed name for search: the token rows (one-word
// searches) and the engine's full-text index (several words), replacing the old name's.
func writeTokens(ctx context.Context, q database.Querier, engine database.Engine, id int64, in Input) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM patient_name_tokens WHERE patient_id = $1`, id); err != nil {
		return fmt.Errorf("clear name tokens: %w", err)
	}
	tokens := textsearch.Tokens(in.FirstName, in.MiddleName, in.LastName)
	if err := addTokens(ctx, q, id, tokens); err != nil {
		return err
	}
	var err error
	switch engine {
	case database.SQLite:
		if _, err = q.ExecContext(ctx, `DELETE FROM patient_search WHERE rowid = $1`, id); err == nil {
			_, err = q.ExecContext(ctx, `INSERT INTO patient_search (rowid, terms) VALUES ($1, $2)`, id, strings.Join(tokens, " "))
		}
	case database.Postgres:
		_, err = q.ExecContext(ctx, `UPDATE patients SET search_terms = $1 WHERE id = $2`, textsearch.PrefixTerms(tokens), id)
	}
	if err != nil {
		return fmt.Errorf("index name: %w", err)
	}
	return nil
}

// addTokens writes a name's token rows for patient id, in one statement.
func addTokens(ctx context.Context, q database.Querier, id int64, tokens []string) error {
	if len(tokens) == 0 {
		return nil
	}
	var b strings.Builder
	args := make([]any, 0, len(tokens)+1)
	args = append(args, id)
	b.WriteString(`INSERT INTO patient_name_tokens (token, patient_id) VALUES `)
	for i, t := range tokens {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "($%d, $1)", i+2)
		args = append(args, t)
	}
	if _, err := q.ExecContext(ctx, b.String(), args...); err != nil {
		return fmt.Errorf("write name tokens: %w", err)
	}
	return nil
}

func encode(in Input) (history, contact string) {
	h, _ := json.Marshal(in.History)
	c, _ := json.Marshal(in.EmergencyContact)
	return string(h), string(c)
}

// Create adds a patient with a new patient number; e carries who does it and from where.
//
// A possible duplicate (the same name, birth date and sex, or the same phone) is refused
// unless the registrar confirmed, after seeing them, that this is a different person from
// each (distinctFrom lists their ids); the confirmation is audited with their ids.
func (s *Store) Create(ctx context.Context, e audit.Event, in Input, distinctFrom []int64) (Patient, error) {
	if err := in.Clean(s.today()); err != nil {
		return Patient{}, err
	}
	var p Patient
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		p, err = s.create(ctx, tx, e, in, distinctFrom, false)
		return err
	})
	return p, err
}

// CreateExactly is Create for a caller that names, as different people, exactly the
// possible duplicates it was shown (the FHIR API's distinct-from extension): a list that is
// not the patients found now — one missing, or one that is not a possible duplicate — is
// refused as an unconfirmed registration is, naming them (TwinsOf).
func (s *Store) CreateExactly(ctx context.Context, e audit.Event, in Input, distinctFrom []int64) (Patient, error) {
	if err := in.Clean(s.today()); err != nil {
		return Patient{}, err
	}
	var p Patient
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		p, err = s.create(ctx, tx, e, in, distinctFrom, true)
		return err
	})
	return p, err
}

// CreateExactlyIn is CreateExactly inside the caller's transaction.
func (s *Store) CreateExactlyIn(ctx context.Context, tx *sql.Tx, e audit.Event, in Input, distinctFrom []int64) (Patient, error) {
	if err := in.Clean(s.today()); err != nil {
		return Patient{}, err
	}
	return s.create(ctx, tx, e, in, distinctFrom, true)
}

// Twins are the patients a registration refused as a possible duplicate may be, carried by
// the refusal (patient.possible_duplicate) for a caller that names them to its user; the
// desk shows them from its own check (Duplicates).
type Twins []int64

func (t Twins) Error() string { return fmt.Sprintf("possible duplicate of patients %v", []int64(t)) }

// TwinsOf is the patients a refusal as a possible duplicate names, with ok false for any
// other error (and for a duplicate of another registration of the same batch, which has no
// id yet).
func TwinsOf(err error) (ids []int64, ok bool) {
	var t Twins
	if !errors.As(err, &t) {
		return nil, false
	}
	return t, true
}

// duplicateOf is the refusal of a registration that may be one of twins.
func duplicateOf(twins []Summary) error {
	ids := make(Twins, len(twins))
	for i, t := range twins {
		ids[i] = t.ID
	}
	return &apperr.Error{Kind: apperr.KindConflict, Key: "patient.possible_duplicate", Err: ids}
}

// create registers in (already clean) in tx: the duplicate check, the record, its first
// version and its audit event. exact: distinctFrom must be exactly the possible duplicates.
func (s *Store) create(ctx context.Context, tx *sql.Tx, e audit.Event, in Input, distinctFrom []int64, exact bool) (Patient, error) {
	now := s.now()
	in.History.stampAllergies(History{}, e.ActorName, now)
	// Two registrations of one person at once wait for each other, so that the second sees
	// the first as a possible duplicate.
	locks := []int64{keyHash("patient-name:" + NameKey(in.FirstName, in.MiddleName, in.LastName) + "|" + in.BirthDate)}
	if phone := textsearch.PhoneKey(in.Phone); phone != "" {
		locks = append(locks, keyHash("patient-phone:"+phone))
	}
	if err := lockKeys(ctx, tx, s.DB.Engine, locks); err != nil {
		return Patient{}, err
	}
	twins, err := duplicates(ctx, tx, in, 0)
	if err != nil {
		return Patient{}, err
	}
	var others []string
	for _, t := range twins {
		if !slices.Contains(distinctFrom, t.ID) {
			return Patient{}, duplicateOf(twins)
		}
		others = append(others, strconv.FormatInt(t.ID, 10))
	}
	if exact && len(slices.Compact(slices.Sorted(slices.Values(distinctFrom)))) != len(twins) {
		return Patient{}, duplicateOf(twins)
	}
	p, err := insert(ctx, tx, s.DB.Engine, now, s.today().Year(), e.Actor(), in)
	if err != nil {
		return Patient{}, err
	}
	if in.Received != nil {
		if err := writeReceived(ctx, tx, s.DB.Engine, p.ID, *in.Received); err != nil {
			return Patient{}, err
		}
		if p, err = get(ctx, tx, p.ID); err != nil {
			return Patient{}, err
		}
	}
	if s.ChildChanged != nil {
		if err := s.ChildChanged(ctx, tx, p.ID); err != nil {
			return Patient{}, err
		}
	}
	if err := keep(ctx, tx, p, e, now); err != nil {
		return Patient{}, err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "patient.create", "patient", strconv.FormatInt(p.ID, 10), audit.Success, now
	if len(others) > 0 {
		e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.distinct_from", Args: []string{strings.Join(others, ", ")}})
	}
	if err := audit.Record(ctx, tx, e); err != nil {
		return Patient{}, err
	}
	return p, nil
}

// patientNumbers are the yearly patient numbers (MRN): unique, gaps allowed (ADR 21).
var patientNumbers = database.Yearly{Counter: "mrn", Sequence: "patient_numbers"}

// activeTotal is the total of patients on the register (not archived).
const activeTotal = "patients:active"

// returning is patientColumns as the RETURNING list of a statement writing one patient.
var returning = strings.ReplaceAll(patientColumns, "p.", "")

// insert writes a new patient in tx and returns it as written (its row read back by the
// INSERT itself, not by another statement); it does not audit (callers do). The name's
// search index is written with it: the token rows, and on SQLite the full-text row; on
// PostgreSQL the search terms are a column of the same INSERT (a second UPDATE wrote the
// whole new row, its twelve indexes and its full-text index again).
func insert(ctx context.Context, tx database.Querier, engine database.Engine, now time.Time, year int, actor any, in Input) (Patient, error) {
	seq, err := patientNumbers.Take(ctx, tx, engine, year, 1)
	if err != nil {
		return Patient{}, err
	}
	mrn := fmt.Sprintf("%d-%06d", year, seq[0])
	history, contact := encode(in)
	if in.Reminders == "" {
		in.Reminders = DefaultReminders(in.Phone, in.Email)
	}
	tokens := textsearch.Tokens(in.FirstName, in.MiddleName, in.LastName)
	args := []any{mrn, textsearch.Digits(mrn), in.FirstName, in.MiddleName, in.LastName, in.Sex, in.BirthDate, in.BirthDateEstimated, in.CivilStatus,
		in.Phone, textsearch.Digits(in.Phone), in.Email, in.Address, in.Occupation, in.ReferredBy, in.BloodType, in.Remarks, history, contact,
		NameKey(in.FirstName, in.MiddleName, in.LastName), SortName(in.FirstName, in.MiddleName, in.LastName), now, actor, textsearch.PhoneKey(in.Phone), in.Reminders, in.MessageLanguage, gestationArg(in.GestationWeeks)}
	termsColumn, termsValue := "", ""
	if engine == database.Postgres {
		termsColumn, termsValue = ", search_terms", ", $28"
		args = append(args, textsearch.PrefixTerms(tokens))
	}
	p, err := scanPatient(tx.QueryRowContext(ctx, `INSERT INTO patients (mrn, mrn_digits, first_name, middle_name, last_name, sex, birth_date,
		birth_date_estimated, civil_status, phone, phone_digits, email, address, occupation, referred_by, blood_type, remarks,
		history, emergency_contact, name_key, sort_name, created_at, created_by, updated_at, updated_by, phone_key, version, reminders, message_language, gestation_weeks`+termsColumn+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $22, $23, $24, 1, $25, $26, $27`+termsValue+`)
		RETURNING `+returning, args...))
	if err != nil {
		return Patient{}, fmt.Errorf("insert patient: %w", err)
	}
	if err := addTokens(ctx, tx, p.ID, tokens); err != nil {
		return Patient{}, err
	}
	if engine == database.SQLite {
		if _, err := tx.ExecContext(ctx, `INSERT INTO patient_search (rowid, terms) VALUES ($1, $2)`, p.ID, strings.Join(tokens, " ")); err != nil {
			return Patient{}, fmt.Errorf("index name: %w", err)
		}
	}
	if err := database.AddToTotal(ctx, tx, engine, activeTotal, 1); err != nil {
		return Patient{}, err
	}
	return p, nil
}

// Update replaces a patient's details if version is still the stored one; otherwise it is
// a conflict and nothing changes. The audit event names the changed fields, not values.
func (s *Store) Update(ctx context.Context, e audit.Event, id int64, version int, in Input) (Patient, error) {
	if err := in.Clean(s.today()); err != nil {
		return Patient{}, err
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error { return s.update(ctx, tx, e, id, version, in) })
	if err != nil {
		return Patient{}, err
	}
	return s.Get(ctx, id)
}

// CreateIn is Create inside the caller's transaction (a FHIR batch or transaction): the
// same rules, the same audit; the caller commits or rolls back.
func (s *Store) CreateIn(ctx context.Context, tx *sql.Tx, e audit.Event, in Input, distinctFrom []int64) (Patient, error) {
	if err := in.Clean(s.today()); err != nil {
		return Patient{}, err
	}
	return s.create(ctx, tx, e, in, distinctFrom, false)
}

// UpdateIn is Update inside the caller's transaction.
func (s *Store) UpdateIn(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, version int, in Input) (Patient, error) {
	if err := in.Clean(s.today()); err != nil {
		return Patient{}, err
	}
	if err := s.update(ctx, tx, e, id, version, in); err != nil {
		return Patient{}, err
	}
	return get(ctx, tx, id)
}

// AddAllergyIn lists allergy a on patient id inside the caller's transaction, as an update
// adding it would be written (versioned, audited as patient.update of history.allergies, the
// allergy status stamped by e's user) — unless a listed one is the same (added false): same
// says so (nil: the same substance, case and spaces aside). An archived patient is refused
// (409). The immunisation record lists the vaccine an anaphylaxis followed, when the nurse
// recording the reaction says so (the same: the product by its name in any language).
func (s *Store) AddAllergyIn(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, a Allergy, same func(listed Allergy) bool) (added bool, err error) {
	old, err := get(ctx, tx, id)
	if err != nil {
		return false, err
	}
	if same == nil {
		same = func(x Allergy) bool {
			return strings.EqualFold(strings.TrimSpace(x.Substance), strings.TrimSpace(a.Substance))
		}
	}
	if slices.ContainsFunc(old.History.Allergies, same) {
		return false, nil
	}
	in := old.Input
	in.History.Allergies = append(slices.Clone(in.History.Allergies), a)
	in.History.AllergyStatus = AllergiesListed
	if err := in.Clean(s.today()); err != nil {
		return false, err
	}
	return true, s.update(ctx, tx, e, id, old.Version, in)
}

// longestAllergies is the most allergies a kept version of patient id listed, or the highest
// key one gave, whichever is more.
func longestAllergies(ctx context.Context, tx *sql.Tx, id int64) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT data FROM patient_versions WHERE patient_id = $1`, id)
	if err != nil {
		return 0, fmt.Errorf("read patient versions: %w", err)
	}
	defer rows.Close()
	most := 0
	for rows.Next() {
		var data string
		var v struct {
			History struct {
				Allergies []struct {
					Key int `json:"key"`
				} `json:"allergies"`
				AllergySeq int `json:"allergy_seq"`
			} `json:"history"`
		}
		if err := rows.Scan(&data); err != nil {
			return 0, fmt.Errorf("read patient versions: %w", err)
		}
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			return 0, fmt.Errorf("patient %d version: %w", id, err)
		}
		most = max(most, len(v.History.Allergies), v.History.AllergySeq)
		for _, a := range v.History.Allergies {
			most = max(most, a.Key)
		}
	}
	return most, rows.Err()
}

// GetIn reads a patient inside the caller's transaction.
func (s *Store) GetIn(ctx context.Context, tx *sql.Tx, id int64) (Patient, error) {
	return get(ctx, tx, id)
}

// update writes in (already clean) over patient id at version, in tx.
func (s *Store) update(ctx context.Context, tx *sql.Tx, e audit.Event, id int64, version int, in Input) error {
	now := s.now()
	old, err := get(ctx, tx, id)
	if err != nil {
		return err
	}
	if old.Archived {
		return apperr.Conflict("patient.archived")
	}
	if old.Version != version {
		return apperr.Conflict("error.conflict")
	}
	was := old.History
	if was.AllergySeq == 0 && (len(was.Allergies) > 0 || len(in.History.Allergies) > 0) {
		// Keyed for the first time: above every place (and key) a kept version's list had, so
		// that an allergy taken off before keys were does not give its id to a new one.
		if was.AllergySeq, err = longestAllergies(ctx, tx, id); err != nil {
			return err
		}
	}
	in.History.stampAllergies(was, e.ActorName, now)
	if in.Reminders == "" { // a writer that knows no preference (FHIR) keeps the patient's
		in.Reminders = old.Reminders
		if !reminderFits(in.Reminders, in.Phone, in.Email) {
			in.Reminders = DefaultReminders(in.Phone, in.Email)
		}
	}
	history, contact := encode(in)
	res, err := tx.ExecContext(ctx, `UPDATE patients SET first_name = $1, middle_name = $2, last_name = $3, sex = $4,
		birth_date = $5, birth_date_estimated = $6, civil_status = $7, phone = $8, phone_digits = $9, email = $10,
		address = $11, occupation = $12, referred_by = $13, blood_type = $14, remarks = $15, history = $16,
		emergency_contact = $17, name_key = $18, sort_name = $19, updated_at = $20, updated_by = $21, phone_key = $24,
		reminders = $25, message_language = $26, gestation_weeks = $27, version = version + 1 WHERE id = $22 AND version = $23`,
		in.FirstName, in.MiddleName, in.LastName, in.Sex, in.BirthDate, in.BirthDateEstimated, in.CivilStatus, in.Phone,
		textsearch.Digits(in.Phone), in.Email, in.Address, in.Occupation, in.ReferredBy, in.BloodType, in.Remarks, history, contact,
		NameKey(in.FirstName, in.MiddleName, in.LastName), SortName(in.FirstName, in.MiddleName, in.LastName), now, e.Actor(), id, version,
		textsearch.PhoneKey(in.Phone), in.Reminders, in.MessageLanguage, gestationArg(in.GestationWeeks))
	if err != nil {
		return fmt.Errorf("update patient: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.Conflict("error.conflict")
	}
	if old.FirstName != in.FirstName || old.MiddleName != in.MiddleName || old.LastName != in.LastName {
		if err := writeTokens(ctx, tx, s.DB.Engine, id, in); err != nil {
			return err
		}
	}
	changed := ChangedFields(old.Input, in)
	if in.Received != nil && !reflect.DeepEqual(*in.Received, old.Received) {
		if err := writeReceived(ctx, tx, s.DB.Engine, id, *in.Received); err != nil {
			return err
		}
		changed = append(changed, "received")
	}
	if s.ReachChanged != nil && (old.Reminders != in.Reminders || old.Phone != in.Phone || old.Email != in.Email || old.MessageLanguage != in.MessageLanguage) {
		if err := s.ReachChanged(ctx, tx, id); err != nil {
			return err
		}
	}
	if s.AgeOrSexChanged != nil && (old.BirthDate != in.BirthDate || old.Sex != in.Sex) {
		if err := s.AgeOrSexChanged(ctx, tx, id, now); err != nil {
			return err
		}
	}
	if s.ChildChanged != nil && old.BirthDate != in.BirthDate {
		if err := s.ChildChanged(ctx, tx, id); err != nil {
			return err
		}
	}
	if s.SignInChanged != nil && (old.Phone != in.Phone || old.Email != in.Email) {
		if err := s.SignInChanged(ctx, tx, id, SignInAddresses{old.Phone, old.Email, old.MessageLanguage}, SignInAddresses{in.Phone, in.Email, in.MessageLanguage}); err != nil {
			return err
		}
	}
	if err := snapshot(ctx, tx, id, e, now); err != nil {
		return err
	}
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.At = "patient.update", "patient", strconv.FormatInt(id, 10), audit.Success, now
	e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.changed", Terms: FieldTerms(changed)})
	return audit.Record(ctx, tx, e)
}

// ChangedFields names the JSON fields that differ between a and b (nested objects one level
// down, e.g. "history.allergies"); the allergies' keys, the store's own, are not what changed.
func ChangedFields(a, b Input) []string {
	a.History, b.History = a.History.unkeyed(), b.History.unkeyed()
	var out []string
	var walk func(prefix string, x, y reflect.Value)
	walk = func(prefix string, x, y reflect.Value) {
		t := x.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			name := strings.Split(f.Tag.Get("json"), ",")[0]
			if name == "-" {
				continue // not written by the native API (Received): its caller compares it
			}
			if prefix != "" {
				name = prefix + "." + name
			}
			fx, fy := x.Field(i), y.Field(i)
			if f.Type.Kind() == reflect.Struct && prefix == "" {
				walk(name, fx, fy)
				continue
			}
			if !reflect.DeepEqual(fx.Interface(), fy.Interface()) {
				out = append(out, name)
			}
		}
	}
	walk("", reflect.ValueOf(a), reflect.ValueOf(b))
	return out
}

// Archive takes a patient out of the active register, with a reason; nothing is deleted.
func (s *Store) Archive(ctx context.Context, e audit.Event, id int64, reason string) (Patient, error) {
	reason, err := apperr.Reason(reason)
	if err != nil {
		return Patient{}, err
	}
	return s.setArchived(ctx, e, id, true, reason)
}

// Restore puts an archived patient back into the active register.
func (s *Store) Restore(ctx context.Context, e audit.Event, id int64) (Patient, error) {
	return s.setArchived(ctx, e, id, false, "")
}

func (s *Store) setArchived(ctx context.Context, e audit.Event, id int64, archive bool, reason string) (Patient, error) {
	now := s.now()
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := get(ctx, tx, id)
		if err != nil {
			return err
		}
		if old.Archived == archive {
			if archive {
				return apperr.Conflict("patient.archived")
			}
			return apperr.Conflict("patient.not_archived")
		}
		var at any
		delta := int64(1)
		e.Action = "patient.restore"
		if archive {
			at, delta, e.Action = now, -1, "patient.archive"
		}
		if _, err := tx.ExecContext(ctx, `UPDATE patients SET archived_at = $1, archived_by = $2, archive_reason = $3,
			updated_at = $4, updated_by = $5, version = version + 1 WHERE id = $6`, at, actorIf(archive, e), reason, now, e.Actor(), id); err != nil {
			return fmt.Errorf("archive patient: %w", err)
		}
		if err := database.AddToTotal(ctx, tx, s.DB.Engine, activeTotal, delta); err != nil {
			return err
		}
		if err := snapshot(ctx, tx, id, e, now); err != nil {
			return err
		}
		if s.ChildChanged != nil {
			if err := s.ChildChanged(ctx, tx, id); err != nil {
				return err
			}
		}
		e.EntityType, e.EntityID, e.Outcome, e.At, e.Detail = "patient", strconv.FormatInt(id, 10), audit.Success, now, reasonDetail(reason)
		return audit.Record(ctx, tx, e)
	})
	if err != nil {
		return Patient{}, err
	}
	return s.Get(ctx, id)
}

func actorIf(ok bool, e audit.Event) any {
	if !ok {
		return nil
	}
	return e.Actor()
}

func reasonDetail(reason string) string {
	if reason == "" {
		return ""
	}
	return audit.Phrases(audit.Phrase{Key: "audit.detail.reason_given"})
}

// FieldTerms are the message keys (audit.field.*) naming the fields ChangedFields lists, so
// that an audit reader reads "changed: phone" in their own language.
func FieldTerms(fields []string) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		f = strings.TrimPrefix(f, "history.")
		f = strings.Replace(f, "emergency_contact.", "contact_", 1)
		out[i] = "audit.field." + f
	}
	return out
}

// Allergies reads what is known of a patient's allergies (for the prescribing checks): the
// list and the status (AllergiesNotAsked, AllergiesNone or AllergiesListed).
func Allergies(ctx context.Context, q database.Querier, id int64) ([]Allergy, string, error) {
	var history string
	err := q.QueryRowContext(ctx, `SELECT history FROM patients WHERE id = $1`, id).Scan(&history)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", apperr.NotFound("patient.not_found")
	}
	if err != nil {
		return nil, "", fmt.Errorf("read allergies: %w", err)
	}
	var h History
	if err := json.Unmarshal([]byte(history), &h); err != nil {
		return nil, "", fmt.Errorf("patient %d history: %w", id, err)
	}
	h = h.Known()
	return h.Allergies, h.AllergyStatus, nil
}

// AfterRestore rebuilds, after a restore or a copy between engines, what each engine keeps
// its own way: the name search index, from the name tokens (as migrations 3 and 14 build
// it), and the yearly patient numbers, moved past every number in use.
func AfterRestore(ctx context.Context, q database.Querier, engine database.Engine) error {
	var stmts []string
	switch engine {
	case database.SQLite:
		stmts = []string{`DELETE FROM patient_search`, `INSERT INTO patient_search (rowid, terms)
			SELECT patient_id, group_concat(token, ' ') FROM patient_name_tokens GROUP BY patient_id`}
	case database.Postgres:
		stmts = []string{`UPDATE patients p SET search_terms = t.terms
			FROM (SELECT patient_id, string_agg(DISTINCT left(token, n), ' ') AS terms
				FROM patient_name_tokens, generate_series(1, least(char_length(token), 20)) n
				GROUP BY patient_id) t
			WHERE t.patient_id = p.id`}
	}
	for _, stmt := range stmts {
		if _, err := q.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("rebuild the name search index: %w", err)
		}
	}
	rows, err := q.QueryContext(ctx, `SELECT CAST(substr(mrn, 1, 4) AS INTEGER), MAX(CAST(substr(mrn, 6) AS INTEGER)) FROM patients GROUP BY 1`)
	if err != nil {
		return fmt.Errorf("read the patient numbers in use: %w", err)
	}
	last := map[int]int64{}
	for rows.Next() {
		var year int
		var n int64
		if err := rows.Scan(&year, &n); err != nil {
			rows.Close()
			return fmt.Errorf("read the patient numbers in use: %w", err)
		}
		last[year] = n
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the patient numbers in use: %w", err)
	}
	for year, n := range last {
		if err := patientNumbers.Ensure(ctx, q, engine, year, n); err != nil {
			return err
		}
	}
	return nil
}

// gestationArg is the gestational age as a query argument: NULL when not recorded.
func gestationArg(g *int) any {
	if g == nil {
		return nil
	}
	return *g
}
