// Package document keeps the clinic's document templates and the documents issued from
// them: medical certificates, fitness to work, referral letters, laboratory and imaging
// requests, visit summaries. An issued document is frozen, numbered gap-free per kind and
// year, and verifiable by anyone holding it at /verify/{code} (ADR 23).
package document

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/i18n"
)

// Kinds of document, in the order screens list them, with the prefix of their numbers.
var Kinds = []string{"medical_certificate", "fitness_to_work", "referral", "lab_request", "imaging_request", "results_report", "visit_summary", "immunisation_card", "custom"}

var prefixes = map[string]string{"medical_certificate": "MC", "fitness_to_work": "FW", "referral": "RF", "lab_request": "LR",
	"imaging_request": "IR", "results_report": "RR", "visit_summary": "VS", "immunisation_card": "IC", "custom": "DC"}

// Papers a template may print on.
var Papers = []string{"a6-portrait", "a5-portrait", "a5-landscape", "a4-portrait", "a4-landscape"}

// FieldTypes are the kinds of value a declared field takes.
var FieldTypes = []string{"text", "long_text", "number", "date"}

// Field is a value a template declares, filled by the doctor when issuing.
type Field struct {
	Key      string `json:"key"`
	Label    string `json:"label"`
	Type     string `json:"type"`
	Required bool   `json:"required"`
}

// Template is a clinic's document template.
type Template struct {
	ID       int64   `json:"id"`
	Name     string  `json:"name"`
	Kind     string  `json:"kind"`
	Language string  `json:"language"`
	Paper    string  `json:"paper"`
	Body     string  `json:"body"`
	Fields   []Field `json:"fields"`
	Active   bool    `json:"active"`
	// NeedsVisit says the template fills a visit's values (or is a visit summary): it is
	// issued from a visit only.
	NeedsVisit bool      `json:"needs_visit"`
	UpdatedAt  time.Time `json:"updated_at"`
	Version    int       `json:"version"`
}

// TemplateInput is what a manager writes of a template.
type TemplateInput struct {
	Name     string  `json:"name"`
	Kind     string  `json:"kind"`
	Language string  `json:"language"`
	Paper    string  `json:"paper"`
	Body     string  `json:"body"`
	Fields   []Field `json:"fields"`
	Active   *bool   `json:"active"`
	Version  int     `json:"version"`
}

var fieldKey = regexp.MustCompile(`^[a-z][a-z0-9_]{0,39}$`)

// clean trims the input and checks it; the body is parsed with the fields declared.
func (in *TemplateInput) clean() ([]line, error) {
	var v apperr.Validation
	in.Name = strings.TrimSpace(in.Name)
	switch {
	case in.Name == "":
		v.Add("name", "validation.required")
	case utf8.RuneCountInString(in.Name) > 120:
		v.Add("name", "validation.too_long")
	}
	if !slices.Contains(Kinds, in.Kind) {
		v.Add("kind", "document.bad_kind")
	}
	if !slices.Contains(i18n.Languages, in.Language) {
		v.Add("language", "document.bad_language")
	}
	if !slices.Contains(Papers, in.Paper) {
		v.Add("paper", "document.bad_paper")
	}
	if in.Fields == nil {
		in.Fields = []Field{}
	}
	if len(in.Fields) > MaxFields {
		v.Add("fields", "validation.too_many")
	}
	seen := map[string]bool{}
	for i := range in.Fields {
		f := &in.Fields[i]
		f.Key, f.Label = strings.TrimSpace(f.Key), strings.TrimSpace(f.Label)
		at := fmt.Sprintf("fields.%d.", i)
		switch {
		case !fieldKey.MatchString(f.Key):
			v.Add(at+"key", "document.bad_field_key")
		case seen[f.Key]:
			v.Add(at+"key", "document.duplicate_field")
		}
		seen[f.Key] = true
		switch {
		case f.Label == "":
			v.Add(at+"label", "validation.required")
		case utf8.RuneCountInString(f.Label) > 100:
			v.Add(at+"label", "validation.too_long")
		}
		if !slices.Contains(FieldTypes, f.Type) {
			v.Add(at+"type", "document.bad_field_type")
		}
	}
	if strings.TrimSpace(in.Body) == "" {
		v.Add("body", "validation.required")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	return parseBody(in.Body, in.Fields)
}

// parseBody parses a body whose placeholders may name the declared fields; a mistake is a
// validation error of the field "body" whose sentence names the line.
func parseBody(body string, fields []Field) ([]line, error) {
	lines, err := parse(body, func(key string) bool {
		if name, ok := strings.CutPrefix(key, "field."); ok {
			if base, ok := strings.CutSuffix(name, "_until"); ok && period(fields, base) {
				return true
			}
			return slices.ContainsFunc(fields, func(f Field) bool { return f.Key == name })
		}
		return slices.Contains(Placeholders, key)
	})
	var le lineError
	switch {
	case errors.As(err, &le) && le.Line == 0:
		var v apperr.Validation
		v.Add("body", le.Key)
		return nil, v.Err()
	case errors.As(err, &le) && le.Arg != "":
		return nil, &apperr.Error{Kind: apperr.KindInvalid, Key: le.Key, Args: []any{le.Line, le.Arg}}
	case errors.As(err, &le):
		return nil, &apperr.Error{Kind: apperr.KindInvalid, Key: le.Key, Args: []any{le.Line}}
	}
	return lines, err
}

// period tells whether fields declare a period named base: a number field base_days and a
// date field base_from, whose last day the placeholder field.base_until prints.
func period(fields []Field, base string) bool {
	has := func(key, typ string) bool {
		return slices.ContainsFunc(fields, func(f Field) bool { return f.Key == key && f.Type == typ })
	}
	return has(base+"_days", "number") && has(base+"_from", "date")
}

const templateColumns = `id, name, kind, language, paper, body, fields, active, updated_at, version`

func scanTemplate(row interface{ Scan(...any) error }) (Template, error) {
	var t Template
	var fields string
	if err := row.Scan(&t.ID, &t.Name, &t.Kind, &t.Language, &t.Paper, &t.Body, &fields, &t.Active, &t.UpdatedAt, &t.Version); err != nil {
		return t, err
	}
	t.UpdatedAt = t.UpdatedAt.UTC()
	if err := json.Unmarshal([]byte(fields), &t.Fields); err != nil {
		return t, err
	}
	lines, err := parseBody(t.Body, t.Fields)
	t.NeedsVisit = err != nil || needsVisit(t.Kind, lines)
	return t, nil
}

// TemplateQuery filters the template list.
type TemplateQuery struct {
	All      bool   // inactive ones too
	Kind     string // one kind, or all
	Language string // one language, or all
}

// Templates lists the templates by kind, language and name. The first list a clinic ever
// reads installs the starter templates.
func (s *Store) Templates(ctx context.Context, q TemplateQuery) ([]Template, error) {
	if err := s.starterOnce(ctx); err != nil {
		return nil, err
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT `+templateColumns+` FROM document_templates
		WHERE ($1 OR active) AND ($2 = '' OR kind = $2) AND ($3 = '' OR language = $3) ORDER BY kind, language, name`, q.All, q.Kind, q.Language)
	if err != nil {
		return nil, fmt.Errorf("list templates: %w", err)
	}
	defer rows.Close()
	out := []Template{}
	for rows.Next() {
		t, err := scanTemplate(rows)
		if err != nil {
			return nil, fmt.Errorf("list templates: %w", err)
		}
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b Template) int { return slices.Index(Kinds, a.Kind) - slices.Index(Kinds, b.Kind) })
	return out, rows.Err()
}

func getTemplate(ctx context.Context, q database.Querier, id int64) (Template, error) {
	t, err := scanTemplate(q.QueryRowContext(ctx, `SELECT `+templateColumns+` FROM document_templates WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return t, apperr.NotFound("document.template_not_found")
	}
	if err != nil {
		return t, fmt.Errorf("read template: %w", err)
	}
	return t, nil
}

// Template reads one template.
func (s *Store) Template(ctx context.Context, id int64) (Template, error) {
	return getTemplate(ctx, s.DB, id)
}

// nameFree checks that no other template of the language has the name.
func nameFree(ctx context.Context, tx *sql.Tx, language, name string, except int64) error {
	var taken bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM document_templates WHERE language = $1 AND name = $2 AND id <> $3)`,
		language, name, except).Scan(&taken); err != nil {
		return fmt.Errorf("read template names: %w", err)
	}
	if taken {
		var v apperr.Validation
		v.Add("name", "document.template_name_taken")
		return v.Err()
	}
	return nil
}

// CreateTemplate adds a template, audited as e's.
func (s *Store) CreateTemplate(ctx context.Context, e audit.Event, in TemplateInput) (Template, error) {
	if _, err := in.clean(); err != nil {
		return Template{}, err
	}
	fields, _ := json.Marshal(in.Fields)
	active := in.Active == nil || *in.Active
	var t Template
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := nameFree(ctx, tx, in.Language, in.Name, 0); err != nil {
			return err
		}
		var id int64
		now := s.now()
		if err := tx.QueryRowContext(ctx, `INSERT INTO document_templates (name, kind, language, paper, body, fields, active, created_at, updated_at, updated_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) RETURNING id`, in.Name, in.Kind, in.Language, in.Paper, in.Body, string(fields), active, now, e.ActorID).Scan(&id); err != nil {
			return fmt.Errorf("insert template: %w", err)
		}
		var err error
		if t, err = getTemplate(ctx, tx, id); err != nil {
			return err
		}
		return auditTemplate(ctx, tx, e, "document_template.create", t)
	})
	return t, err
}

// auditTemplate records a written template in its write's transaction.
func auditTemplate(ctx context.Context, tx *sql.Tx, e audit.Event, action string, t Template) error {
	e.Action, e.EntityType, e.EntityID, e.Outcome, e.Detail = action, "document_template", strconv.FormatInt(t.ID, 10), audit.Success, t.Name
	return audit.Record(ctx, tx, e)
}

// UpdateTemplate changes a template at in.Version, audited as e's; documents already issued
// keep what they were issued with.
func (s *Store) UpdateTemplate(ctx context.Context, e audit.Event, id int64, in TemplateInput) (Template, error) {
	if _, err := in.clean(); err != nil {
		return Template{}, err
	}
	fields, _ := json.Marshal(in.Fields)
	var t Template
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, err := getTemplate(ctx, tx, id)
		if err != nil {
			return err
		}
		if old.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		if err := nameFree(ctx, tx, in.Language, in.Name, id); err != nil {
			return err
		}
		active := old.Active
		if in.Active != nil {
			active = *in.Active
		}
		if _, err := tx.ExecContext(ctx, `UPDATE document_templates SET name = $1, kind = $2, language = $3, paper = $4, body = $5, fields = $6,
			active = $7, updated_at = $8, updated_by = $9, version = version + 1 WHERE id = $10`,
			in.Name, in.Kind, in.Language, in.Paper, in.Body, string(fields), active, s.now(), e.ActorID, id); err != nil {
			return fmt.Errorf("update template: %w", err)
		}
		if t, err = getTemplate(ctx, tx, id); err != nil {
			return err
		}
		return auditTemplate(ctx, tx, e, "document_template.update", t)
	})
	return t, err
}

const starterCounter = "document-templates:starter"

// starterOnce installs the starter templates the first time a clinic lists its templates.
func (s *Store) starterOnce(ctx context.Context) error {
	if n, err := database.Counter(ctx, s.DB, starterCounter); err != nil || n > 0 {
		return err
	}
	_, err := s.InstallStarter(ctx, audit.Event{})
	return err
}

// InstallStarter adds the starter templates in every language whose names are not taken
// yet, and answers how many it added; asked by a person (e's actor), it is audited as theirs.
func (s *Store) InstallStarter(ctx context.Context, e audit.Event) (int, error) {
	added := 0
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		added = 0
		now := s.now()
		var actor any
		if e.ActorID != 0 {
			actor = e.ActorID
		}
		for _, st := range starterTemplates() {
			if st.Fields == nil {
				st.Fields = []Field{}
			}
			fields, _ := json.Marshal(st.Fields)
			res, err := tx.ExecContext(ctx, `INSERT INTO document_templates (name, kind, language, paper, body, fields, starter, created_at, updated_at, updated_by)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9) ON CONFLICT (language, name) DO NOTHING`,
				st.Name, st.Kind, st.Language, st.Paper, st.Body, string(fields), st.Kind, now, actor)
			if err != nil {
				return fmt.Errorf("insert starter template: %w", err)
			}
			n, _ := res.RowsAffected()
			added += int(n)
		}
		if err := database.SetCounter(ctx, tx, starterCounter, 1); err != nil || e.ActorID == 0 {
			return err
		}
		e.Action, e.EntityType, e.Outcome, e.Detail = "document_template.starter", "document_template", audit.Success, fmt.Sprintf("added %d", added)
		return audit.Record(ctx, tx, e)
	})
	return added, err
}
