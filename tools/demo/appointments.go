package demo

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"emr/internal/appointment"
	"emr/internal/audit"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/user"
)

// Seeded appointment history: how many doctors share it, how many days it spans (ending a
// month ahead), and the slot length.
const (
	seedDoctors  = 50
	seedDays     = 1500
	seedSlotMins = 10
)

// seedDiagnoses are the codes seeded visits carry (all in the starter list).
var seedDiagnoses = []string{"J06.9", "I10", "E11.9", "M54.5", "K29.7", "J02.9", "R51", "N39.0", "L20.9", "Z00.0"}

// Appointments adds n appointments for the patients already registered: seedDoctors doctor
// accounts (created when missing, with random passwords nobody is told: they only own
// calendars) share them over seedDays days, each doctor's day a queue of 10-minute slots
// from 08:00. Past appointments are mostly completed with a signed visit, some cancelled
// or no-shows; future ones are booked. It is for seeding and benchmarks: no audit events.
func Appointments(ctx context.Context, db *database.DB, users *user.Store, loc *time.Location, n int, seed uint64, progress func(done int)) error {
	var patients int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM patients`).Scan(&patients); err != nil {
		return err
	}
	if patients == 0 {
		return fmt.Errorf("seed appointments: register patients first (--patients)")
	}
	doctors, err := seedDoctorIDs(ctx, db, users)
	if err != nil {
		return err
	}
	var firstID int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM appointments`).Scan(&firstID); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(seed, seed^0x5eed))
	now := time.Now().UTC()
	today := now.In(loc)
	firstDay := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, loc).AddDate(0, 0, 30-seedDays)
	perDay := (n + seedDays - 1) / seedDays
	const batch = 20_000
	for start := 0; start < n; start += batch {
		end := min(start+batch, n)
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			var appts, visits [][]any
			for i := start; i < end; i++ {
				d, j := i/perDay, i%perDay
				doctor := doctors[j%len(doctors)]
				queue := j/len(doctors) + 1
				day := firstDay.AddDate(0, 0, d)
				at := time.Date(day.Year(), day.Month(), day.Day(), 8, 0, 0, 0, loc).Add(time.Duration((queue-1)*seedSlotMins) * time.Minute).UTC()
				status := "booked"
				if at.Before(now) {
					switch x := r.IntN(100); {
					case x < 6:
						status = "cancelled"
					case x < 10:
						status = "no-show"
					default:
						status = "completed"
					}
				}
				id := firstID + int64(i)
				patient := 1 + r.Int64N(patients)
				appts = append(appts, []any{id, patient, doctor, at, at.Add(seedSlotMins * time.Minute), seedSlotMins, day.Format(time.DateOnly),
					queue, "new", "", status, now, now})
				if status == "completed" {
					content := fmt.Sprintf(`{"vitals":{"bp_systolic":%d,"bp_diastolic":%d},"chief_complaint":"","present_illness":"","examination":"","diagnoses":[{"code":%q,"text":"","primary":true}],"orders":[],"plan":"","follow_up_date":""}`,
						100+r.IntN(60), 60+r.IntN(30), seedDiagnoses[r.IntN(len(seedDiagnoses))])
					visits = append(visits, []any{id, patient, content, "signed", at, now, now})
				}
			}
			pg := ""
			if db.Engine == database.Postgres {
				pg = " OVERRIDING SYSTEM VALUE"
			}
			if err := bulk(ctx, tx, db, `INSERT INTO appointments (id, patient_id, doctor_id, starts_at, ends_at, duration_minutes, day,
				queue_number, type, reason, status, created_at, updated_at)`+pg+` VALUES `, appts); err != nil {
				return fmt.Errorf("seed appointments: %w", err)
			}
			if err := bulk(ctx, tx, db, `INSERT INTO visits (appointment_id, patient_id, content, status, signed_at, created_at, updated_at) VALUES `, visits); err != nil {
				return fmt.Errorf("seed visits: %w", err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		progress(end)
	}
	if db.Engine == database.Postgres {
		if _, err := db.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('appointments', 'id'), (SELECT MAX(id) FROM appointments))`); err != nil {
			return err
		}
	}
	return nil
}

// bulk inserts rows with multi-row statements of at most ~30,000 parameters.
func bulk(ctx context.Context, tx *sql.Tx, db *database.DB, head string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	per := 30_000 / len(rows[0])
	for len(rows) > 0 {
		chunk := rows[:min(per, len(rows))]
		rows = rows[len(chunk):]
		var q strings.Builder
		q.WriteString(head)
		args := make([]any, 0, len(chunk)*len(chunk[0]))
		for i, row := range chunk {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(")
			for j, v := range row {
				if j > 0 {
					q.WriteString(", ")
				}
				args = append(args, v)
				q.WriteString(db.Placeholder(len(args)))
			}
			q.WriteString(")")
		}
		if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// seedDoctorIDs returns the ids of seedDoctors doctor accounts, creating the missing ones.
func seedDoctorIDs(ctx context.Context, db *database.DB, users *user.Store) ([]int64, error) {
	return seedAccounts(ctx, db, users, "seed-doctor-", "Dr. Seed %02d", "doctor", seedDoctors)
}

// seedAccounts returns the ids of n accounts with role, usernames prefix01… and names
// after nameFormat, creating the missing ones.
func seedAccounts(ctx context.Context, db *database.DB, users *user.Store, prefix, nameFormat, role string, n int) ([]int64, error) {
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("%s%02d", prefix, i)
		var exists bool
		if err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM users WHERE username = $1)`, name).Scan(&exists); err != nil {
			return nil, err
		}
		if !exists {
			// A random password may, once in a few hundred runs of 50 accounts, hold a word of
			// the account's own name ("seed", "doctor"), which the policy refuses: draw again.
			display := fmt.Sprintf(nameFormat, i)
			pw := Password()
			for auth.PasswordProblem(pw, name, display) != "" {
				pw = Password()
			}
			if _, err := users.Create(ctx, user.NewUser{Username: name, Name: display, Roles: []string{role}, Password: pw}); err != nil {
				return nil, err
			}
		}
	}
	return database.Column[int64](db.QueryContext(ctx, `SELECT id FROM users WHERE username LIKE $1 ORDER BY id`, prefix+"%"))
}

// Today books a small queue for today with the demo doctor, so that a newcomer's first
// look at the appointments screen shows a working day: the earlier patients have arrived.
func Today(ctx context.Context, store *appointment.Store, doctorID int64) error {
	var ids []int64
	rows, err := store.DB.QueryContext(ctx, `SELECT id FROM patients WHERE archived_at IS NULL ORDER BY id LIMIT 8`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	reasons := []string{"Fever and cough", "Blood pressure check", "Back pain", "Follow-up of diabetes", "Headache", "Skin rash", "Sore throat", "Check-up"}
	now := time.Now().In(store.Loc)
	start := time.Date(now.Year(), now.Month(), now.Day(), 9, 0, 0, 0, store.Loc)
	for i, id := range ids {
		a, err := store.Create(ctx, audit.Event{ActorName: "demo"}, appointment.Input{PatientID: id, DoctorID: doctorID,
			StartsAt: start.Add(time.Duration(i*20) * time.Minute).Format(time.RFC3339), DurationMinutes: 20, Type: "new", Reason: reasons[i%len(reasons)]})
		if err != nil {
			return fmt.Errorf("demo appointment: %w", err)
		}
		if i < 3 {
			if _, err := store.Transition(ctx, audit.Event{ActorName: "demo"}, a.ID, appointment.Arrive, 0, ""); err != nil {
				return err
			}
		}
	}
	return nil
}
