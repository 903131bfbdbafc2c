package charting

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/prescription"
)

// SetContent is what an order set puts on a visit.
type SetContent struct {
	Diagnoses []appointment.Diagnosis `json:"diagnoses"`
	Orders    []appointment.Order     `json:"orders"`
	Items     []prescription.Item     `json:"items"`
	// Checks are what the doctor is asked to confirm when applying the set.
	Checks []Check `json:"checks"`
	Plan   string  `json:"plan"`
	// FollowUpDays is the follow-up interval: the follow-up date is the visit's day plus
	// this many days (0: none).
	FollowUpDays int `json:"follow_up_days"`
}

// Check is a question a set asks the doctor when it is applied ("Pregnancy excluded"). A set
// keeps only its text; applying writes into the plan only the checks the doctor ticked
// (Done), so that a set never records a finding nobody made.
type Check struct {
	Text string `json:"text"`
	Done bool   `json:"done"`
}

// Limits of a set's checks.
const (
	maxChecks    = 20
	maxCheckText = 300
)

// Set is an order set as the API shows it; diagnoses and orders carry their labels in the
// reader's language.
type Set struct {
	ID       int64      `json:"id"`
	Name     string     `json:"name"`
	Scope    string     `json:"scope"`
	Language string     `json:"language"`
	Example  bool       `json:"example"`
	Content  SetContent `json:"content"`
	// Mine says the reader may change it (their own, or the clinic's with the permission).
	Mine      bool      `json:"mine"`
	UpdatedAt time.Time `json:"updated_at"`
	Version   int       `json:"version"`
}

// SetInput is what creating or changing a set sends.
type SetInput struct {
	Name     string     `json:"name"`
	Scope    string     `json:"scope"`
	Language string     `json:"language"`
	Content  SetContent `json:"content"`
	Version  int        `json:"version"`
}

// MaxFollowUpDays is the longest follow-up interval a set may name.
const MaxFollowUpDays = appointment.MaxFollowUpDays

// checkContent tidies a set's content and checks it against the catalogues.
func checkContent(ctx context.Context, q database.Querier, c *SetContent, v *apperr.Validation) error {
	c.Plan = strings.TrimSpace(c.Plan)
	if utf8.RuneCountInString(c.Plan) > maxBody {
		v.Add("content.plan", "validation.too_long")
	}
	if c.FollowUpDays < 0 || c.FollowUpDays > MaxFollowUpDays {
		v.Add("content.follow_up_days", "charting.follow_up_days")
	}
	if err := appointment.CheckDiagnoses("content.diagnoses", c.Diagnoses, func(code string) (bool, error) { return catalogue.CodeExists(ctx, q, code) }, v); err != nil {
		return err
	}
	if err := appointment.CheckOrders("content.orders", c.Orders, func(code string) (bool, error) { return catalogue.LabTestExists(ctx, q, code) }, v); err != nil {
		return err
	}
	for i := range c.Orders {
		c.Orders[i].Label = "" // filled on reading, in the reader's language
	}
	items, err := prescription.CheckLines(i18n.FromContext(ctx), c.Items)
	if err != nil {
		var bad *apperr.Error
		if !errors.As(err, &bad) {
			return err
		}
		for field, keys := range bad.Fields {
			for _, k := range keys {
				v.Add("content."+field, k)
			}
		}
	}
	c.Items = items
	if len(c.Checks) > maxChecks {
		v.Add("content.checks", "validation.too_many")
	}
	for i := range c.Checks {
		c.Checks[i].Text = strings.Join(strings.Fields(c.Checks[i].Text), " ")
		field := "content.checks." + strconv.Itoa(i) + ".text"
		switch n := utf8.RuneCountInString(c.Checks[i].Text); {
		case n == 0:
			v.Add(field, "validation.required")
		case n > maxCheckText:
			v.Add(field, "validation.too_long")
		}
	}
	for i, it := range c.Items {
		if it.MedicineID == nil {
			continue
		}
		if ok, err := catalogue.MedicineExists(ctx, q, *it.MedicineID); err != nil {
			return err
		} else if !ok {
			v.Add("content.items."+strconv.Itoa(i)+".medicine", "medicine.not_found")
		}
	}
	if c.Diagnoses == nil {
		c.Diagnoses = []appointment.Diagnosis{}
	}
	if c.Orders == nil {
		c.Orders = []appointment.Order{}
	}
	if c.Checks == nil {
		c.Checks = []Check{}
	}
	if len(c.Diagnoses)+len(c.Orders)+len(c.Items)+len(c.Checks) == 0 && c.Plan == "" && c.FollowUpDays == 0 {
		v.Add("content", "charting.set_empty")
	}
	return nil
}

const setColumns = `id, owner_id, name, language, content, example, updated_at, version`

func scanSet(row interface{ Scan(...any) error }) (Set, sql.NullInt64, error) {
	var s Set
	var ownerID sql.NullInt64
	var content string
	if err := row.Scan(&s.ID, &ownerID, &s.Name, &s.Language, &content, &s.Example, &s.UpdatedAt, &s.Version); err != nil {
		return s, ownerID, err
	}
	if err := json.Unmarshal([]byte(content), &s.Content); err != nil {
		return s, ownerID, fmt.Errorf("order set %d: %w", s.ID, err)
	}
	if s.Content.Checks == nil {
		s.Content.Checks = []Check{} // a set saved before sets had checks
	}
	s.Scope, s.UpdatedAt = scopeOf(ownerID), s.UpdatedAt.UTC()
	return s, ownerID, nil
}

// Sets lists the active sets the reader may apply: the clinic's and their own, in their
// language or in any; the clinic's starter sets are installed the first time.
func (s *Store) Sets(ctx context.Context, lang string) ([]Set, error) {
	if err := s.starterOnce(ctx); err != nil {
		return nil, err
	}
	p := auth.PrincipalFrom(ctx)
	rows, err := s.DB.QueryContext(ctx, `SELECT `+setColumns+` FROM order_sets
		WHERE active AND (owner_id IS NULL OR owner_id = $1) AND language IN ('', $2) ORDER BY name, id`, p.UserID, lang)
	if err != nil {
		return nil, fmt.Errorf("list order sets: %w", err)
	}
	defer rows.Close()
	out := []Set{}
	for rows.Next() {
		set, ownerID, err := scanSet(rows)
		if err != nil {
			return nil, err
		}
		set.Mine = ownerID.Valid || p.Can(auth.ManageClinicSets)
		out = append(out, set)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows.Close()
	return out, s.label(ctx, out, lang)
}

// label fills the labels of the sets' diagnoses and orders in lang.
func (s *Store) label(ctx context.Context, sets []Set, lang string) error {
	var codes []string
	for _, set := range sets {
		for _, d := range set.Content.Diagnoses {
			codes = append(codes, d.Code)
		}
	}
	labels, err := s.Codes.Labels(ctx, s.DB, codes, lang)
	if err != nil {
		return err
	}
	tests, err := s.testLabels(ctx, lang)
	if err != nil {
		return err
	}
	for i := range sets {
		c := &sets[i].Content
		for j := range c.Diagnoses {
			c.Diagnoses[j].Label = labels[c.Diagnoses[j].Code]
		}
		for j := range c.Orders {
			c.Orders[j].Label = tests[c.Orders[j].Code]
		}
	}
	return nil
}

func (s *Store) testLabels(ctx context.Context, lang string) (map[string]string, error) {
	tests, err := s.Codes.LabTests(ctx, lang)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(tests))
	for _, t := range tests {
		out[t.Code] = t.Label
	}
	return out, nil
}

func (s *Store) getSet(ctx context.Context, q database.Querier, id int64) (Set, sql.NullInt64, error) {
	set, ownerID, err := scanSet(q.QueryRowContext(ctx, `SELECT `+setColumns+` FROM order_sets WHERE id = $1 AND active`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return set, ownerID, apperr.NotFound("charting.not_found")
	}
	return set, ownerID, err
}

// Set reads one set the reader may apply.
func (s *Store) Set(ctx context.Context, id int64, lang string) (Set, error) {
	set, ownerID, err := s.getSet(ctx, s.DB, id)
	if err != nil {
		return set, err
	}
	p := auth.PrincipalFrom(ctx)
	if ownerID.Valid && ownerID.Int64 != p.UserID {
		return Set{}, apperr.NotFound("charting.not_found")
	}
	set.Mine = ownerID.Valid || p.Can(auth.ManageClinicSets)
	list := []Set{set}
	if err := s.label(ctx, list, lang); err != nil {
		return Set{}, err
	}
	return list[0], nil
}

func (in *SetInput) check(ctx context.Context, q database.Querier) error {
	var v apperr.Validation
	in.Name = checkName("name", in.Name, &v)
	checkLanguage(in.Language, &v)
	if err := checkContent(ctx, q, &in.Content, &v); err != nil {
		return err
	}
	for i := range in.Content.Checks {
		in.Content.Checks[i].Done = false // a set asks; only applying it answers
	}
	return v.Err()
}

// CreateSet adds a set, the reader's own or (with the permission) the clinic's.
func (s *Store) CreateSet(ctx context.Context, e audit.Event, in SetInput, lang string) (Set, error) {
	ownerID, err := owner(ctx, in.Scope)
	if err != nil {
		return Set{}, err
	}
	var id int64
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := in.check(ctx, tx); err != nil {
			return err
		}
		if err := countOwned(ctx, tx, `SELECT COUNT(*) FROM order_sets WHERE active AND (owner_id = $1 OR (owner_id IS NULL AND NOT $2))`, ownerID); err != nil {
			return err
		}
		content, _ := json.Marshal(in.Content)
		now := s.now()
		if err := tx.QueryRowContext(ctx, `INSERT INTO order_sets (owner_id, name, language, content, created_at, created_by, updated_at, updated_by)
			VALUES ($1, $2, $3, $4, $5, $6, $5, $6) RETURNING id`, ownerID, in.Name, in.Language, string(content), now, e.ActorID).Scan(&id); err != nil {
			return fmt.Errorf("insert order set: %w", err)
		}
		return record(ctx, tx, e, "order_set.create", "order_set", id, now, scopeOf(ownerID))
	})
	if err != nil {
		return Set{}, err
	}
	return s.Set(ctx, id, lang)
}

// UpdateSet changes a set the reader keeps, at its version; its scope stays.
func (s *Store) UpdateSet(ctx context.Context, e audit.Event, id int64, in SetInput, lang string) (Set, error) {
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, ownerID, err := s.getSet(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := mayChange(ctx, ownerID); err != nil {
			return err
		}
		if old.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		if err := in.check(ctx, tx); err != nil {
			return err
		}
		content, _ := json.Marshal(in.Content)
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE order_sets SET name = $1, language = $2, content = $3, example = FALSE, updated_at = $4,
			updated_by = $5, version = version + 1 WHERE id = $6`, in.Name, in.Language, string(content), now, e.ActorID, id); err != nil {
			return fmt.Errorf("update order set: %w", err)
		}
		return record(ctx, tx, e, "order_set.update", "order_set", id, now, scopeOf(ownerID))
	})
	if err != nil {
		return Set{}, err
	}
	return s.Set(ctx, id, lang)
}

// DeleteSet retires a set the reader keeps (it stays in the database for the audit trail).
func (s *Store) DeleteSet(ctx context.Context, e audit.Event, id int64, version int) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, ownerID, err := s.getSet(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := mayChange(ctx, ownerID); err != nil {
			return err
		}
		if old.Version != version {
			return apperr.Conflict("error.conflict")
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE order_sets SET active = FALSE, updated_at = $1, updated_by = $2, version = version + 1
			WHERE id = $3`, now, e.ActorID, id); err != nil {
			return fmt.Errorf("delete order set: %w", err)
		}
		return record(ctx, tx, e, "order_set.delete", "order_set", id, now, scopeOf(ownerID))
	})
}
