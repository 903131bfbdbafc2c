package patient

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"emr/internal/apperr"
	"emr/internal/database"
)

// Received is what another system sent with a patient beside the register's own fields
// (the FHIR API writes it): the patient's identifiers in other systems, indexed for search
// and unique per system, and the rest of the elements as they came (other names, every
// contact point, structured addresses, languages, profiles), to be given back as they came.
// It is kept with the record and in each of its versions; the web app shows it, read-only.
type Received struct {
	Identifiers []Identifier `json:"identifiers,omitempty"`
	// Elements holds the other elements by their FHIR name, each as the JSON that came. The
	// register's own fields stay the record's: an element the clinic also keeps (the name,
	// the first phone and e-mail, the address) is given back with the clinic's value.
	Elements map[string]json.RawMessage `json:"elements,omitempty"`
}

// Identifier is a patient's number in another system: a national ID, an insurer's member
// number, another record's number.
type Identifier struct {
	System string `json:"system,omitempty"` // the URI of the numbering system ("" not said)
	Value  string `json:"value"`
	Use    string `json:"use,omitempty"` // usual, official, temp, secondary, old
	// Type is the kind of identifier, as a code (e.g. v2-0203 "NI") and, or, a text.
	Type        *Concept `json:"type,omitempty"`
	PeriodStart string   `json:"period_start,omitempty"`
	PeriodEnd   string   `json:"period_end,omitempty"`
}

// Concept is a coded value and, or, its text.
type Concept struct {
	Coding []Coding `json:"coding,omitempty"`
	Text   string   `json:"text,omitempty"`
}

// Coding is a code of a code system.
type Coding struct {
	System  string `json:"system,omitempty"`
	Code    string `json:"code,omitempty"`
	Display string `json:"display,omitempty"`
}

// MaxIdentifiers bounds the identifiers one patient carries.
const MaxIdentifiers = 20

// maxReceived bounds the JSON kept of what another system sent (a FHIR resource is at most
// 1 MB; a patient's demographics are a few kB).
const maxReceived = 64 << 10

// clean checks what is kept of another system's record.
func (r *Received) clean(v *apperr.Validation) {
	if len(r.Identifiers) > MaxIdentifiers {
		v.Add("identifiers", "validation.too_many")
	}
	seen := map[[2]string]bool{}
	for i := range r.Identifiers {
		id := &r.Identifiers[i]
		id.System, id.Value = strings.TrimSpace(id.System), strings.TrimSpace(id.Value)
		field := fmt.Sprintf("identifiers.%d", i)
		switch {
		case id.Value == "":
			v.Add(field+".value", "validation.required")
		case utf8.RuneCountInString(id.Value) > 200 || utf8.RuneCountInString(id.System) > 300:
			v.Add(field, "validation.too_long")
		case seen[[2]string{id.System, id.Value}]:
			v.Add(field, "patient.identifier_repeated")
		}
		seen[[2]string{id.System, id.Value}] = true
	}
	if data, _ := json.Marshal(r); len(data) > maxReceived {
		v.Add("received", "validation.too_long")
	}
}

// empty reports whether nothing is kept.
func (r Received) empty() bool { return len(r.Identifiers) == 0 && len(r.Elements) == 0 }

func encodeReceived(r Received) string {
	if r.empty() {
		return "{}"
	}
	data, _ := json.Marshal(r)
	return string(data)
}

// writeReceived keeps r as patient id's, in tx: the JSON with the record, and the identifiers
// in their index. An identifier of a system another patient has is refused (a conflict):
// one number names one person.
func writeReceived(ctx context.Context, tx *sql.Tx, engine database.Engine, id int64, r Received) error {
	if _, err := tx.ExecContext(ctx, `UPDATE patients SET received = $1 WHERE id = $2`, encodeReceived(r), id); err != nil {
		return fmt.Errorf("keep what was received: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM patient_identifiers WHERE patient_id = $1`, id); err != nil {
		return fmt.Errorf("clear identifiers: %w", err)
	}
	var keys []int64
	for _, ident := range r.Identifiers {
		if ident.System != "" {
			keys = append(keys, keyHash("identifier:"+ident.System+"|"+ident.Value))
		}
	}
	// Two writes of one number at once wait for each other, so that the second sees the
	// first's and is refused as taken rather than by the unique index.
	if err := lockKeys(ctx, tx, engine, keys); err != nil {
		return err
	}
	for _, ident := range r.Identifiers {
		if ident.System != "" {
			var other int64
			err := tx.QueryRowContext(ctx, `SELECT patient_id FROM patient_identifiers WHERE system = $1 AND value = $2`, ident.System, ident.Value).Scan(&other)
			if err == nil {
				return apperr.Conflict("patient.identifier_taken", ident.System+"|"+ident.Value)
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("check identifier: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO patient_identifiers (patient_id, system, value) VALUES ($1, $2, $3)`, id, ident.System, ident.Value); err != nil {
			return fmt.Errorf("keep identifier: %w", err)
		}
	}
	return nil
}
