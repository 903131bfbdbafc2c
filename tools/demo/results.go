package demo

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"emr/internal/database"
)

// seededPanel is what a seeded order reports: electrolytes, glucose and creatinine, five
// analytes with their usual adult ranges (the starter catalogue's).
var seededPanel = []struct {
	code, unit    string
	low, high, sd float64
	decimals      int
}{
	{"NA", "mmol/L", 136, 145, 3, 0},
	{"K", "mmol/L", 3.5, 5.1, 0.5, 1},
	{"CL", "mmol/L", 98, 107, 3, 0},
	{"GLU", "mmol/L", 3.9, 7.8, 1.5, 1},
	{"CREA", "umol/L", 62, 106, 20, 0},
}

// ResultsOptions: Reviewer, when not 0, is an account that orders one in every hundred
// seeded orders, all still waiting for its review (a benchmark's doctor with a long queue).
type ResultsOptions struct {
	Reviewer int64
}

// Results adds n results: orders of seededPanel (five analytes each) on the completed visits
// already seeded (--appointments), oldest first, collected at the visit, almost all final
// and reviewed; 2 % wait for their doctor's review. Values scatter around each range, so
// some are flagged. It is for seeding and benchmarks: no audit events, no alerts.
func Results(ctx context.Context, db *database.DB, n int, opts ResultsOptions, seed uint64, progress func(done int)) error {
	r := rand.New(rand.NewPCG(seed, seed^0x7e57))
	orders := (n + len(seededPanel) - 1) / len(seededPanel)
	var firstOrder, firstResult int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM lab_orders`).Scan(&firstOrder); err != nil {
		return err
	}
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM lab_results`).Scan(&firstResult); err != nil {
		return err
	}
	// Each result carries its analyte's LOINC code from the catalogue, as a result recorded
	// in the app does: a receiving system reads the code, not the clinic's analyte name.
	loinc := map[string]string{}
	rows, err := db.QueryContext(ctx, `SELECT code, loinc FROM lab_analytes`)
	if err != nil {
		return fmt.Errorf("seed results: read the analytes: %w", err)
	}
	for rows.Next() {
		var code, l string
		if err := rows.Scan(&code, &l); err != nil {
			rows.Close()
			return err
		}
		loinc[code] = l
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	pg := ""
	if db.Engine == database.Postgres {
		pg = " OVERRIDING SYSTEM VALUE"
	}
	now := time.Now().UTC()
	var after int64
	done, made := 0, 0
	for made < orders {
		type visit struct {
			id, patient, doctor int64
			at                  time.Time
		}
		var visits []visit
		rows, err := db.QueryContext(ctx, `SELECT id, patient_id, doctor_id, starts_at FROM appointments WHERE id > $1 AND status = 'completed'
			ORDER BY id LIMIT 4000`, after)
		if err != nil {
			return err
		}
		for rows.Next() {
			var v visit
			if err := rows.Scan(&v.id, &v.patient, &v.doctor, &v.at); err != nil {
				rows.Close()
				return err
			}
			visits = append(visits, v)
		}
		rows.Close()
		if len(visits) == 0 {
			return fmt.Errorf("seed results: %d orders need as many completed visits; seed more appointments", orders)
		}
		after = visits[len(visits)-1].id
		err = db.Tx(ctx, func(tx *sql.Tx) error {
			var orderRows, resultRows [][]any
			for _, v := range visits {
				if made >= orders {
					break
				}
				id := firstOrder + int64(made)
				made++
				status, toReview, doctor := "reviewed", 0, v.doctor
				var reviewedAt any = v.at.Add(48 * time.Hour)
				if r.IntN(100) < 2 {
					status, toReview, reviewedAt = "final", 1, nil
				}
				if opts.Reviewer != 0 && r.IntN(100) == 0 {
					status, toReview, reviewedAt, doctor = "final", 1, nil, opts.Reviewer
				}
				resulted := v.at.Add(6 * time.Hour)
				attention := 0
				for _, a := range seededPanel {
					value := a.low + (a.high-a.low)/2 + r.NormFloat64()*a.sd
					value = max(value, a.low/3)
					text := strconv.FormatFloat(value, 'f', a.decimals, 64)
					flag := "N"
					switch {
					case value < a.low:
						flag = "L"
					case value > a.high:
						flag = "H"
					}
					if flag != "N" {
						attention = 1
					}
					low, high := strconv.FormatFloat(a.low, 'f', a.decimals, 64), strconv.FormatFloat(a.high, 'f', a.decimals, 64)
					resultRows = append(resultRows, []any{firstResult + int64(done), id, v.patient, a.code, loinc[a.code], "numeric", text, a.unit, text, a.unit,
						low, high, "catalogue", flag, "final", 1, v.at, resulted})
					done++
				}
				orderRows = append(orderRows, []any{id, v.id, v.patient, "SEED-PANEL", status, v.at, doctor, v.at.Add(24 * time.Hour), v.at,
					resulted, reviewedAt, toReview, attention, now})
			}
			if err := bulk(ctx, tx, db, `INSERT INTO lab_orders (id, appointment_id, patient_id, test, status, ordered_at, ordered_by, due_at,
				collected_at, resulted_at, reviewed_at, to_review, attention, updated_at)`+pg+` VALUES `, orderRows); err != nil {
				return fmt.Errorf("seed orders: %w", err)
			}
			if err := bulk(ctx, tx, db, `INSERT INTO lab_results (id, order_id, patient_id, analyte, loinc, type, entered, entered_unit, value, unit,
				range_low, range_high, range_source, flag, status, is_current, observed_at, recorded_at)`+pg+` VALUES `, resultRows); err != nil {
				return fmt.Errorf("seed results: %w", err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		progress(done)
	}
	if db.Engine == database.Postgres {
		for _, table := range []string{"lab_orders", "lab_results"} {
			if _, err := db.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('`+table+`', 'id'), (SELECT MAX(id) FROM `+table+`))`); err != nil {
				return err
			}
		}
	}
	return nil
}

// EnsureSeedPanel adds the seeded orders' test (a panel of seededPanel) when it is missing.
func EnsureSeedPanel(ctx context.Context, db *database.DB) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM lab_tests WHERE code = 'SEED-PANEL'`).Scan(&n); err != nil || n > 0 {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO lab_tests (code, kind, label_en, label_ru, label_zh, label_vi, active, turnaround_hours)
			VALUES ('SEED-PANEL', 'lab', 'Electrolytes, glucose, creatinine', 'Электролиты, глюкоза, креатинин', '电解质、葡萄糖、肌酐',
			'Điện giải, glucose, creatinin', TRUE, 24)`); err != nil {
			return err
		}
		for i, a := range seededPanel {
			if _, err := tx.ExecContext(ctx, `INSERT INTO lab_test_analytes (test, analyte, position) VALUES ('SEED-PANEL', $1, $2)`, a.code, i); err != nil {
				return err
			}
		}
		return nil
	})
}
