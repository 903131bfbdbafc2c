package prescription

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/user"
)

// "Takes no medicines" (issue 55, M4; ADR 25): the patient was asked and takes none, when
// and by whom — so that a paper tells it from "never asked", as the allergy status does (ADR
// 16). A medicine recorded or prescribed later outweighs the answer.

// NoneAnswer is the latest time the patient said they take no medicines.
type NoneAnswer struct {
	AskedAt time.Time `json:"asked_at"`
	AskedBy string    `json:"asked_by"`
}

// TakesNone reads when the patient last said they take no medicines; nil when never.
func TakesNone(ctx context.Context, q database.Querier, patientID int64) (*NoneAnswer, error) {
	var a NoneAnswer
	var by int64
	err := q.QueryRowContext(ctx, `SELECT asked_at, COALESCE(asked_by, 0) FROM medicines_none WHERE patient_id = $1`, patientID).Scan(&a.AskedAt, &by)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read medicines none: %w", err)
	}
	names, err := user.Names(ctx, q, []int64{by})
	a.AskedBy = names[by]
	return &a, err
}

// RecordTakesNone records that, asked, the patient takes no medicines; refused while the
// list holds one (stop it first: the answer would contradict the list).
func (s *Store) RecordTakesNone(ctx context.Context, e audit.Event, patientID int64) (NoneAnswer, error) {
	var a NoneAnswer
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if err := s.checkPatient(ctx, tx, patientID); err != nil {
			return err
		}
		taken, err := recorded(ctx, tx, patientID)
		if err != nil {
			return err
		}
		here, err := prescribedHere(ctx, tx, patientID, s.now(), s.Loc)
		if err != nil {
			return err
		}
		for _, t := range append(here, taken...) {
			if t.Active() {
				return apperr.Conflict("medication.takes_some")
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM medicines_none WHERE patient_id = $1`, patientID); err != nil {
			return fmt.Errorf("record medicines none: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO medicines_none (patient_id, asked_at, asked_by) VALUES ($1, $2, $3)`, patientID, s.now(), e.Actor()); err != nil {
			return fmt.Errorf("record medicines none: %w", err)
		}
		got, err := TakesNone(ctx, tx, patientID)
		if err != nil {
			return err
		}
		a = *got
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "medication.none", "patient", strconv.FormatInt(patientID, 10), patientID, audit.Success
		e.Detail = fmt.Sprintf("patient %d takes no medicines", patientID)
		return audit.Record(ctx, tx, e)
	})
	return a, err
}
