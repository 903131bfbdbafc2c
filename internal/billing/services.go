package billing

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/httpjson"
	"emr/internal/i18n"
)

// Categories of service, in the order screens list them.
var Categories = []string{"consultation", "procedure", "laboratory", "imaging", "medicine", "certificate", "other"}

// Service is an entry of the clinic's price list.
type Service struct {
	ID       int64  `json:"id"`
	Code     string `json:"code"`
	Name     string `json:"name"`
	Category string `json:"category"`
	Price    Money  `json:"price"`
	Active   bool   `json:"active"`
	Version  int    `json:"version"`
}

// ServiceInput is what a manager writes of a service.
type ServiceInput struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Category string `json:"category"`
	Price    Money  `json:"price"`
	Active   *bool  `json:"active"`
	Version  int    `json:"version"`
}

func (in *ServiceInput) clean(v *apperr.Validation, prefix string) {
	in.Code, in.Name = strings.ToUpper(strings.TrimSpace(in.Code)), strings.TrimSpace(in.Name)
	switch {
	case in.Code == "":
		v.Add(prefix+"code", "validation.required")
	case utf8.RuneCountInString(in.Code) > 20 || strings.ContainsAny(in.Code, " ,;\t"):
		v.Add(prefix+"code", "billing.bad_code")
	}
	switch {
	case in.Name == "":
		v.Add(prefix+"name", "validation.required")
	case utf8.RuneCountInString(in.Name) > 200:
		v.Add(prefix+"name", "validation.too_long")
	}
	if !slices.Contains(Categories, in.Category) {
		v.Add(prefix+"category", "billing.bad_category")
	}
	if in.Price < 0 || in.Price > maxMoney {
		v.Add(prefix+"price", "billing.bad_amount")
	}
	if in.Active == nil {
		yes := true
		in.Active = &yes
	}
}

const serviceColumns = `id, code, name, category, price, active, version`

func scanService(row interface{ Scan(...any) error }) (Service, error) {
	var s Service
	err := row.Scan(&s.ID, &s.Code, &s.Name, &s.Category, &s.Price, &s.Active, &s.Version)
	return s, err
}

// ServiceQuery selects services: words of the code or name, withdrawn ones too when All.
type ServiceQuery struct {
	Q   string
	All bool
}

// Services lists the price list by code (at most 1,000 entries: a clinic's list is short).
func (s *Store) Services(ctx context.Context, q ServiceQuery) ([]Service, error) {
	q.Q = strings.TrimSpace(q.Q)
	if utf8.RuneCountInString(q.Q) > 100 {
		return nil, apperr.Invalid("validation.query")
	}
	like := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(q.Q)) + "%"
	rows, err := s.DB.QueryContext(ctx, `SELECT `+serviceColumns+` FROM services
		WHERE ($1 OR active) AND (LOWER(code) LIKE $2 ESCAPE '\' OR LOWER(name) LIKE $2 ESCAPE '\')
		ORDER BY code LIMIT 1000`, q.All, like)
	if err != nil {
		return nil, fmt.Errorf("list services: %w", err)
	}
	defer rows.Close()
	out := []Service{}
	for rows.Next() {
		sv, err := scanService(rows)
		if err != nil {
			return nil, fmt.Errorf("list services: %w", err)
		}
		out = append(out, sv)
	}
	return out, rows.Err()
}

func getService(ctx context.Context, q database.Querier, id int64) (Service, error) {
	sv, err := scanService(q.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return sv, apperr.NotFound("billing.service_not_found")
	}
	if err != nil {
		return sv, fmt.Errorf("read service: %w", err)
	}
	return sv, nil
}

func serviceByCode(ctx context.Context, q database.Querier, code string) (Service, error) {
	sv, err := scanService(q.QueryRowContext(ctx, `SELECT `+serviceColumns+` FROM services WHERE code = $1`, code))
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return sv, fmt.Errorf("read service: %w", err)
	}
	return sv, err
}

// CreateService adds a service, audited as e's; a code in use is a conflict.
func (s *Store) CreateService(ctx context.Context, e audit.Event, in ServiceInput) (Service, error) {
	var v apperr.Validation
	if in.clean(&v, ""); v.Err() != nil {
		return Service{}, v.Err()
	}
	var out Service
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if _, err := serviceByCode(ctx, tx, in.Code); err == nil {
			return apperr.Conflict("billing.code_taken")
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		now := s.now()
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO services (code, name, category, price, active, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id`, in.Code, in.Name, in.Category, in.Price, *in.Active, now).Scan(&id); err != nil {
			return fmt.Errorf("insert service: %w", err)
		}
		var err error
		if out, err = getService(ctx, tx, id); err != nil {
			return err
		}
		return auditService(ctx, tx, e, "service.create", out)
	})
	return out, err
}

// auditService records a written service in its write's transaction.
func auditService(ctx context.Context, tx *sql.Tx, e audit.Event, action string, sv Service) error {
	e.Action, e.EntityType, e.EntityID, e.Outcome = action, "service", strconv.FormatInt(sv.ID, 10), audit.Success
	set, err := ReadSettings(ctx, tx)
	if err != nil {
		return err
	}
	e.Detail = audit.Phrases(audit.Phrase{Key: "audit.detail.service", Args: []string{sv.Code, amountIn(sv.Price, set.Currency)}})
	return audit.Record(ctx, tx, e)
}

// auditServices records a change to the price list as a whole in its transaction.
func auditServices(ctx context.Context, tx *sql.Tx, e audit.Event, action, detail string) error {
	e.Action, e.EntityType, e.Outcome, e.Detail = action, "services", audit.Success, detail
	return audit.Record(ctx, tx, e)
}

// UpdateService replaces a service's fields if in.Version is still the stored one, audited as
// e's. Bills keep the price and name their lines were charged at.
func (s *Store) UpdateService(ctx context.Context, e audit.Event, id int64, in ServiceInput) (Service, error) {
	var v apperr.Validation
	if in.clean(&v, ""); v.Err() != nil {
		return Service{}, v.Err()
	}
	var out Service
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if other, err := serviceByCode(ctx, tx, in.Code); err == nil && other.ID != id {
			return apperr.Conflict("billing.code_taken")
		} else if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE services SET code = $1, name = $2, category = $3, price = $4, active = $5,
			updated_at = $6, version = version + 1 WHERE id = $7 AND version = $8`,
			in.Code, in.Name, in.Category, in.Price, *in.Active, s.now(), id, in.Version)
		if err != nil {
			return fmt.Errorf("update service: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			if _, err := getService(ctx, tx, id); err != nil {
				return err
			}
			return apperr.Conflict("error.conflict")
		}
		if out, err = getService(ctx, tx, id); err != nil {
			return err
		}
		return auditService(ctx, tx, e, "service.update", out)
	})
	return out, err
}

// The CSV of the price list: a header, then code, name, category, price in the currency's
// major units with its decimals ("350.00"; "200000" in đồng), active (yes/no).
var serviceHeader = []string{"code", "name", "category", "price", "active"}

// ExportServices writes the whole price list as CSV.
func (s *Store) ExportServices(ctx context.Context, w io.Writer, currency string) error {
	list, err := s.Services(ctx, ServiceQuery{All: true})
	if err != nil {
		return err
	}
	cw := httpjson.NewCSV(w)
	cw.Write(serviceHeader...)
	for _, sv := range list {
		active := "yes"
		if !sv.Active {
			active = "no"
		}
		cw.Write(sv.Code, sv.Name, sv.Category, sv.Price.Major(MinorUnits(currency)), active)
	}
	return cw.Flush()
}

// ImportReport says what an import did; Errors are the rejected lines.
type ImportReport struct {
	Inserted  int        `json:"inserted"`
	Updated   int        `json:"updated"`
	Unchanged int        `json:"unchanged"`
	Rejected  int        `json:"rejected"`
	Errors    []RowError `json:"errors"`
}

// RowError is a rejected line of an import, with the message in the importer's language.
type RowError struct {
	Line    int    `json:"line"`
	Field   string `json:"field"`
	Message string `json:"message"`
}

// maxServices bounds an import (and the price list).
const maxServices = 1000

// ImportServices adds the file's new codes and updates the others, in one transaction audited
// as e's; lines with errors are reported and skipped.
func (s *Store) ImportServices(ctx context.Context, e audit.Event, data []byte, currency, lang string) (ImportReport, error) {
	rep := ImportReport{Errors: []RowError{}}
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil || !slices.Equal(lowered(header), serviceHeader[:min(len(header), 5)]) || len(header) < 4 {
		return rep, apperr.Invalid("billing.bad_csv_header")
	}
	var rows []ServiceInput
	seen := map[string]bool{}
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		reject := func(field, message string) {
			rep.Rejected++
			if len(rep.Errors) < 100 {
				rep.Errors = append(rep.Errors, RowError{Line: line, Field: field, Message: message})
			}
		}
		if err != nil {
			reject("", i18n.T(lang, "billing.bad_csv_line"))
			continue
		}
		if len(rows) >= maxServices {
			return rep, apperr.Invalid("billing.too_many_services")
		}
		in := ServiceInput{Code: field(rec, 0), Name: field(rec, 1), Category: strings.ToLower(field(rec, 2))}
		price, err := ParseMajor(lang, field(rec, 3), MinorUnits(currency))
		var v apperr.Validation
		if errors.Is(err, i18n.ErrThousands) {
			v.Add("price", i18n.ErrThousands.Error())
		} else if err != nil {
			v.Add("price", "billing.bad_price_text")
		}
		in.Price = price
		switch strings.ToLower(field(rec, 4)) {
		case "", "yes", "true", "1":
		case "no", "false", "0":
			no := false
			in.Active = &no
		default:
			v.Add("active", "billing.bad_active")
		}
		in.clean(&v, "")
		if seen[in.Code] && in.Code != "" {
			v.Add("code", "billing.code_repeated")
		}
		if f := firstField(v.Err()); f != "" {
			reject(f, rowMessage(lang, rec, f, firstKey(v.Err()), MinorUnits(currency)))
			continue
		}
		seen[in.Code] = true
		rows = append(rows, in)
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		for _, in := range rows {
			old, err := serviceByCode(ctx, tx, in.Code)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				if _, err := tx.ExecContext(ctx, `INSERT INTO services (code, name, category, price, active, created_at, updated_at)
					VALUES ($1, $2, $3, $4, $5, $6, $6)`, in.Code, in.Name, in.Category, in.Price, *in.Active, now); err != nil {
					return fmt.Errorf("insert service: %w", err)
				}
				rep.Inserted++
			case err != nil:
				return err
			case old.Name == in.Name && old.Category == in.Category && old.Price == in.Price && old.Active == *in.Active:
				rep.Unchanged++
			default:
				if _, err := tx.ExecContext(ctx, `UPDATE services SET name = $1, category = $2, price = $3, active = $4, updated_at = $5,
					version = version + 1 WHERE id = $6`, in.Name, in.Category, in.Price, *in.Active, now, old.ID); err != nil {
					return fmt.Errorf("update service: %w", err)
				}
				rep.Updated++
			}
		}
		return auditServices(ctx, tx, e, "service.import", audit.Phrases(audit.Phrase{Key: "audit.detail.import_report",
			Args: []string{strconv.Itoa(rep.Inserted), strconv.Itoa(rep.Updated), strconv.Itoa(rep.Unchanged), strconv.Itoa(rep.Rejected)}}))
	})
	return rep, err
}

func field(rec []string, i int) string {
	if i < len(rec) {
		return strings.TrimSpace(rec[i])
	}
	return ""
}

func lowered(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(strings.TrimSpace(s))
	}
	return out
}

// firstField and firstKey name a validation error's first field (in a fixed order) and its
// message key.
// rowMessage says what is wrong with field f of a rejected line: the line's code and the
// value refused, so that the line is found in a long file, and for a price an example with
// the clinic's currency's decimals (350000 đồng, not 350.50).
func rowMessage(lang string, rec []string, f, key string, units int) string {
	msg := i18n.T(lang, key)
	if key == "billing.bad_price_text" {
		msg = priceHint(lang, units)
	}
	code, value := field(rec, 0), field(rec, slices.Index(serviceHeader, f))
	switch {
	case code == "":
		return msg
	case value == "" || f == "code":
		return i18n.T(lang, "billing.import_row_code", code, msg)
	}
	return i18n.T(lang, "billing.import_row", code, value, msg)
}

// priceHint is how a price in a currency with units decimals is written, with an example.
func priceHint(lang string, units int) string {
	if units == 0 {
		return i18n.T(lang, "billing.bad_price_whole", "350000")
	}
	return i18n.T(lang, "billing.bad_price_text", "350", "350."+("50" + strings.Repeat("0", units))[:units])
}

func firstField(err error) string {
	var e *apperr.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return ""
	}
	for _, f := range []string{"code", "name", "category", "price", "active"} {
		if len(e.Fields[f]) > 0 {
			return f
		}
	}
	return ""
}

func firstKey(err error) string {
	var e *apperr.Error
	errors.As(err, &e)
	return e.Fields[firstField(err)][0]
}

// starter is the small price list a new clinic may begin with: codes, categories and
// names; prices are the clinic's to set (0 until then).
var starter = []struct{ code, category, key string }{
	{"CONS-NEW", "consultation", "billing.starter.consultation_new"},
	{"CONS-FU", "consultation", "billing.starter.consultation_follow_up"},
	{"PROC-DRESS", "procedure", "billing.starter.dressing"},
	{"PROC-INJ", "procedure", "billing.starter.injection"},
	{"PROC-ECG", "procedure", "billing.starter.ecg"},
	{"LAB-CBC", "laboratory", "billing.starter.cbc"},
	{"LAB-UA", "laboratory", "billing.starter.urinalysis"},
	{"LAB-FBS", "laboratory", "billing.starter.glucose"},
	{"IMG-CXR", "imaging", "billing.starter.chest_xray"},
	{"CERT-MED", "certificate", "billing.starter.medical_certificate"},
}

// InstallStarter adds the starter services whose codes are not in the list yet, named in
// lang, at price 0, and says how many it added; audited as e's.
func (s *Store) InstallStarter(ctx context.Context, e audit.Event, lang string) (int, error) {
	added := 0
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		added = 0
		now := s.now()
		for _, st := range starter {
			res, err := tx.ExecContext(ctx, `INSERT INTO services (code, name, category, price, active, created_at, updated_at)
				VALUES ($1, $2, $3, 0, TRUE, $4, $4) ON CONFLICT (code) DO NOTHING`, st.code, i18n.T(lang, st.key), st.category, now)
			if err != nil {
				return fmt.Errorf("insert starter service: %w", err)
			}
			n, _ := res.RowsAffected()
			added += int(n)
		}
		return auditServices(ctx, tx, e, "service.starter", audit.Phrases(audit.Phrase{Key: "audit.detail.added", Args: []string{strconv.Itoa(added)}}))
	})
	return added, err
}

// The moment and the clinic day of a write.
func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return time.Now().UTC()
}
