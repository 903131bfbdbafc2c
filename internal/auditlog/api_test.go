package auditlog_test

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type event struct {
	ID         int64
	At         time.Time
	ActorName  string `json:"actor_name"`
	Action     string
	EntityType string `json:"entity_type"`
	EntityID   string `json:"entity_id"`
	PatientID  int64  `json:"patient_id"`
	Outcome    string
	Address    string
	Emergency  bool
}

type page struct {
	Data []event
	Meta struct {
		Total       *int
		TotalCapped bool `json:"total_capped"`
		Next, Prev  string
	}
}

// seed writes 37 events by three people, at distinct times one minute apart.
func seed(t *testing.T, db *database.DB, start time.Time) {
	t.Helper()
	users := []string{"ann", "bob", "cy"}
	actions := []string{"patient.read", "auth.login", "patient.update", "appointment.create"}
	for i := range 37 {
		e := audit.Event{At: start.Add(time.Duration(i) * time.Minute), ActorName: users[i%3], Action: actions[i%4],
			EntityType: "patient", EntityID: fmt.Sprint(100 + i%5), Outcome: audit.Success, Address: fmt.Sprintf("10.0.0.%d", i%7), Emergency: i%9 == 0}
		if i%6 == 0 {
			e.Outcome = audit.Failure
		}
		if err := db.Tx(context.Background(), func(tx *sql.Tx) error { return audit.Record(context.Background(), tx, e) }); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAuditViewer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		start := time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)
		seed(t, db, start)
		auditor := env.LoggedIn("auditor", env.CreateUser("auditor", "admin"))
		doc := env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
		if r := doc.Do("GET", "/api/audit-events", nil); r.Status != http.StatusForbidden {
			t.Errorf("doctor reads the audit log: %d", r.Status)
		}
		if r := doc.Do("GET", "/api/audit-events/export", nil); r.Status != http.StatusForbidden {
			t.Errorf("doctor exports the audit log: %d", r.Status)
		}
		get := func(query string) page {
			t.Helper()
			var p page
			r := auditor.Do("GET", "/api/audit-events?"+query, nil)
			if r.Status != http.StatusOK {
				t.Fatalf("%s: %d %s", query, r.Status, r.Body)
			}
			r.JSON(t, &p)
			return p
		}
		seeded := "to=" + url.QueryEscape(start.Add(time.Hour).Format(time.RFC3339)) // leaves out the logins of this test

		// Filters, alone and together.
		for query, want := range map[string]int{
			seeded:                               37,
			seeded + "&user=ANN":                 13,
			seeded + "&action=patient.read":      10,
			seeded + "&outcome=failure":          7,
			seeded + "&patient_id=100":           8,
			seeded + "&emergency=1":              5,
			seeded + "&user=bob&outcome=failure": 0,
			"from=" + url.QueryEscape(start.Add(30*time.Minute).Format(time.RFC3339)) + "&" + seeded: 7,
		} {
			if p := get(query + "&per_page=50"); p.Meta.Total == nil || *p.Meta.Total != want || len(p.Data) != want {
				t.Errorf("%s: total %v, rows %d, want %d", query, p.Meta.Total, len(p.Data), want)
			}
		}

		// Every sort, both ways: paging forward then back visits each event once, in order.
		for _, sort := range []string{"at", "-at", "user", "-user", "action", "-action", "entity", "-entity", "patient", "-patient", "outcome", "-outcome", "address", "-address"} {
			var seen []event
			p := get(seeded + "&per_page=10&sort=" + sort)
			for {
				if (len(seen) == 0) != (p.Meta.Prev == "") {
					t.Fatalf("%s: prev cursor %q after %d rows", sort, p.Meta.Prev, len(seen))
				}
				seen = append(seen, p.Data...)
				if p.Meta.Next == "" {
					break
				}
				p = get(seeded + "&per_page=10&sort=" + sort + "&after=" + p.Meta.Next)
				if p.Meta.Total != nil {
					t.Fatalf("%s: counted again on a later page", sort)
				}
			}
			if len(seen) != 37 {
				t.Fatalf("%s: paged through %d events", sort, len(seen))
			}
			ids := map[int64]bool{}
			for i, e := range seen {
				ids[e.ID] = true
				if i > 0 && compare(sort, seen[i-1], e) > 0 {
					t.Errorf("%s: %+v before %+v", sort, seen[i-1], e)
				}
			}
			if len(ids) != 37 {
				t.Errorf("%s: %d distinct events", sort, len(ids))
			}
			// Back from the last page: the page before it is the fourth page again.
			back := get(seeded + "&per_page=10&sort=" + sort + "&before=" + p.Meta.Prev)
			if len(back.Data) != 10 || back.Data[0].ID != seen[20].ID || back.Data[9].ID != seen[29].ID || back.Meta.Next == "" || back.Meta.Prev == "" {
				t.Errorf("%s: back from the last page: %d rows from %d", sort, len(back.Data), back.Data[0].ID)
			}
		}

		// Bad input: named, and nothing else happens.
		for _, bad := range []string{"sort=detail", "outcome=maybe", "from=yesterday", "after=garbage", "per_page=7", "patient_id=x", "action=DROP%20TABLE"} {
			if r := auditor.Do("GET", "/api/audit-events?"+bad, nil); r.Status != http.StatusUnprocessableEntity {
				t.Errorf("%s: %d", bad, r.Status)
			}
		}

		// Export: the filter's events as CSV, formula-safe, and the export on record.
		r := auditor.Do("GET", "/api/audit-events/export?"+seeded+"&user=cy&sort=at", nil)
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/csv") || !strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export: %d %v", r.Status, r.Header)
		}
		records, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
		if err != nil || len(records) != 13 || records[0][2] != "user" || records[1][2] != "cy" || records[1][1] != start.Add(2*time.Minute).Format(time.RFC3339Nano) {
			t.Errorf("export: %v %v", err, records[:2])
		}
		exports := get("action=audit.export")
		if *exports.Meta.Total != 1 || exports.Data[0].ActorName != "auditor" {
			t.Errorf("the export is not audited: %+v", exports)
		}
	})
}

func compare(sort string, a, b event) int {
	desc := strings.HasPrefix(sort, "-")
	var c int
	switch strings.TrimPrefix(sort, "-") {
	case "at":
		c = a.At.Compare(b.At)
	case "user":
		c = strings.Compare(a.ActorName, b.ActorName)
	case "action":
		c = strings.Compare(a.Action, b.Action)
	case "entity":
		c = strings.Compare(a.EntityType+"/"+a.EntityID, b.EntityType+"/"+b.EntityID)
	case "patient":
		c = int(a.PatientID - b.PatientID)
	case "outcome":
		c = strings.Compare(a.Outcome, b.Outcome)
	case "address":
		c = strings.Compare(a.Address, b.Address)
	}
	if c == 0 {
		c = int(a.ID - b.ID)
	}
	if desc {
		c = -c
	}
	return c
}

// TestDetailsReadInTheReadersLanguage: a detail written in phrases reads in the language of
// whoever reads the log; the export keeps it as stored (the hash covers it) and gives it in
// words beside; a detail of plain text, as every event before phrases, reads as written.
func TestDetailsReadInTheReadersLanguage(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		stored := audit.Phrases(audit.Phrase{Key: "audit.detail.results", Args: []string{"NA, K, CL"}}, audit.Phrase{Key: "audit.detail.critical_alerts", Args: []string{"1"}})
		for _, detail := range []string{stored, "results: NA"} {
			e := audit.Event{ActorName: "nurse", Action: "lab_order.final", EntityType: "lab_order", EntityID: "6", Outcome: audit.Success, Detail: detail}
			if err := db.Tx(context.Background(), func(tx *sql.Tx) error { return audit.Record(context.Background(), tx, e) }); err != nil {
				t.Fatal(err)
			}
		}
		auditor := env.LoggedIn("auditor", env.CreateUser("auditor", "admin"))
		for lang, want := range map[string]string{"en": "results: NA, K, CL; critical alerts: 1", "ru": "результаты: NA, K, CL; критических оповещений: 1", "zh": "结果：NA, K, CL；危急值警报：1"} {
			auditor.SetCookie("language", lang)
			var p struct{ Data []struct{ Detail string } }
			auditor.Do("GET", "/api/audit-events?action=lab_order.final&sort=at", nil).JSON(t, &p)
			if len(p.Data) != 2 || p.Data[0].Detail != want || p.Data[1].Detail != "results: NA" {
				t.Errorf("%s: %+v, want %q then the plain text", lang, p.Data, want)
			}
		}
		auditor.SetCookie("language", "zh")
		r := auditor.Do("GET", "/api/audit-events/export?action=lab_order.final&sort=at", nil)
		records, err := csv.NewReader(strings.NewReader(string(r.Body))).ReadAll()
		if err != nil || len(records) != 3 || records[0][11] != "detail" || records[0][14] != "detail_text" ||
			records[1][11] != stored || records[1][14] != "结果：NA, K, CL；危急值警报：1" || records[2][14] != "results: NA" {
			t.Errorf("export: %v %v", err, records)
		}
	})
}
