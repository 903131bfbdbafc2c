package patient

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"emr/internal/apperr"
	"emr/internal/database"
)

// Summaries reads the patients with ids (each once), for the lists of other domains that
// name their patient (queues, prescriptions, the audit log).
func Summaries(ctx context.Context, q database.Querier, ids []int64) (map[int64]Summary, error) {
	out := make(map[int64]Summary, len(ids))
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "p.id", chunk, 1)
		list, err := scanSummaries(q.QueryContext(ctx, `SELECT `+summaryColumns+` FROM patients p WHERE `+in, args...))
		for _, s := range list {
			out[s.ID] = s
		}
		return err
	})
	return out, err
}

// ArchivedAt says whether patient id is archived and since when; NotFound when there is no
// such patient. Run inside a writer's transaction, it is the state the write sees.
func ArchivedAt(ctx context.Context, q database.Querier, id int64) (*time.Time, error) {
	return archivedAt(ctx, q, id, "")
}

// ArchivedAtForWrite is ArchivedAt read in tx for a write about the patient: on PostgreSQL it
// holds the patient's row until tx ends, so an archive waits for the write or the write sees
// the archive (read committed would let an archive commit between the check and the write).
// The lock is FOR NO KEY UPDATE, not FOR SHARE: two writes for one patient wait for each other
// rather than deadlock when one then updates the patient (an allergy listed after an
// anaphylaxis); rows referring to the patient are still inserted beside it. SQLite's write
// transactions run one at a time.
func ArchivedAtForWrite(ctx context.Context, tx *sql.Tx, engine database.Engine, id int64) (*time.Time, error) {
	if engine == database.Postgres {
		return archivedAt(ctx, tx, id, " FOR NO KEY UPDATE")
	}
	return archivedAt(ctx, tx, id, "")
}

// archivedAt reads the patient's archive time, the query ending in lock (fixed text).
func archivedAt(ctx context.Context, q database.Querier, id int64, lock string) (*time.Time, error) {
	var at sql.NullTime
	err := q.QueryRowContext(ctx, `SELECT archived_at FROM patients WHERE id = $1`+lock, id).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.NotFound("patient.not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("read patient: %w", err)
	}
	if !at.Valid {
		return nil, nil
	}
	return &at.Time, nil
}

// Records reads the whole records of the patients with ids (each once), for documents that
// carry a patient's details (a prescription's print: address, allergies).
func Records(ctx context.Context, q database.Querier, ids []int64) (map[int64]Patient, error) {
	out := make(map[int64]Patient, len(ids))
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		marks, args := database.InList(chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT `+patientColumns+` FROM patients p WHERE p.id IN (`+marks+`)`, args...)
		if err != nil {
			return fmt.Errorf("read patients: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			p, err := scanPatient(rows)
			if err != nil {
				return err
			}
			out[p.ID] = p
		}
		return rows.Err()
	})
	return out, err
}

// CheckActive checks that patient id exists (else a validation error on the field
// "patient_id") and is not archived (else a conflict), for a record about to be written in
// tx; an archive does not slip in before the write commits (ArchivedAtForWrite).
func CheckActive(ctx context.Context, tx *sql.Tx, engine database.Engine, id int64) error {
	archived, err := ArchivedAtForWrite(ctx, tx, engine, id)
	if errors.Is(err, apperr.ErrNotFound) {
		var v apperr.Validation
		v.Add("patient_id", "patient.not_found")
		return v.Err()
	}
	if err == nil && archived != nil {
		return apperr.Conflict("patient.archived")
	}
	return err
}

// Brief is what other domains' lists keep and show of a patient: the name, number, birth
// date, sex, how the family is reached, whether archived and when the record last changed.
type Brief struct {
	ID         int64
	MRN        string
	FirstName  string
	MiddleName string
	LastName   string
	Sex        string
	BirthDate  string
	Phone      string
	Email      string
	Archived   bool
	UpdatedAt  time.Time
	CreatedAt  time.Time
}

// Briefs reads the briefs of the patients with ids (each once), in q (a feature's
// transaction or the database): a page of a list that names its patients by id.
func Briefs(ctx context.Context, q database.Querier, ids []int64) (map[int64]Brief, error) {
	out := make(map[int64]Brief, len(ids))
	err := database.InChunks(ids, 500, func(chunk []int64) error {
		in, args := database.InIDs(q, "p.id", chunk, 1)
		rows, err := q.QueryContext(ctx, `SELECT p.id, p.mrn, p.first_name, p.middle_name, p.last_name, p.sex, p.birth_date, p.phone, p.email,
			p.archived_at IS NOT NULL, p.updated_at, p.created_at FROM patients p WHERE `+in, args...)
		if err != nil {
			return fmt.Errorf("read patients: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var b Brief
			if err := rows.Scan(&b.ID, &b.MRN, &b.FirstName, &b.MiddleName, &b.LastName, &b.Sex, &b.BirthDate, &b.Phone, &b.Email, &b.Archived, &b.UpdatedAt, &b.CreatedAt); err != nil {
				return fmt.Errorf("read patients: %w", err)
			}
			out[b.ID] = b
		}
		return rows.Err()
	})
	return out, err
}

// BornBetween are the briefs of the active patients born on from (YYYY-MM-DD) to to, by id
// (index patients_active_birth): those a birthday of the window takes past an age.
func BornBetween(ctx context.Context, q database.Querier, from, to string) ([]Brief, error) {
	rows, err := q.QueryContext(ctx, `SELECT p.id, p.birth_date, p.created_at FROM patients p
		WHERE p.archived_at IS NULL AND p.birth_date >= $1 AND p.birth_date <= $2 ORDER BY p.id`, from, to)
	if err != nil {
		return nil, fmt.Errorf("read patients born between: %w", err)
	}
	defer rows.Close()
	var out []Brief
	for rows.Next() {
		var b Brief
		if err := rows.Scan(&b.ID, &b.BirthDate, &b.CreatedAt); err != nil {
			return nil, fmt.Errorf("read patients born between: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// IDsAfter lists, in q, the ids of up to limit patients (archived ones too) after id after,
// in order: a walk over the whole register a batch at a time (a rebuild of another domain's
// rows for every patient).
func IDsAfter(ctx context.Context, q database.Querier, after int64, limit int) ([]int64, error) {
	return database.Column[int64](q.QueryContext(ctx, `SELECT id FROM patients WHERE id > $1 ORDER BY id LIMIT $2`, after, limit))
}
