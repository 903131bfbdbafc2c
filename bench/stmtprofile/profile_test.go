// Package stmtprofile lists, statement by statement, what the four everyday writes cost the
// database: a registration, a visit save, a prescription and a payment, each sent through
// the real HTTP server to a seeded database (bench/README.md, "Writes"):
//
//	EMR_PROFILE_URL=sqlite:bench/out/writes.db go test -count=1 -v -run TestProfile ./bench/stmtprofile
//
// Every statement, in a transaction or not, prepared or not, goes through a wrapped driver
// that times it from the call until its last row is read (a PostgreSQL statement's time
// includes its round trip). Each write runs EMR_PROFILE_ROUNDS times (default 40); the table
// gives each statement's median over the rounds after the first five.
package stmtprofile

import (
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
)

var traced = &trace{}

func init() {
	sql.Register("sqlite-traced", tracedDriverOf("sqlite", traced))
	sql.Register("pgx-traced", tracedDriverOf("pgx", traced))
}

// open opens raw (a database URL) through the traced drivers with the options
// database.Open sets. The one-writer batching of SQLite is not used: each write is its own
// transaction here, which is what one client alone gets from it.
func open(t *testing.T, raw string) *database.DB {
	engine, dsn, err := database.ParseURL(raw)
	if err != nil {
		t.Fatal(err)
	}
	var db *sql.DB
	switch engine {
	case database.SQLite:
		q := url.Values{}
		for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", "busy_timeout(10000)", "synchronous(FULL)", "cache_size(-65536)", "mmap_size(0)"} {
			q.Add("_pragma", p)
		}
		q.Set("_txlock", "immediate")
		db, err = sql.Open("sqlite-traced", "file:"+dsn+"?"+q.Encode())
	default:
		u, _ := url.Parse(dsn)
		q := u.Query()
		q.Set("plan_cache_mode", "force_custom_plan")
		u.RawQuery = q.Encode()
		db, err = sql.Open("pgx-traced", u.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	t.Cleanup(func() { db.Close() })
	return &database.DB{DB: db, Engine: engine}
}

func TestProfile(t *testing.T) {
	raw := os.Getenv("EMR_PROFILE_URL")
	if raw == "" {
		t.Skip("EMR_PROFILE_URL names the seeded database to profile")
	}
	rounds := 40
	if n, err := strconv.Atoi(os.Getenv("EMR_PROFILE_ROUNDS")); err == nil && n > 5 {
		rounds = n
	}
	db := open(t, raw)
	env := apitest.New(t, db)
	tag := strconv.FormatInt(time.Now().Unix()%100000, 10)
	admin := env.LoggedIn("padmin"+tag, env.CreateUser("padmin"+tag, "admin"))
	doctor := env.LoggedIn("pdoc"+tag, env.CreateUser("pdoc"+tag, "doctor"))
	front := env.LoggedIn("pfront"+tag, env.CreateUser("pfront"+tag, "receptionist"))
	doctorID := env.UserID("pdoc" + tag)
	service := apitest.Do[struct{ ID int64 }](t, admin, http.StatusCreated, "POST", "/api/services",
		map[string]any{"code": "PROF-" + tag, "name": "Consultation " + tag, "category": "consultation", "price": 50000}).ID
	apitest.Do[any](t, front, http.StatusOK, "PUT", "/api/drawers/float", map[string]any{"opening_float": 0})

	kinds := []string{"registration", "visit save", "prescription", "payment"}
	got := map[string][][]statement{}
	timed := func(kind string, fn func()) {
		traced.start()
		fn()
		got[kind] = append(got[kind], traced.stop())
	}
	base := time.Now().UTC().Truncate(time.Minute).Add(30 * time.Minute)
	for i := range rounds {
		n := fmt.Sprintf("%s%03d", tag, i)
		var p struct{ ID int64 }
		timed("registration", func() {
			p = apitest.Do[struct{ ID int64 }](t, front, http.StatusCreated, "POST", "/api/patients", map[string]any{
				"first_name": "Prof" + letters(n), "last_name": "Writes", "sex": "female", "birth_date": "1980-01-15",
				"phone": "0912" + fmt.Sprintf("%06d", (time.Now().UnixNano()/1000+int64(i))%1000000), "history": map[string]any{"allergy_status": "none"}})
		})
		a := apitest.Do[struct{ ID int64 }](t, front, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": p.ID, "doctor_id": doctorID,
			"starts_at": base.Add(time.Duration(i*10) * time.Minute).Format(time.RFC3339), "duration_minutes": 10, "type": "new"}).ID
		apitest.Do[any](t, front, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/arrive", a), map[string]any{})
		apitest.Do[any](t, doctor, http.StatusOK, "POST", fmt.Sprintf("/api/appointments/%d/start", a), map[string]any{})
		timed("visit save", func() {
			apitest.Do[any](t, doctor, http.StatusOK, "PUT", fmt.Sprintf("/api/appointments/%d/visit", a),
				map[string]any{"version": 0, "chief_complaint": "Sore throat", "diagnoses": []map[string]any{{"code": "J02.9", "primary": true}}})
		})
		timed("prescription", func() {
			apitest.Do[any](t, doctor, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/prescriptions", a), map[string]any{"items": []any{
				map[string]any{"medicine": "Amoxicillin 500 mg capsule", "dose": "1 capsule", "frequency": "three times daily", "duration": "7 days", "quantity": "21"}}})
		})
		b := apitest.Do[struct {
			ID      int64
			Version int
		}](t, front, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/bill/lines", a), map[string]any{"service_id": service, "quantity": 1})
		apitest.Do[any](t, front, http.StatusOK, "POST", fmt.Sprintf("/api/bills/%d/finalise", b.ID), map[string]any{"version": b.Version})
		timed("payment", func() {
			apitest.Do[any](t, front, http.StatusCreated, "POST", fmt.Sprintf("/api/bills/%d/payments", b.ID), map[string]any{"method": "cash", "amount": 50000})
		})
	}
	fmt.Printf("Statements of one request, %s, median of %d rounds (ms):\n\n", db.Engine, rounds-5)
	for _, kind := range kinds {
		report(kind, got[kind][5:])
	}
}

// letters spells digits as letters, so that each registration's name is a word of its own.
func letters(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune('a' + (r-'0')%26)
	}
	return b.String()
}

// report prints the statements of the samples' most common sequence with each one's median.
func report(kind string, samples [][]statement) {
	key := func(list []statement) string {
		var b strings.Builder
		for _, s := range list {
			b.WriteString(s.SQL)
			b.WriteByte('\n')
		}
		return b.String()
	}
	count := map[string]int{}
	best := ""
	for _, s := range samples {
		k := key(s)
		count[k]++
		if count[k] > count[best] {
			best = k
		}
	}
	var same [][]statement
	for _, s := range samples {
		if key(s) == best {
			same = append(same, s)
		}
	}
	fmt.Printf("**%s** — %d statements (%d of %d rounds had this sequence)\n\n| # | statement | median ms |\n|---|---|---|\n", kind, len(same[0]), len(same), len(samples))
	var total time.Duration
	for i, s := range same[0] {
		ds := make([]time.Duration, len(same))
		for j := range same {
			ds[j] = same[j][i].D
		}
		slices.Sort(ds)
		m := ds[len(ds)/2]
		total += m
		text := s.SQL
		if len(text) > 140 {
			text = text[:137] + "..."
		}
		fmt.Printf("| %d | `%s` | %.3f |\n", i+1, strings.ReplaceAll(text, "|", "\\|"), float64(m.Microseconds())/1000)
	}
	fmt.Printf("| | **sum of medians** | **%.3f** |\n\n", float64(total.Microseconds())/1000)
}
