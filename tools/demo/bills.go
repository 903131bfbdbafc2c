package demo

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"emr/internal/billing"
	"emr/internal/database"
	"emr/internal/user"
)

// The seeded price list: a small clinic's services, in minor units of its currency.
var seedServices = []struct {
	code, name, category string
	price                int64
}{
	{"SEED-CONS-NEW", "Consultation, new patient", "consultation", 50000},
	{"SEED-CONS-FU", "Consultation, follow-up", "consultation", 35000},
	{"SEED-PROC-DRESS", "Wound dressing", "procedure", 35050},
	{"SEED-PROC-SUTURE", "Suturing", "procedure", 120000},
	{"SEED-PROC-ECG", "Electrocardiogram", "procedure", 60000},
	{"SEED-LAB-CBC", "Complete blood count", "laboratory", 25000},
	{"SEED-LAB-GLU", "Blood glucose", "laboratory", 12000},
	{"SEED-LAB-UA", "Urinalysis", "laboratory", 15000},
	{"SEED-IMG-XRAY", "Chest X-ray", "imaging", 80000},
	{"SEED-IMG-US", "Abdominal ultrasound", "imaging", 150000},
	{"SEED-CERT", "Medical certificate", "certificate", 20000},
	{"SEED-MED-INJ", "Injection", "medicine", 18000},
}

const (
	seedBillDays = 365
	seedCashiers = 5
)

// Bills adds n final bills over the last year (a busy clinic's: ~165 a day) with their lines
// and 1–4 payments each (about 2.5 on average; one bill in twelve left with a balance), for
// the fee reports' benchmark. Bills are walk-in bills of random registered patients with a
// seeded doctor; numbers and receipt numbers continue the clinic's sequences.
func Bills(ctx context.Context, db *database.DB, users *user.Store, loc *time.Location, n int, seed uint64, progress func(done int)) error {
	var patients int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) FROM patients`).Scan(&patients); err != nil {
		return err
	}
	if patients == 0 {
		return fmt.Errorf("seed bills: register patients first (--patients)")
	}
	doctors, err := seedDoctorIDs(ctx, db, users)
	if err != nil {
		return err
	}
	cashiers, err := seedCashierIDs(ctx, db, users)
	if err != nil {
		return err
	}
	services, err := seedServiceIDs(ctx, db)
	if err != nil {
		return err
	}
	set, err := billing.ReadSettings(ctx, db)
	if err != nil {
		return err
	}
	var firstID int64
	if err := db.QueryRowContext(ctx, `SELECT COALESCE(MAX(id), 0) + 1 FROM bills`).Scan(&firstID); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(seed, seed^0xb111))
	now := time.Now().UTC()
	today := now.In(loc)
	firstDay := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, loc).AddDate(0, 0, 1-seedBillDays)
	perDay := (n + seedBillDays - 1) / seedBillDays
	methods := []string{"cash", "cash", "cash", "card", "card", "e-wallet", "bank transfer", "insurance"}
	const batch = 5_000
	for start := 0; start < n; start += batch {
		end := min(start+batch, n)
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			var bills, lines, pays [][]any
			type yearCount struct{ bills, receipts int64 }
			years := map[int]*yearCount{}
			type pending struct {
				row  []any
				year int
			}
			var billRows, payRows []pending
			for i := start; i < end; i++ {
				id := firstID + int64(i)
				at := firstDay.AddDate(0, 0, i/perDay).Add(8*time.Hour + time.Duration(r.IntN(9*60))*time.Minute)
				if at.After(now) {
					at = now.Add(-time.Duration(r.IntN(60)) * time.Minute)
				}
				var subtotal int64
				for range 1 + r.IntN(3) {
					sv := services[r.IntN(len(services))]
					qty := int64(1 + r.IntN(2))
					amount := qty * sv.price
					subtotal += amount
					lines = append(lines, []any{id, sv.id, sv.code, sv.name, sv.category, qty, sv.price, amount, at})
				}
				kind, value, reason, discount := "", int64(0), "", int64(0)
				if r.IntN(5) == 0 {
					kind, value, reason = "percent", 2000, "senior citizen"
					discount = (subtotal*value + 5000) / 10000
				}
				total := subtotal - discount
				// 1–4 payments that sum to the total, the last skipped on one bill in twelve.
				k := 1 + r.IntN(4)
				var paid int64
				left := total
				for j := range k {
					amount := left
					if j < k-1 {
						amount = left / int64(k-j)
					}
					if amount <= 0 || (j == k-1 && k > 1 && r.IntN(12) == 0) {
						break
					}
					left -= amount
					paid += amount
					when := at.Add(time.Duration(j*(5+r.IntN(30))) * time.Minute)
					if when.After(now) {
						when = now
					}
					y := when.In(loc).Year()
					if years[y] == nil {
						years[y] = &yearCount{}
					}
					years[y].receipts++
					var tendered any
					method := methods[r.IntN(len(methods))]
					if method == "cash" {
						tendered = (amount/50000 + 1) * 50000
					}
					payRows = append(payRows, pending{[]any{id, "payment", method, "", amount, tendered, "", "", cashiers[r.IntN(len(cashiers))], when, when.In(loc).Format(time.DateOnly)}, y})
				}
				y := at.In(loc).Year()
				if years[y] == nil {
					years[y] = &yearCount{}
				}
				years[y].bills++
				doctor := doctors[r.IntN(len(doctors))]
				billRows = append(billRows, pending{[]any{id, 1 + r.Int64N(patients), doctor, "draft", set.Currency, y, 0, "", kind, value, reason,
					subtotal, discount, total, paid, at, cashiers[0], at, at, cashiers[0], cashiers[0], at.In(loc).Format(time.DateOnly)}, y})
			}
			// Reserve each year's numbers and receipt numbers for this batch, as finalising and
			// paying would take them one at a time.
			nextBill, nextReceipt := map[int]int64{}, map[int]int64{}
			for y, c := range years {
				last, err := database.AddToCounter(ctx, tx, "bill:"+strconv.Itoa(y), c.bills)
				if err != nil {
					return err
				}
				nextBill[y] = last - c.bills + 1
				if last, err = database.AddToCounter(ctx, tx, "receipt:"+strconv.Itoa(y), c.receipts); err != nil {
					return err
				}
				nextReceipt[y] = last - c.receipts + 1
			}
			for _, b := range billRows {
				seq := nextBill[b.year]
				nextBill[b.year]++
				b.row[6], b.row[7] = seq, fmt.Sprintf("BL-%d-%06d", b.year, seq)
				bills = append(bills, b.row)
			}
			for _, p := range payRows {
				seq := nextReceipt[p.year]
				nextReceipt[p.year]++
				p.row[7] = fmt.Sprintf("PR-%d-%06d", p.year, seq)
				pays = append(pays, p.row)
			}
			pg := ""
			if db.Engine == database.Postgres {
				pg = " OVERRIDING SYSTEM VALUE"
			}
			if err := bulk(ctx, tx, db, `INSERT INTO bills (id, patient_id, doctor_id, status, currency, year, seq, number, discount_kind,
				discount_value, discount_reason, subtotal, discount, total, paid, finalised_at, finalised_by, created_at, updated_at, created_by,
				updated_by, day)`+pg+` VALUES `, bills); err != nil {
				return fmt.Errorf("seed bills: %w", err)
			}
			if err := bulk(ctx, tx, db, `INSERT INTO bill_lines (bill_id, service_id, code, description, category, quantity, unit_price, amount, added_at) VALUES `, lines); err != nil {
				return fmt.Errorf("seed bill lines: %w", err)
			}
			// Drafts while their lines went in; final, as finalising leaves them, from here on.
			if _, err := tx.ExecContext(ctx, `UPDATE bills SET status = 'final' WHERE id BETWEEN $1 AND $2`, firstID+int64(start), firstID+int64(end)-1); err != nil {
				return fmt.Errorf("seed bills: %w", err)
			}
			if err := bulk(ctx, tx, db, `INSERT INTO payments (bill_id, kind, method, reference, amount, tendered, reason, receipt, received_by, received_at, day) VALUES `, pays); err != nil {
				return fmt.Errorf("seed payments: %w", err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		progress(end)
	}
	if db.Engine == database.Postgres {
		if _, err := db.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence('bills', 'id'), (SELECT MAX(id) FROM bills))`); err != nil {
			return err
		}
	}
	return rebuildDays(ctx, db)
}

type seededService struct {
	id                   int64
	code, name, category string
	price                int64
}

// seedServiceIDs returns the seeded price list, adding the services it lacks.
func seedServiceIDs(ctx context.Context, db *database.DB) ([]seededService, error) {
	now := time.Now().UTC()
	out := make([]seededService, 0, len(seedServices))
	for _, s := range seedServices {
		if _, err := db.ExecContext(ctx, `INSERT INTO services (code, name, category, price, active, created_at, updated_at) VALUES ($1, $2, $3, $4, TRUE, $5, $5)
			ON CONFLICT (code) DO NOTHING`, s.code, s.name, s.category, s.price, now); err != nil {
			return nil, err
		}
		sv := seededService{code: s.code, name: s.name, category: s.category}
		if err := db.QueryRowContext(ctx, `SELECT id, price FROM services WHERE code = $1`, s.code).Scan(&sv.id, &sv.price); err != nil {
			return nil, err
		}
		out = append(out, sv)
	}
	// The seeded laboratory services charge the catalogue's tests of the same code
	// (SEED-LAB-CBC for CBC), so that a demo visit's ordered tests reach its bill.
	if _, err := db.ExecContext(ctx, `UPDATE lab_tests SET service_code = 'SEED-LAB-' || code
		WHERE 'SEED-LAB-' || code IN (SELECT code FROM services WHERE category = 'laboratory')`); err != nil {
		return nil, fmt.Errorf("link the seeded tests to their services: %w", err)
	}
	return out, nil
}

// seedCashierIDs returns the ids of the seeded front-desk accounts, creating the missing ones.
func seedCashierIDs(ctx context.Context, db *database.DB, users *user.Store) ([]int64, error) {
	return seedAccounts(ctx, db, users, "seed-cashier-", "Seed cashier %02d", "receptionist", seedCashiers)
}

// rebuildDays recomputes every day's sums of the fee reports from the bills written in bulk
// above: what the fee store's writes keep up one bill at a time (feereport.Book).
func rebuildDays(ctx context.Context, db *database.DB) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM bill_days`, `DELETE FROM bill_day_services`, `DELETE FROM bill_day_doctors`,
			`INSERT INTO bill_days (day, bills, void, subtotal, discount, total, paid, credited)
			SELECT day, SUM(CASE WHEN status = 'final' THEN 1 ELSE 0 END), SUM(CASE WHEN status = 'void' THEN 1 ELSE 0 END),
				SUM(CASE WHEN status = 'final' THEN subtotal ELSE 0 END), SUM(CASE WHEN status = 'final' THEN discount ELSE 0 END),
				SUM(CASE WHEN status = 'final' THEN total ELSE 0 END), SUM(CASE WHEN status = 'final' THEN paid ELSE 0 END),
				SUM(CASE WHEN status = 'final' THEN credited ELSE 0 END)
			FROM bills WHERE day IS NOT NULL GROUP BY day`,
			`INSERT INTO bill_day_services (day, code, label, name, quantity, amount)
			SELECT b.day, l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END, MIN(l.description), SUM(l.quantity), SUM(l.amount)
			FROM bill_lines l JOIN bills b ON b.id = l.bill_id WHERE b.status = 'final'
			GROUP BY b.day, l.code, CASE WHEN l.code = '' THEN l.description ELSE '' END`,
			`INSERT INTO bill_day_doctors (day, doctor_id, bills, total)
			SELECT day, COALESCE(doctor_id, 0), COUNT(*), SUM(total - credited) FROM bills WHERE status = 'final' GROUP BY day, COALESCE(doctor_id, 0)`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("rebuild bill days: %w", err)
			}
		}
		return nil
	})
}
