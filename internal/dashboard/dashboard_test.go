package dashboard_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/catalogue"
	"emr/internal/dashboard"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestFiguresFollowEveryWrite: patients, appointments and signed visits written through the
// API move the dashboard's figures (kept by triggers) exactly as counting the rows would,
// on both engines; each part is served only to those who may see it.
func TestFiguresFollowEveryWrite(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		rec := env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
		doc := env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
		env.CreateUser("doc2", "doctor")
		nurse := env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
		ids := map[string]int64{"doc": env.UserID("doc"), "doc2": env.UserID("doc2")}
		patient := func(birth, sex string) int64 {
			t.Helper()
			var p struct{ ID int64 }
			r := rec.Do("POST", "/api/patients", map[string]any{"first_name": "A", "last_name": "B" + birth, "birth_date": birth, "sex": sex})
			if r.Status != http.StatusCreated {
				t.Fatalf("patient: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &p)
			return p.ID
		}
		young, adult := patient("2019-05-01", "male"), patient("1990-02-03", "female")
		old := patient("1940-07-08", "female")
		if r := rec.Do("POST", fmt.Sprintf("/api/patients/%d/archive", old), map[string]any{"reason": "Moved away"}); r.Status != http.StatusOK {
			t.Fatalf("archive: %d %s", r.Status, r.Body)
		}

		// Tomorrow's queue (bookings may not be in the past), seen as if it were tomorrow.
		tomorrow := time.Now().UTC().AddDate(0, 0, 1)
		day := tomorrow.Format(time.DateOnly)
		book := func(patientID, doctorID int64, clock string) int64 {
			t.Helper()
			var a struct{ ID int64 }
			r := rec.Do("POST", "/api/appointments", map[string]any{"patient_id": patientID, "doctor_id": doctorID,
				"starts_at": day + "T" + clock + ":00Z", "duration_minutes": 15, "type": "new", "reason": "Cough"})
			if r.Status != http.StatusCreated {
				t.Fatalf("book: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &a)
			return a.ID
		}
		a1, a2 := book(young, ids["doc"], "10:00"), book(adult, ids["doc"], "10:30")
		a3 := book(young, ids["doc"], "11:00")
		book(adult, ids["doc2"], "10:00")
		must := func(c *apitest.Client, method, path string, body any) {
			t.Helper()
			if r := c.Do(method, path, body); r.Status >= 300 {
				t.Fatalf("%s %s: %d %s", method, path, r.Status, r.Body)
			}
		}
		must(rec, "POST", fmt.Sprintf("/api/appointments/%d/cancel", a3), map[string]any{"reason": "Called to cancel"})
		// Two visits signed: J02.9 twice, J06.9 once; then one is amended to J06.9 alone.
		sign := func(id int64, codes ...string) int {
			t.Helper()
			must(rec, "POST", fmt.Sprintf("/api/appointments/%d/arrive", id), map[string]any{})
			must(doc, "POST", fmt.Sprintf("/api/appointments/%d/start", id), map[string]any{})
			var diagnoses []map[string]any
			for i, c := range codes {
				diagnoses = append(diagnoses, map[string]any{"code": c, "primary": i == 0})
			}
			var v struct{ Version int }
			path := fmt.Sprintf("/api/appointments/%d/visit", id)
			doc.Do("PUT", path, map[string]any{"version": 0, "chief_complaint": "Sore throat", "diagnoses": diagnoses}).JSON(t, &v)
			var signed struct{ Version int }
			r := doc.Do("POST", path+"/sign", map[string]any{"version": v.Version})
			if r.Status != http.StatusOK {
				t.Fatalf("sign: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &signed)
			return signed.Version
		}
		sign(a1, "J02.9", "J06.9")
		v2 := sign(a2, "J02.9")
		must(doc, "POST", fmt.Sprintf("/api/appointments/%d/visit/amend", a2), map[string]any{"version": v2, "reason": "Coded again after the results",
			"chief_complaint": "Sore throat", "diagnoses": []map[string]any{{"code": "J06.9", "primary": true}}})
		arrived := book(adult, ids["doc2"], "12:00")
		must(rec, "POST", fmt.Sprintf("/api/appointments/%d/arrive", arrived), map[string]any{})

		// The kept counts (with the deltas not yet folded in, and again after folding them)
		// equal counting the rows.
		for _, fold := range []bool{false, true} {
			if fold {
				if err := (&dashboard.Store{DB: db}).Fold(context.Background()); err != nil {
					t.Fatal(err)
				}
				if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointment_day_deltas`); n != 0 {
					t.Errorf("%d deltas left after folding", n)
				}
			}
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM (SELECT day, status, COUNT(*) AS n FROM appointments GROUP BY day, status) a
				FULL JOIN (SELECT day, status, SUM(n) AS n FROM (SELECT day, status, n FROM appointment_day_counts
					UNION ALL SELECT day, status, n FROM appointment_day_deltas) u GROUP BY day, status) c
				USING (day, status) WHERE COALESCE(a.n, 0) <> COALESCE(c.n, 0)`); n != 0 {
				t.Errorf("%d (day, status) counts differ from the rows (folded: %v)", n, fold)
			}
		}

		tomorrowAt := &dashboard.Store{DB: db, Codes: &catalogue.Store{DB: db}, Loc: time.UTC, Now: func() time.Time { return tomorrow }}
		ctx := context.Background()
		appts, err := tomorrowAt.AppointmentCounts(ctx, &auth.Principal{UserID: ids["doc"], Roles: []string{"doctor"}})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"booked": 1, "arrived": 1, "in-progress": 0, "completed": 2, "cancelled": 1, "no-show": 0}
		for s, n := range want {
			if appts.Today.ByStatus[s] != n {
				t.Errorf("today %s: %d, want %d (%v)", s, appts.Today.ByStatus[s], n, appts.Today.ByStatus)
			}
		}
		if appts.Waiting != 1 || len(appts.Days) != dashboard.Days || appts.Days[dashboard.Days-1].Day != day || appts.Days[0].ByStatus["booked"] != 0 {
			t.Errorf("waiting %d, days %d, last %s", appts.Waiting, len(appts.Days), appts.Days[len(appts.Days)-1].Day)
		}
		if appts.Mine == nil || appts.Mine.ByStatus["completed"] != 2 || appts.Mine.ByStatus["cancelled"] != 1 || appts.Mine.ByStatus["booked"] != 0 {
			t.Errorf("the doctor's own queue: %+v", appts.Mine)
		}
		if other, _ := tomorrowAt.AppointmentCounts(ctx, &auth.Principal{UserID: 999, Roles: []string{"receptionist"}}); other.Mine != nil {
			t.Error("a receptionist has a queue of their own")
		}

		top, err := tomorrowAt.TopDiagnoses(ctx, "ru")
		if err != nil {
			t.Fatal(err)
		}
		if len(top.Top) != 2 || top.Top[0].Code != "J06.9" || top.Top[0].N != 2 || top.Top[1].Code != "J02.9" || top.Top[1].N != 1 || top.Top[0].Label == "" {
			t.Errorf("top diagnoses after the amendment: %+v", top.Top)
		}

		now := &dashboard.Store{DB: db, Codes: &catalogue.Store{DB: db}, Loc: time.UTC}
		pts, err := now.PatientCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if pts.Total != 2 || pts.ThisMonth != 3 || len(pts.Months) != 12 || pts.Months[11].N != 3 {
			t.Errorf("patients: total %d, this month %d, months %+v", pts.Total, pts.ThisMonth, pts.Months)
		}
		ages := map[string]map[string]int{}
		for _, b := range pts.Ages {
			ages[b.Band] = b.BySex
		}
		if len(pts.Ages) != 9 || ages["0-9"]["male"] != 1 || ages["30-39"]["female"]+ages["40-49"]["female"] != 1 || ages["80+"]["female"] != 0 {
			t.Errorf("ages: %+v", pts.Ages)
		}
		// Restoring the archived patient puts her back among the 80+.
		must(rec, "POST", fmt.Sprintf("/api/patients/%d/restore", old), map[string]any{})
		if pts, _ = now.PatientCounts(ctx); pts.Total != 3 || pts.Ages[8].BySex["female"] != 1 {
			t.Errorf("after restoring: total %d, 80+ %v", pts.Total, pts.Ages[8].BySex)
		}

		// Even a registration date corrected directly in the database moves its month.
		n := time.Now().UTC()
		if _, err := db.ExecContext(ctx, `UPDATE patients SET created_at = $1 WHERE id = $2`, time.Date(n.Year(), n.Month()-2, 15, 12, 0, 0, 0, time.UTC), young); err != nil {
			t.Fatal(err)
		}
		if pts, _ = now.PatientCounts(ctx); pts.Months[9].N != 1 || pts.Months[11].N != 2 || pts.ThisMonth != 2 {
			t.Errorf("after moving a registration two months back: %+v", pts.Months)
		}

		// Each part for those who may see it: no diagnosis statistics for a receptionist or a nurse.
		for _, c := range []struct {
			who    *apitest.Client
			path   string
			status int
		}{
			{rec, "/api/dashboard/appointments", http.StatusOK},
			{rec, "/api/dashboard/patients", http.StatusOK},
			{rec, "/api/dashboard/diagnoses", http.StatusForbidden},
			{nurse, "/api/dashboard/diagnoses", http.StatusForbidden},
			{doc, "/api/dashboard/diagnoses", http.StatusOK},
			{env.Client(), "/api/dashboard/patients", http.StatusUnauthorized},
		} {
			if r := c.who.Do("GET", c.path, nil); r.Status != c.status {
				t.Errorf("GET %s: %d, want %d", c.path, r.Status, c.status)
			}
		}
	})
}
