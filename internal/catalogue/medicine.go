package catalogue

import (
	"cmp"
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
)

//go:embed medicines_starter.tsv
var medicinesStarter []byte

// Medicine is one entry of the clinic's medicine catalogue.
type Medicine struct {
	ID          int64  `json:"id"`
	GenericName string `json:"generic_name"`
	Brand       string `json:"brand"`
	Strength    string `json:"strength"`
	Form        string `json:"form"`
	Unit        string `json:"unit"`
	// Ingredients are its active ingredients as written: "amoxicillin + clavulanic acid".
	Ingredients string `json:"ingredients"`
	// ATC is its WHO ATC code: "J01CR02".
	ATC string `json:"atc"`
	// The generic name in the other interface languages (empty: GenericName).
	NameRU  string `json:"name_ru"`
	NameZH  string `json:"name_zh"`
	NameVI  string `json:"name_vi"`
	Active  bool   `json:"active"`
	Version int    `json:"version"`
	// Label is how a prescription line names it, in the request's language: "Amoxicillin
	// 500 mg capsule (Amoxil)", "阿莫西林 500 mg 胶囊 (Amoxil)"; UnitLabel its unit so.
	Label     string `json:"label"`
	UnitLabel string `json:"unit_label"`
}

// Localise sets the entry's label and unit in lang.
func (m *Medicine) Localise(lang string) {
	name := map[string]string{"ru": m.NameRU, "zh": m.NameZH, "vi": m.NameVI}[lang]
	m.Label = MedicineLabel(cmp.Or(name, m.GenericName), m.Brand, strengthIn(m.Strength, lang), medicineWords.word("form", m.Form, lang))
	m.UnitLabel = medicineWords.word("unit", m.Unit, lang)
}

// MedicineInput is what creating or changing a catalogue entry sends.
type MedicineInput struct {
	GenericName string `json:"generic_name"`
	Brand       string `json:"brand"`
	Strength    string `json:"strength"`
	Form        string `json:"form"`
	Unit        string `json:"unit"`
	Ingredients string `json:"ingredients"`
	ATC         string `json:"atc"`
	NameRU      string `json:"name_ru"`
	NameZH      string `json:"name_zh"`
	NameVI      string `json:"name_vi"`
	Active      *bool  `json:"active"`
	Version     int    `json:"version"`
}

// MedicineLabel names a medicine as prescriptions print it.
func MedicineLabel(generic, brand, strength, form string) string {
	s := strings.Join(strings.Fields(strings.Join([]string{generic, strength, form}, " ")), " ")
	if brand != "" {
		s += " (" + brand + ")"
	}
	return s
}

func (in *MedicineInput) clean() (string, error) {
	for _, f := range []*string{&in.GenericName, &in.Brand, &in.Strength, &in.Form, &in.Unit, &in.Ingredients, &in.ATC, &in.NameRU, &in.NameZH, &in.NameVI} {
		*f = strings.Join(strings.Fields(*f), " ")
	}
	in.ATC = strings.ToUpper(in.ATC)
	var v apperr.Validation
	if in.GenericName == "" {
		v.Add("generic_name", "validation.required")
	}
	if in.ATC != "" && !ATCPattern.MatchString(in.ATC) {
		v.Add("atc", "medicine.atc")
	}
	for name, f := range map[string]string{"generic_name": in.GenericName, "brand": in.Brand, "strength": in.Strength, "form": in.Form, "unit": in.Unit,
		"ingredients": in.Ingredients, "name_ru": in.NameRU, "name_zh": in.NameZH, "name_vi": in.NameVI} {
		if utf8.RuneCountInString(f) > 200 {
			v.Add(name, "validation.too_long")
		}
	}
	return in.terms(), v.Err()
}

// terms are the words a search finds the entry by: its names in every language, brand,
// strength and form.
func (in *MedicineInput) terms() string {
	return foldTerms(in.GenericName, in.Brand, in.Strength, in.Form, in.NameRU, in.NameZH, in.NameVI)
}

const medicineColumns = `id, generic_name, brand, strength, form, unit, ingredients, atc, name_ru, name_zh, name_vi, active, version`

func scanMedicine(row interface{ Scan(...any) error }) (Medicine, error) {
	var m Medicine
	err := row.Scan(&m.ID, &m.GenericName, &m.Brand, &m.Strength, &m.Form, &m.Unit, &m.Ingredients, &m.ATC, &m.NameRU, &m.NameZH, &m.NameVI, &m.Active, &m.Version)
	m.Localise("en")
	return m, err
}

// MedicineQuery filters the catalogue: words that all start a word of the entry, inactive
// entries too (for the admin's list), and a page.
type MedicineQuery struct {
	Q        string
	All      bool
	Page     int
	PerPage  int
	NoCounts bool // a prescription's picker needs no total
}

// Medicines lists matching entries by generic name and the total that match.
func (s *Store) Medicines(ctx context.Context, q MedicineQuery) ([]Medicine, int, error) {
	q.Q = strings.TrimSpace(q.Q)
	if utf8.RuneCountInString(q.Q) > 100 {
		return nil, 0, apperr.Invalid("validation.query")
	}
	where, args := "TRUE", []any{}
	if !q.All {
		where = "active"
	}
	if q.Q != "" {
		var cond string
		cond, args = wordConditions(q.Q, args)
		where += " AND " + cond
	}
	total := -1
	if !q.NoCounts {
		if err := s.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM medicines WHERE `+where, args...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count medicines: %w", err)
		}
	}
	args = append(args, q.PerPage, (q.Page-1)*q.PerPage)
	rows, err := s.DB.QueryContext(ctx, `SELECT `+medicineColumns+` FROM medicines WHERE `+where+`
		ORDER BY generic_name, strength, brand, id LIMIT $`+fmt.Sprint(len(args)-1)+` OFFSET $`+fmt.Sprint(len(args)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list medicines: %w", err)
	}
	defer rows.Close()
	out := []Medicine{}
	for rows.Next() {
		m, err := scanMedicine(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, m)
	}
	return out, total, rows.Err()
}

// GetMedicine reads one entry, active or not.
func GetMedicine(ctx context.Context, q database.Querier, id int64) (Medicine, error) {
	m, err := scanMedicine(q.QueryRowContext(ctx, `SELECT `+medicineColumns+` FROM medicines WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return m, apperr.NotFound("medicine.not_found")
	}
	if err != nil {
		return m, fmt.Errorf("read medicine: %w", err)
	}
	return m, nil
}

func medicineTaken(ctx context.Context, tx *sql.Tx, in MedicineInput, except int64) error {
	var taken bool
	err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM medicines WHERE generic_name = $1 AND brand = $2
		AND strength = $3 AND form = $4 AND id <> $5)`, in.GenericName, in.Brand, in.Strength, in.Form, except).Scan(&taken)
	if err != nil {
		return fmt.Errorf("check medicine: %w", err)
	}
	if taken {
		return apperr.Conflict("medicine.duplicate")
	}
	return nil
}

// CreateMedicine adds an entry, audited as e's; the same generic, brand, strength and form
// twice is a conflict.
func (s *Store) CreateMedicine(ctx context.Context, e audit.Event, in MedicineInput) (Medicine, error) {
	terms, err := in.clean()
	if err != nil {
		return Medicine{}, err
	}
	var m Medicine
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := medicineTaken(ctx, tx, in, 0); err != nil {
			return err
		}
		now := time.Now().UTC()
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO medicines (generic_name, brand, strength, form, unit, ingredients, atc, terms, active, created_at, updated_at, name_ru, name_zh, name_vi)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, TRUE, $9, $9, $10, $11, $12) RETURNING id`, in.GenericName, in.Brand, in.Strength, in.Form, in.Unit, in.Ingredients, in.ATC, terms, now,
			in.NameRU, in.NameZH, in.NameVI).Scan(&id); err != nil {
			return fmt.Errorf("insert medicine: %w", err)
		}
		m, err = GetMedicine(ctx, tx, id)
		if err != nil {
			return err
		}
		return auditMedicine(ctx, tx, e, "medicine.create", id)
	})
	return m, err
}

// auditMedicine records a written entry in its write's transaction.
func auditMedicine(ctx context.Context, tx *sql.Tx, e audit.Event, action string, id int64) error {
	e.Action, e.EntityType, e.EntityID, e.Outcome = action, "medicine", strconv.FormatInt(id, 10), audit.Success
	return audit.Record(ctx, tx, e)
}

// UpdateMedicine changes an entry, or (active false) withdraws it from new prescriptions;
// prescriptions already written keep their text. It is audited as e's; a stale version is a
// conflict.
func (s *Store) UpdateMedicine(ctx context.Context, e audit.Event, id int64, in MedicineInput) (Medicine, error) {
	terms, err := in.clean()
	if err != nil {
		return Medicine{}, err
	}
	var m Medicine
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := GetMedicine(ctx, tx, id)
		if err != nil {
			return err
		}
		if old.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		if err := medicineTaken(ctx, tx, in, id); err != nil {
			return err
		}
		active := old.Active
		if in.Active != nil {
			active = *in.Active
		}
		if _, err := tx.ExecContext(ctx, `UPDATE medicines SET generic_name = $1, brand = $2, strength = $3, form = $4, unit = $5,
			terms = $6, active = $7, updated_at = $8, ingredients = $9, atc = $10, name_ru = $11, name_zh = $12, name_vi = $13, version = version + 1 WHERE id = $14`,
			in.GenericName, in.Brand, in.Strength, in.Form, in.Unit, terms, active, time.Now().UTC(), in.Ingredients, in.ATC, in.NameRU, in.NameZH, in.NameVI, id); err != nil {
			return fmt.Errorf("update medicine: %w", err)
		}
		if m, err = GetMedicine(ctx, tx, id); err != nil {
			return err
		}
		return auditMedicine(ctx, tx, e, "medicine.update", id)
	})
	return m, err
}

// parseMedicines reads a medicines CSV: generic_name required, brand, strength, form,
// unit, ingredients and atc optional, in any order.
func parseMedicines(data []byte) ([]MedicineInput, []RowError, error) {
	var rows []MedicineInput
	bad, err := streamMedicines(data, func(m MedicineInput) error { rows = append(rows, m); return nil })
	return rows, bad, err
}

// streamMedicines reads a medicines CSV as parseMedicines does, handing each good row to emit as it is read.
func streamMedicines(data []byte, emit func(MedicineInput) error) ([]RowError, error) {
	var emitErr error
	// The entries seen so far, by a 64-bit hash of their identity: 8 bytes each however long
	// the names, so a 200,000-row file stays small (a collision, about one in 10^9 for such a
	// file, would only report a row as a duplicate).
	seed := maphash.MakeSeed()
	seen := map[uint64]bool{}
	bad, err := readCSV(data, []string{"generic_name"}, func(field func(string) string) string {
		in := MedicineInput{GenericName: field("generic_name"), Brand: field("brand"), Strength: field("strength"), Form: field("form"), Unit: field("unit"),
			Ingredients: field("ingredients"), ATC: field("atc"), NameRU: field("name_ru"), NameZH: field("name_zh"), NameVI: field("name_vi")}
		if _, err := in.clean(); err != nil {
			if in.GenericName == "" {
				return "catalogue.no_generic"
			}
			if in.ATC != "" && !ATCPattern.MatchString(in.ATC) {
				return "medicine.atc"
			}
			return "catalogue.label_too_long"
		}
		key := maphash.String(seed, in.GenericName+"\x00"+in.Brand+"\x00"+in.Strength+"\x00"+in.Form)
		if seen[key] {
			return "catalogue.duplicate_medicine"
		}
		seen[key] = true
		if emitErr == nil {
			emitErr = emit(in)
		}
		return ""
	})
	if err == nil {
		err = emitErr
	}
	return bad, err
}

// ImportMedicines adds the file's medicines and updates the unit, ingredients and ATC code
// of those already there (matched on generic name, brand, strength and form); importing
// twice changes nothing.
func (s *Store) ImportMedicines(ctx context.Context, e audit.Event, data []byte) (ImportReport, error) {
	return importRows(ctx, s.DB, e, data, streamMedicines, func(tx *sql.Tx, rows []MedicineInput, rep *ImportReport) error {
		now := time.Now().UTC()
		for _, in := range rows {
			var id int64
			var unit, ingredients, atc, ru, zh, vi string
			var active bool
			err := tx.QueryRowContext(ctx, `SELECT id, unit, ingredients, atc, name_ru, name_zh, name_vi, active FROM medicines
				WHERE generic_name = $1 AND brand = $2 AND strength = $3 AND form = $4`,
				in.GenericName, in.Brand, in.Strength, in.Form).Scan(&id, &unit, &ingredients, &atc, &ru, &zh, &vi, &active)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				if err := insertMedicine(ctx, tx, in, now, ""); err != nil {
					return err
				}
				rep.Inserted++
				continue
			case err != nil:
				return fmt.Errorf("read medicine: %w", err)
			}
			// A file without ingredients, a code or names keeps the ones the entry has.
			in.Ingredients, in.ATC = cmp.Or(in.Ingredients, ingredients), cmp.Or(in.ATC, atc)
			in.NameRU, in.NameZH, in.NameVI = cmp.Or(in.NameRU, ru), cmp.Or(in.NameZH, zh), cmp.Or(in.NameVI, vi)
			switch {
			case unit == in.Unit && ingredients == in.Ingredients && atc == in.ATC && ru == in.NameRU && zh == in.NameZH && vi == in.NameVI && active:
				rep.Unchanged++
			default:
				if _, err := tx.ExecContext(ctx, `UPDATE medicines SET unit = $1, ingredients = $2, atc = $3, active = TRUE, updated_at = $4,
					name_ru = $5, name_zh = $6, name_vi = $7, terms = $8, version = version + 1 WHERE id = $9`,
					in.Unit, in.Ingredients, in.ATC, now, in.NameRU, in.NameZH, in.NameVI, in.terms(), id); err != nil {
					return fmt.Errorf("update medicine: %w", err)
				}
				rep.Updated++
			}
		}
		return nil
	}, "medicines")
}

func installMedicines(ctx context.Context, tx *sql.Tx) error {
	rows, bad, err := parseMedicines(medicinesStarter)
	if err != nil || len(bad) > 0 {
		return fmt.Errorf("starter medicines: %v %v", err, bad)
	}
	now := time.Now().UTC()
	for _, in := range rows {
		// An entry installed before the catalogue knew ingredients or names gets them; what the
		// clinic has filled in it keeps.
		if err := insertMedicine(ctx, tx, in, now, `ON CONFLICT (generic_name, brand, strength, form) DO UPDATE
			SET ingredients = CASE WHEN medicines.ingredients = '' AND medicines.atc = '' THEN excluded.ingredients ELSE medicines.ingredients END,
				atc = CASE WHEN medicines.ingredients = '' AND medicines.atc = '' THEN excluded.atc ELSE medicines.atc END,
				name_ru = CASE WHEN medicines.name_ru = '' THEN excluded.name_ru ELSE medicines.name_ru END,
				name_zh = CASE WHEN medicines.name_zh = '' THEN excluded.name_zh ELSE medicines.name_zh END,
				name_vi = CASE WHEN medicines.name_vi = '' THEN excluded.name_vi ELSE medicines.name_vi END`); err != nil {
			return fmt.Errorf("starter medicine %s: %w", in.GenericName, err)
		}
	}
	return refreshMedicineTerms(ctx, tx)
}

// refreshMedicineTerms recomputes every entry's search words (after names were added).
func refreshMedicineTerms(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, generic_name, brand, strength, form, name_ru, name_zh, name_vi FROM medicines`)
	if err != nil {
		return fmt.Errorf("read medicines: %w", err)
	}
	type entry struct {
		id int64
		in MedicineInput
	}
	var all []entry
	for rows.Next() {
		var e entry
		if err := rows.Scan(&e.id, &e.in.GenericName, &e.in.Brand, &e.in.Strength, &e.in.Form, &e.in.NameRU, &e.in.NameZH, &e.in.NameVI); err != nil {
			rows.Close()
			return err
		}
		all = append(all, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, e := range all {
		if _, err := tx.ExecContext(ctx, `UPDATE medicines SET terms = $1 WHERE id = $2`, e.in.terms(), e.id); err != nil {
			return fmt.Errorf("medicine terms: %w", err)
		}
	}
	return nil
}

// insertMedicine adds an active entry; onConflict is the statement's conflict clause.
func insertMedicine(ctx context.Context, tx *sql.Tx, in MedicineInput, now time.Time, onConflict string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO medicines (generic_name, brand, strength, form, unit, ingredients, atc, terms, active, created_at, updated_at,
		name_ru, name_zh, name_vi) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, TRUE, $9, $9, $10, $11, $12) `+onConflict, in.GenericName, in.Brand, in.Strength, in.Form, in.Unit,
		in.Ingredients, in.ATC, in.terms(), now, in.NameRU, in.NameZH, in.NameVI); err != nil {
		return fmt.Errorf("insert medicine: %w", err)
	}
	return nil
}

// MedicineExists reports whether the catalogue has (or had: withdrawn ones too) medicine id.
func MedicineExists(ctx context.Context, q database.Querier, id int64) (bool, error) {
	var ok bool
	if err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM medicines WHERE id = $1)`, id).Scan(&ok); err != nil {
		return false, fmt.Errorf("check medicine: %w", err)
	}
	return ok, nil
}

// FindMedicine reads the active entry of a generic name, strength and form (the first, if
// the catalogue has several), for starter content that names medicines so.
func FindMedicine(ctx context.Context, q database.Querier, generic, strength, form string) (Medicine, bool, error) {
	m, err := scanMedicine(q.QueryRowContext(ctx, `SELECT `+medicineColumns+` FROM medicines
		WHERE generic_name = $1 AND strength = $2 AND form = $3 AND active ORDER BY id LIMIT 1`, generic, strength, form))
	if errors.Is(err, sql.ErrNoRows) {
		return m, false, nil
	}
	if err != nil {
		return m, false, fmt.Errorf("find medicine: %w", err)
	}
	return m, true, nil
}
