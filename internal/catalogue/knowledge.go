package catalogue

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
)

// A clinic's own additions to the medicine-safety knowledge (ADR 25): brand and combination
// names (what a local pharmacy sells under a name the shipped list lacks) and interaction
// rules. Every write raises a counter in its transaction; a check reads the counter and
// rebuilds the clinic's knowledge only when it moved, so every server of a clinic sees a
// change at its next check.

const knowledgeCounter = "catalogue:drug_knowledge"

// ClinicAlias is a brand or combination name a clinic added.
type ClinicAlias struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Ingredients string    `json:"ingredients"`
	CreatedBy   string    `json:"created_by"`
	CreatedAt   time.Time `json:"created_at"`
}

// ClinicInteractionRule is an interaction rule a clinic added, between what two texts name.
type ClinicInteractionRule struct {
	ID int64 `json:"id"`
	RuleInput
	CreatedBy string    `json:"created_by"`
	CreatedAt time.Time `json:"created_at"`
}

type cachedKnowledge struct {
	generation int64
	drugs      *Drugs
}

// knowledgeCache holds each database's knowledge (one in a server; tests open several).
var knowledgeCache = struct {
	sync.Mutex
	of map[*database.DB]cachedKnowledge
}{of: map[*database.DB]cachedKnowledge{}}

// DrugsFor returns the shipped knowledge with the clinic's additions in db, read through q
// (db itself, or a transaction on it).
func DrugsFor(ctx context.Context, db *database.DB, q database.Querier) (*Drugs, error) {
	gen, err := database.Counter(ctx, q, knowledgeCounter)
	if err != nil {
		return nil, err
	}
	if gen == 0 {
		return KnownDrugs, nil
	}
	knowledgeCache.Lock()
	defer knowledgeCache.Unlock()
	if c, ok := knowledgeCache.of[db]; ok && c.generation == gen {
		return c.drugs, nil
	}
	aliases, err := clinicAliases(ctx, q)
	if err != nil {
		return nil, err
	}
	rules, err := clinicRules(ctx, q)
	if err != nil {
		return nil, err
	}
	var as []Alias
	for _, a := range aliases {
		as = append(as, Alias{Name: a.Name, Ingredients: a.Ingredients})
	}
	var rs []Interaction
	for _, r := range rules {
		rs = append(rs, ClinicInteraction(r.ID, r.First, r.Second, r.Severity, r.Effect, r.Action, r.Note, r.Source))
	}
	d, err := KnownDrugs.With(as, rs)
	if err != nil {
		return nil, err
	}
	knowledgeCache.of[db] = cachedKnowledge{gen, d}
	return d, nil
}

func clinicAliases(ctx context.Context, q database.Querier) ([]ClinicAlias, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, name, ingredients, created_by, created_at FROM drug_aliases ORDER BY name_key`)
	if err != nil {
		return nil, fmt.Errorf("read drug aliases: %w", err)
	}
	defer rows.Close()
	out := []ClinicAlias{}
	for rows.Next() {
		var a ClinicAlias
		if err := rows.Scan(&a.ID, &a.Name, &a.Ingredients, &a.CreatedBy, &a.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

func clinicRules(ctx context.Context, q database.Querier) ([]ClinicInteractionRule, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, first, second, severity, effect, action, note, source, created_by, created_at
		FROM drug_interactions ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("read drug interactions: %w", err)
	}
	defer rows.Close()
	out := []ClinicInteractionRule{}
	for rows.Next() {
		var r ClinicInteractionRule
		if err := rows.Scan(&r.ID, &r.First, &r.Second, &r.Severity, &r.Effect, &r.Action, &r.Note, &r.Source, &r.CreatedBy, &r.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// SafetyKnowledge is what the medicine-safety check knows: the shipped knowledge's size and
// the clinic's additions.
type SafetyKnowledge struct {
	Substances         int                     `json:"substances"`
	Aliases            int                     `json:"aliases"`
	Classes            int                     `json:"classes"`
	CrossSensitivities int                     `json:"cross_sensitivities"`
	Interactions       int                     `json:"interactions"`
	ClinicAliases      []ClinicAlias           `json:"clinic_aliases"`
	ClinicInteractions []ClinicInteractionRule `json:"clinic_interactions"`
	SubstanceNames     []SubstanceName         `json:"substance_names"`
}

// SubstanceName is a substance's key and its name in the caller's language, for pickers.
type SubstanceName struct {
	Key  string `json:"key"`
	Name string `json:"name"`
}

// Knowledge lists the knowledge and the clinic's additions.
func (s *Store) Knowledge(ctx context.Context, lang string) (SafetyKnowledge, error) {
	k := SafetyKnowledge{Substances: len(KnownDrugs.Substances), Aliases: KnownDrugs.Aliases, Classes: len(KnownDrugs.Classes),
		CrossSensitivities: len(KnownDrugs.Cross), Interactions: len(KnownDrugs.Interactions)}
	var err error
	if k.ClinicAliases, err = clinicAliases(ctx, s.DB); err != nil {
		return k, err
	}
	if k.ClinicInteractions, err = clinicRules(ctx, s.DB); err != nil {
		return k, err
	}
	for _, sub := range KnownDrugs.Substances {
		k.SubstanceNames = append(k.SubstanceNames, SubstanceName{Key: sub.Key, Name: sub.Names.In(lang)})
	}
	return k, nil
}

// aliasRow reads an alias: a name of at most 100 characters that reads as words, and
// ingredients the knowledge knows (in any of the four languages). It returns the name as
// kept, its key and the ingredient keys; or the field at fault and the message key.
func aliasRow(name, ingredients string) (a ClinicAlias, key, field, problem string) {
	a.Name = strings.Join(strings.Fields(name), " ")
	key = strings.Join(tokens(a.Name), " ")
	switch {
	case key == "":
		return a, key, "name", "validation.required"
	case utf8.RuneCountInString(a.Name) > 100:
		return a, key, "name", "validation.too_long"
	case strings.TrimSpace(ingredients) == "":
		return a, key, "ingredients", "validation.required"
	case KnownDrugs.knows(a.Name):
		// The shipped name would win where both match: the clinic's would never be read.
		return a, key, "name", "medicine_safety.alias_known"
	}
	keys, err := KnownDrugs.ingredientKeys(ingredients)
	if err != nil {
		return a, key, "ingredients", "medicine_safety.unknown_ingredient"
	}
	a.Ingredients = strings.Join(keys, " + ")
	return a, key, "", ""
}

// AddAlias adds a clinic's brand or combination name; a name the clinic already added is
// refused (409).
func (s *Store) AddAlias(ctx context.Context, e audit.Event, name, ingredients string) (ClinicAlias, error) {
	a, key, field, problem := aliasRow(name, ingredients)
	if problem != "" {
		var v apperr.Validation
		v.Add(field, problem)
		return ClinicAlias{}, v.Err()
	}
	a.CreatedBy, a.CreatedAt = e.ActorName, time.Now().UTC()
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM drug_aliases WHERE name_key = $1`, key).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return apperr.Conflict("medicine_safety.alias_exists")
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO drug_aliases (name, name_key, ingredients, created_by, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			a.Name, key, a.Ingredients, a.CreatedBy, a.CreatedAt).Scan(&a.ID); err != nil {
			return fmt.Errorf("add drug alias: %w", err)
		}
		return knowledgeChanged(ctx, tx, e, "medicine_safety.alias_add", "alias", a.ID, a.Name+" = "+a.Ingredients)
	})
	return a, err
}

// ImportAliases reads a CSV with the columns name and ingredients ("amoxicillin +
// clavulanic acid"): new names are added, known ones get the file's ingredients.
func (s *Store) ImportAliases(ctx context.Context, e audit.Event, data []byte) (ImportReport, error) {
	type row struct {
		ClinicAlias
		key string
	}
	var rows []row
	bad, err := readCSV(data, []string{"name", "ingredients"}, func(field func(string) string) string {
		a, key, _, problem := aliasRow(field("name"), field("ingredients"))
		if problem == "" {
			rows = append(rows, row{a, key})
		}
		return problem
	})
	if err != nil {
		return ImportReport{}, err
	}
	rep := newReport(bad)
	if len(rows) == 0 && len(bad) == 0 {
		return rep, apperr.Invalid("catalogue.empty")
	}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		now := time.Now().UTC()
		for _, r := range rows {
			var id int64
			var have string
			err := tx.QueryRowContext(ctx, `SELECT id, ingredients FROM drug_aliases WHERE name_key = $1`, r.key).Scan(&id, &have)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				if _, err := tx.ExecContext(ctx, `INSERT INTO drug_aliases (name, name_key, ingredients, created_by, created_at) VALUES ($1, $2, $3, $4, $5)`,
					r.Name, r.key, r.Ingredients, e.ActorName, now); err != nil {
					return fmt.Errorf("import drug alias: %w", err)
				}
				rep.Inserted++
			case err != nil:
				return err
			case have == r.Ingredients:
				rep.Unchanged++
			default:
				if _, err := tx.ExecContext(ctx, `UPDATE drug_aliases SET ingredients = $1 WHERE id = $2`, r.Ingredients, id); err != nil {
					return err
				}
				rep.Updated++
			}
		}
		return knowledgeChanged(ctx, tx, e, "medicine_safety.alias_import", "alias", 0,
			fmt.Sprintf("%d added, %d updated, %d rejected", rep.Inserted, rep.Updated, rep.Rejected))
	})
	return rep, err
}

// RuleInput is a clinic's interaction rule as an administrator writes it.
type RuleInput struct {
	First    string `json:"first"`
	Second   string `json:"second"`
	Severity string `json:"severity"`
	Effect   string `json:"effect"`
	Action   string `json:"action"`
	Note     string `json:"note"`
	Source   string `json:"source"`
}

// AddInteraction adds a clinic's interaction rule; each side must name something the
// knowledge (with the clinic's aliases) recognises, so that the rule can ever fire.
func (s *Store) AddInteraction(ctx context.Context, e audit.Event, in RuleInput) (ClinicInteractionRule, error) {
	var v apperr.Validation
	d, err := DrugsFor(ctx, s.DB, s.DB)
	if err != nil {
		return ClinicInteractionRule{}, err
	}
	for field, text := range map[string]string{"first": in.First, "second": in.Second} {
		switch {
		case strings.TrimSpace(text) == "":
			v.Add(field, "validation.required")
		case utf8.RuneCountInString(text) > 200:
			v.Add(field, "validation.too_long")
		case !d.Allergen(text).Recognised():
			v.Add(field, "medicine_safety.unrecognised")
		}
	}
	if SeverityRank(in.Severity) == 0 {
		v.Add("severity", "validation.invalid_choice")
	}
	if !slices.Contains(InteractionEffects, in.Effect) {
		v.Add("effect", "validation.invalid_choice")
	}
	if !slices.Contains(InteractionActions, in.Action) {
		v.Add("action", "validation.invalid_choice")
	}
	if strings.TrimSpace(in.Source) == "" {
		v.Add("source", "validation.required")
	}
	if utf8.RuneCountInString(in.Note) > 1000 || utf8.RuneCountInString(in.Source) > 300 {
		v.Add("note", "validation.too_long")
	}
	if err := v.Err(); err != nil {
		return ClinicInteractionRule{}, err
	}
	r := ClinicInteractionRule{RuleInput: RuleInput{First: strings.TrimSpace(in.First), Second: strings.TrimSpace(in.Second), Severity: in.Severity,
		Effect: in.Effect, Action: in.Action, Note: strings.TrimSpace(in.Note), Source: strings.TrimSpace(in.Source)}, CreatedBy: e.ActorName, CreatedAt: time.Now().UTC()}
	err = s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `INSERT INTO drug_interactions (first, second, severity, effect, action, note, source, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
			r.First, r.Second, r.Severity, r.Effect, r.Action, r.Note, r.Source, r.CreatedBy, r.CreatedAt).Scan(&r.ID); err != nil {
			return fmt.Errorf("add drug interaction: %w", err)
		}
		return knowledgeChanged(ctx, tx, e, "medicine_safety.interaction_add", "interaction", r.ID,
			fmt.Sprintf("%s + %s: %s (%s)", r.First, r.Second, r.Severity, r.Source))
	})
	return r, err
}

// DeleteAlias and DeleteInteraction remove a clinic's addition (404 when there is none).
func (s *Store) DeleteAlias(ctx context.Context, e audit.Event, id int64) error {
	return s.deleteAddition(ctx, e, `DELETE FROM drug_aliases WHERE id = $1`, "alias", id)
}

func (s *Store) DeleteInteraction(ctx context.Context, e audit.Event, id int64) error {
	return s.deleteAddition(ctx, e, `DELETE FROM drug_interactions WHERE id = $1`, "interaction", id)
}

func (s *Store) deleteAddition(ctx context.Context, e audit.Event, stmt, kind string, id int64) error {
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, stmt, id)
		if err != nil {
			return fmt.Errorf("delete %s: %w", kind, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFound("medicine_safety.not_found")
		}
		return knowledgeChanged(ctx, tx, e, "medicine_safety."+kind+"_delete", kind, id, "")
	})
}

// knowledgeChanged raises the knowledge's generation and audits the change, in tx.
func knowledgeChanged(ctx context.Context, tx *sql.Tx, e audit.Event, action, kind string, id int64, detail string) error {
	if _, err := database.AddToCounter(ctx, tx, knowledgeCounter, 1); err != nil {
		return err
	}
	e.Action, e.EntityType, e.Outcome, e.Detail = action, "drug_"+kind, audit.Success, detail
	if id != 0 {
		e.EntityID = strconv.FormatInt(id, 10)
	}
	return audit.Record(ctx, tx, e)
}
