package charting

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
)

// Sections a snippet expands in ("any": every text of the visit).
var Sections = []string{"any", "complaint", "history", "examination", "plan"}

// Snippet is a text that expands where its shortcut is typed, with placeholders filled from
// the chart ({{age}}, {{sex}}, {{vitals.bp}}, {{allergies}}, {{last.<analyte>}}).
type Snippet struct {
	ID       int64  `json:"id"`
	Scope    string `json:"scope"`
	Section  string `json:"section"`
	Shortcut string `json:"shortcut"`
	Language string `json:"language"`
	Body     string `json:"body"`
	Example  bool   `json:"example"`
	// Mine says the reader may change it.
	Mine      bool      `json:"mine"`
	UpdatedAt time.Time `json:"updated_at"`
	Version   int       `json:"version"`
}

// SnippetInput is what creating or changing a snippet sends.
type SnippetInput struct {
	Scope    string `json:"scope"`
	Section  string `json:"section"`
	Shortcut string `json:"shortcut"`
	Language string `json:"language"`
	Body     string `json:"body"`
	Version  int    `json:"version"`
}

// A shortcut is ";" then 1 to 20 letters, digits or "-" in any script (";ntd", ";нтд").
var shortcutPattern = regexp.MustCompile(`^;[\p{L}\p{N}-]{1,20}$`)

// Placeholders a snippet may name; last.<analyte> takes any analyte's code.
var Placeholders = []string{"age", "sex", "vitals.bp", "allergies", "last.HbA1c"}

var placeholderPattern = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

func knownPlaceholder(name string) bool {
	return slices.Contains(Placeholders, name) || (strings.HasPrefix(name, "last.") && len(name) > 5 && len(name) <= 30)
}

func (in *SnippetInput) check() error {
	var v apperr.Validation
	in.Shortcut = strings.ToLower(strings.TrimSpace(in.Shortcut))
	in.Body = strings.TrimSpace(in.Body)
	if !shortcutPattern.MatchString(in.Shortcut) {
		v.Add("shortcut", "charting.shortcut")
	}
	if !slices.Contains(Sections, in.Section) {
		v.Add("section", "charting.section")
	}
	checkLanguage(in.Language, &v)
	switch {
	case in.Body == "":
		v.Add("body", "validation.required")
	case utf8.RuneCountInString(in.Body) > maxBody:
		v.Add("body", "validation.too_long")
	}
	for _, m := range placeholderPattern.FindAllStringSubmatch(in.Body, -1) {
		if !knownPlaceholder(m[1]) {
			v.Add("body", "charting.placeholder")
			break
		}
	}
	return v.Err()
}

const snippetColumns = `id, owner_id, section, shortcut, language, body, example, updated_at, version`

func scanSnippet(row interface{ Scan(...any) error }) (Snippet, sql.NullInt64, error) {
	var s Snippet
	var ownerID sql.NullInt64
	err := row.Scan(&s.ID, &ownerID, &s.Section, &s.Shortcut, &s.Language, &s.Body, &s.Example, &s.UpdatedAt, &s.Version)
	s.Scope, s.UpdatedAt = scopeOf(ownerID), s.UpdatedAt.UTC()
	return s, ownerID, err
}

// Snippets lists the active snippets the reader types with: their own and the clinic's, in
// their language or in any (their own first, so that a personal shortcut wins).
func (s *Store) Snippets(ctx context.Context, lang string) ([]Snippet, error) {
	if err := s.starterOnce(ctx); err != nil {
		return nil, err
	}
	p := auth.PrincipalFrom(ctx)
	rows, err := s.DB.QueryContext(ctx, `SELECT `+snippetColumns+` FROM snippets
		WHERE active AND (owner_id IS NULL OR owner_id = $1) AND language IN ('', $2)
		ORDER BY CASE WHEN owner_id IS NULL THEN 1 ELSE 0 END, shortcut, id`, p.UserID, lang)
	if err != nil {
		return nil, fmt.Errorf("list snippets: %w", err)
	}
	defer rows.Close()
	out := []Snippet{}
	for rows.Next() {
		sn, ownerID, err := scanSnippet(rows)
		if err != nil {
			return nil, err
		}
		sn.Mine = ownerID.Valid || p.Can(auth.ManageClinicSets)
		out = append(out, sn)
	}
	return out, rows.Err()
}

func getSnippet(ctx context.Context, q database.Querier, id int64) (Snippet, sql.NullInt64, error) {
	sn, ownerID, err := scanSnippet(q.QueryRowContext(ctx, `SELECT `+snippetColumns+` FROM snippets WHERE id = $1 AND active`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return sn, ownerID, apperr.NotFound("charting.not_found")
	}
	if err != nil {
		return sn, ownerID, fmt.Errorf("read snippet: %w", err)
	}
	return sn, ownerID, nil
}

// shortcutTaken refuses a shortcut the same owner already has for the same language.
func shortcutTaken(ctx context.Context, tx *sql.Tx, ownerID sql.NullInt64, in SnippetInput, except int64) error {
	var taken bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM snippets WHERE active AND shortcut = $1 AND language = $2 AND id <> $3
		AND ((owner_id IS NULL AND NOT $4) OR owner_id = $5))`, in.Shortcut, in.Language, except, ownerID.Valid, ownerID.Int64).Scan(&taken); err != nil {
		return fmt.Errorf("check shortcut: %w", err)
	}
	if taken {
		var v apperr.Validation
		v.Add("shortcut", "charting.shortcut_taken")
		return v.Err()
	}
	return nil
}

// readSnippet reads one snippet the reader may use after a write.
func (s *Store) readSnippet(ctx context.Context, id int64) (Snippet, error) {
	sn, ownerID, err := getSnippet(ctx, s.DB, id)
	sn.Mine = ownerID.Valid || auth.PrincipalFrom(ctx).Can(auth.ManageClinicSets)
	return sn, err
}

// CreateSnippet adds a snippet, the reader's own or (with the permission) the clinic's.
func (s *Store) CreateSnippet(ctx context.Context, e audit.Event, in SnippetInput) (Snippet, error) {
	ownerID, err := owner(ctx, in.Scope)
	if err != nil {
		return Snippet{}, err
	}
	if err := in.check(); err != nil {
		return Snippet{}, err
	}
	var id int64
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := countOwned(ctx, tx, `SELECT COUNT(*) FROM snippets WHERE active AND (owner_id = $1 OR (owner_id IS NULL AND NOT $2))`, ownerID); err != nil {
			return err
		}
		if err := shortcutTaken(ctx, tx, ownerID, in, 0); err != nil {
			return err
		}
		now := s.now()
		if err := tx.QueryRowContext(ctx, `INSERT INTO snippets (owner_id, section, shortcut, language, body, created_at, created_by, updated_at, updated_by)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $6, $7) RETURNING id`, ownerID, in.Section, in.Shortcut, in.Language, in.Body, now, e.ActorID).Scan(&id); err != nil {
			return fmt.Errorf("insert snippet: %w", err)
		}
		return record(ctx, tx, e, "snippet.create", "snippet", id, now, scopeOf(ownerID)+" "+in.Shortcut)
	})
	if err != nil {
		return Snippet{}, err
	}
	return s.readSnippet(ctx, id)
}

// UpdateSnippet changes a snippet the reader keeps, at its version.
func (s *Store) UpdateSnippet(ctx context.Context, e audit.Event, id int64, in SnippetInput) (Snippet, error) {
	if err := in.check(); err != nil {
		return Snippet{}, err
	}
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, ownerID, err := getSnippet(ctx, tx, id)
		if err != nil {
			return err
		}
		if err := mayChange(ctx, ownerID); err != nil {
			return err
		}
		if old.Version != in.Version {
			return apperr.Conflict("error.conflict")
		}
		if err := shortcutTaken(ctx, tx, ownerID, in, id); err != nil {
			return err
		}
		now := s.now()
		if _, err := tx.ExecContext(ctx, `UPDATE snippets SET section = $1, shortcut = $2, language = $3, body = $4, example = FALSE,
			updated_at = $5, updated_by = $6, version = version + 1 WHERE id = $7`, in.Section, in.Shortcut, in.Language, in.Body, now, e.ActorID, id); err != nil {
			return fmt.Errorf("update snippet: %w", err)
		}
		return record(ctx, tx, e, "snippet.update", "snippet", id, now, scopeOf(ownerID)+" "+in.Shortcut)
	})
	if err != nil {
		return Snippet{}, err
	}
	return s.readSnippet(ctx, id)
}

// DeleteSnippet retires a snippet the reader keeps.
func (s *Store) DeleteSnippet(ctx context.Context, e audit.Event, id int64, version int) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		old, ownerID, err := getSnippet(ctx, tx, id)
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
		if _, err := tx.ExecContext(ctx, `UPDATE snippets SET active = FALSE, updated_at = $1, updated_by = $2, version = version + 1 WHERE id = $3`,
			now, e.ActorID, id); err != nil {
			return fmt.Errorf("delete snippet: %w", err)
		}
		return record(ctx, tx, e, "snippet.delete", "snippet", id, now, scopeOf(ownerID)+" "+old.Shortcut)
	})
}

// analytesNamed are the analytes the reader's snippets name in {{last.<analyte>}}.
func (s *Store) analytesNamed(ctx context.Context, lang string) ([]string, error) {
	list, err := s.Snippets(ctx, lang)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, sn := range list {
		for _, m := range placeholderPattern.FindAllStringSubmatch(sn.Body, -1) {
			if a, ok := strings.CutPrefix(m[1], "last."); ok && !slices.Contains(out, strings.ToUpper(a)) {
				out = append(out, strings.ToUpper(a))
			}
		}
	}
	return out, nil
}
