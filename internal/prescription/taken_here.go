package prescription

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"emr/internal/apperr"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/user"
)

// A line of a prescription issued here that the patient no longer takes (issue 55, M3; ADR
// 25): stopped by the patient, by another prescriber or by a doctor here, and recorded on its
// own, without cancelling the prescription (which stays what was handed over). From the day
// it was stopped the line leaves the current medicines and the papers that list them; the
// safety check drops it once its substance's washout is over.

// lineStop is a line's stop as recorded.
type lineStop struct {
	on, reason, category string
	by                   int64
}

// lineStops reads the stops of a patient's lines, by prescription and line.
func lineStops(ctx context.Context, q database.Querier, patientID int64) (map[[2]int64]lineStop, error) {
	rows, err := q.QueryContext(ctx, `SELECT prescription_id, line, stopped_on, reason, category, COALESCE(stopped_by, 0) FROM prescription_lines_stopped
		WHERE patient_id = $1 ORDER BY id DESC LIMIT 500`, patientID)
	if err != nil {
		return nil, fmt.Errorf("read stopped lines: %w", err)
	}
	defer rows.Close()
	out := map[[2]int64]lineStop{}
	for rows.Next() {
		var rx, line int64
		var s lineStop
		if err := rows.Scan(&rx, &line, &s.on, &s.reason, &s.category, &s.by); err != nil {
			return nil, fmt.Errorf("read a stopped line: %w", err)
		}
		out[[2]int64{rx, line}] = s
	}
	return out, rows.Err()
}

// StopHereLine records that the patient no longer takes line (0-based) of prescription rxID,
// issued here: from when and why. A line is stopped once; a second stop is a conflict.
func (s *Store) StopHereLine(ctx context.Context, e audit.Event, rxID int64, line int, in StopInput) (Taken, error) {
	var t Taken
	err := s.DB.Tx(ctx, func(tx *sql.Tx) error {
		rx, err := s.get(ctx, tx, rxID)
		if err != nil {
			return err
		}
		if rx.PatientID == nil || rx.Status == Draft || rx.Status == Cancelled || line < 0 || line >= len(rx.Items) {
			return apperr.NotFound("medication.not_found") // only what was handed to a patient is taken
		}
		issued := rx.CreatedAt
		if rx.IssuedAt != nil {
			issued = *rx.IssuedAt
		}
		if err := in.check(issued.In(s.Loc).Format(time.DateOnly), "", s.today()); err != nil {
			return err
		}
		if err := s.checkPatient(ctx, tx, *rx.PatientID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM prescription_lines_stopped WHERE prescription_id = $1 AND line = $2`, rxID, line).Scan(&n); err != nil {
			return fmt.Errorf("read a stopped line: %w", err)
		}
		if n > 0 {
			return apperr.Conflict("medication.stopped")
		}
		if err := stopVisit(ctx, tx, in.AppointmentID, *rx.PatientID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO prescription_lines_stopped (prescription_id, line, patient_id, stopped_on, reason, stopped_at, stopped_by,
			category, appointment_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			rxID, line, *rx.PatientID, in.StoppedOn, in.Reason, s.now(), e.Actor(), in.Category, in.AppointmentID); err != nil {
			return fmt.Errorf("stop a line: %w", err)
		}
		it := rx.Items[line]
		names, err := user.Names(ctx, tx, []int64{e.ActorID})
		if err != nil {
			return err
		}
		l := line
		t = Taken{PatientID: *rx.PatientID, MedicineID: it.MedicineID, Medicine: it.Medicine, Dose: it.Dose, Frequency: it.Frequency, Source: SourceHere,
			StartedOn: issued.In(s.Loc).Format(time.DateOnly), RecordedAt: issued, PrescriptionID: &rxID, Line: &l,
			StoppedOn: in.StoppedOn, StopReason: in.Reason, StopCategory: in.Category, StoppedVisit: in.AppointmentID, StoppedBy: names[e.ActorID]}
		e.Action, e.EntityType, e.EntityID, e.PatientID, e.Outcome = "medication.stop", "prescription", strconv.FormatInt(rxID, 10), *rx.PatientID, audit.Success
		e.Detail = fmt.Sprintf("patient %d %s (here, prescription %d line %d) on %s: %s", *rx.PatientID, it.Medicine, rxID, line+1, in.StoppedOn, in.stopWords())
		return audit.Record(ctx, tx, e)
	})
	return t, err
}
