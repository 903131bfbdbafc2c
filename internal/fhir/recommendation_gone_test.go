package fhir_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestFHIRRecommendationGone: a child's ImmunizationRecommendation stops being when a birthday
// takes them past every schedule of the clinic (18 years): its read answers 410, not 404, and
// an export since before that day lists it among the deletions (of that child's export, not
// another's; not once since after it). One registered already past it never had one: 404
// (issue 59's FHIR review).
func TestFHIRRecommendationGone(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		grown, _ := c.child(t, 18*12+1) // eighteen a month ago
		young, _ := c.child(t, 18*12-1) // eighteen in a month
		// The grown one was registered as a child.
		if _, err := db.ExecContext(context.Background(), `UPDATE patients SET created_at = $1 WHERE id = $2`, time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), grown); err != nil {
			t.Fatal(err)
		}
		api, _ := c.token(t, "doc", "")
		get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", grown), http.StatusGone)
		get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", young), http.StatusOK)
		get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", c.patientID), http.StatusNotFound) // an adult at registration
		get(t, api, "/fhir/R4/ImmunizationRecommendation/999999", http.StatusNotFound)

		// A birth date corrected from a child's to an adult's: gone too, since the correction.
		fixed, _ := c.child(t, 10*12)
		get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", fixed), http.StatusOK)
		before := time.Now().UTC().Add(-2 * time.Second)
		var pat map[string]any
		c.clerk.Do("GET", fmt.Sprintf("/api/patients/%d", fixed), nil).JSON(t, &pat)
		pat["birth_date"] = "2000-01-01"
		if r := c.clerk.Do("PUT", fmt.Sprintf("/api/patients/%d", fixed), pat); r.Status != http.StatusOK {
			t.Fatalf("correct the birth date: %d %s", r.Status, r.Body)
		}
		get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", fixed), http.StatusGone)
		correctedAt := time.Now()
		// A later edit (the phone) does not move when it ended.
		c.clerk.Do("GET", fmt.Sprintf("/api/patients/%d", fixed), nil).JSON(t, &pat)
		pat["phone"] = "0903 111 222"
		for time.Now().Before(correctedAt.Add(1100 * time.Millisecond)) {
			time.Sleep(50 * time.Millisecond) // the edit a second or more after the correction
		}
		if r := c.clerk.Do("PUT", fmt.Sprintf("/api/patients/%d", fixed), pat); r.Status != http.StatusOK {
			t.Fatalf("edit the phone: %d %s", r.Status, r.Body)
		}

		admin, _ := c.token(t, "admin", "")
		corrected := []string{fmt.Sprintf("ImmunizationRecommendation/%d", fixed)}
		m := exportTo(t, admin, "/fhir/R4/$export?_type=ImmunizationRecommendation&_since="+url.QueryEscape(before.Format(time.RFC3339)))
		if got := deletedIn(t, admin, m); !slices.Equal(got, corrected) {
			t.Errorf("deleted since before the correction: %v, want %v", got, corrected)
		} else {
			b := ndjson(t, admin, m["deleted"].([]any)[0].(map[string]any)["url"].(string))[0]
			if at, err := time.Parse(time.RFC3339, fmt.Sprint(b["timestamp"])); err != nil || at.After(correctedAt) || at.Before(before) {
				t.Errorf("the deletion's time %v: not the correction's (%v)", b["timestamp"], correctedAt)
			}
		}
		after := time.Now().UTC().Add(time.Second).Truncate(time.Second)
		for time.Now().Before(after) {
			time.Sleep(50 * time.Millisecond) // until a second after the correction: _since is to the second
		}
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=ImmunizationRecommendation&_since="+url.QueryEscape(after.Format(time.RFC3339)))); len(got) != 0 {
			t.Errorf("deleted since after the correction: %v", got)
		}
		since := func(days int) string {
			return url.QueryEscape(time.Now().UTC().AddDate(0, 0, -days).Format(time.RFC3339))
		}
		want := []string{fmt.Sprintf("ImmunizationRecommendation/%d", grown), fmt.Sprintf("ImmunizationRecommendation/%d", fixed)}
		slices.Sort(want)
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=ImmunizationRecommendation&_since="+since(60))); !slices.Equal(got, want) {
			t.Errorf("deleted since 60 days ago: %v, want %v", got, want)
		}
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=ImmunizationRecommendation&_since="+since(10))); !slices.Equal(got, corrected) {
			t.Errorf("deleted since 10 days ago: %v, want %v", got, corrected)
		}
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=ImmunizationRecommendation&_since="+since(60)+
			"&_typeFilter="+url.QueryEscape("ImmunizationRecommendation?_lastUpdated=ge"+time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)))); !slices.Equal(got, corrected) {
			t.Errorf("deleted since 60 days ago, last updated since yesterday: %v, want %v", got, corrected)
		}
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=Immunization&_since="+since(60))); len(got) != 0 {
			t.Errorf("deleted in an export of another type: %v", got)
		}
		if got := deletedIn(t, admin, exportBy(t, admin, "POST", "/fhir/R4/Patient/$export", parameters("_type", "ImmunizationRecommendation",
			"_since", time.Now().UTC().AddDate(0, 0, -60).Format(time.RFC3339), "patient", fmt.Sprintf("Patient/%d", young)))); len(got) != 0 {
			t.Errorf("deleted in another child's export: %v", got)
		}
	})
}

// TestFHIRRecommendationGoneAtTheClinicsMidnight: a forecast ends at the clinic's midnight of
// the birthday, not UTC's: a clinic west of UTC (Los Angeles) whose export runs since the hour
// before that midnight (the same UTC day as the birthday) lists the deletion, at that midnight;
// one since after it does not (the integrator's re-read).
func TestFHIRRecommendationGoneAtTheClinicsMidnight(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		cfg := apitest.Config()
		cfg.Timezone = "America/Los_Angeles"
		c := newClinicWith(t, db, cfg)
		la, _ := time.LoadLocation(cfg.Timezone)
		now := time.Now().In(la)
		midnight := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, la)
		var p struct{ ID int64 }
		r := c.clerk.Do("POST", "/api/patients", map[string]any{"first_name": "Mai", "last_name": "Tran", "birth_date": midnight.AddDate(-18, 0, 0).Format(time.DateOnly),
			"sex": "female", "history": map[string]any{"allergy_status": "none"}})
		if r.Status != http.StatusCreated {
			t.Fatalf("register: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &p)
		if _, err := db.ExecContext(context.Background(), `UPDATE patients SET created_at = $1 WHERE id = $2`, time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), p.ID); err != nil {
			t.Fatal(err)
		}
		api, _ := c.token(t, "doc", "")
		get(t, api, fmt.Sprintf("/fhir/R4/ImmunizationRecommendation/%d", p.ID), http.StatusGone)
		admin, _ := c.token(t, "admin", "")
		export := func(since time.Time) map[string]any {
			return exportTo(t, admin, "/fhir/R4/$export?_type=ImmunizationRecommendation&_since="+url.QueryEscape(since.Format(time.RFC3339)))
		}
		want := []string{fmt.Sprintf("ImmunizationRecommendation/%d", p.ID)}
		m := export(midnight.Add(-time.Hour))
		if got := deletedIn(t, admin, m); !slices.Equal(got, want) {
			t.Errorf("deleted since the hour before the clinic's midnight: %v, want %v", got, want)
		} else {
			list, _ := m["deleted"].([]any)
			b := ndjson(t, admin, list[0].(map[string]any)["url"].(string))[0]
			if at, err := time.Parse(time.RFC3339, fmt.Sprint(b["timestamp"])); err != nil || !at.Equal(midnight) {
				t.Errorf("the deletion's time: %v, want %v", b["timestamp"], midnight)
			}
		}
		if got := deletedIn(t, admin, export(midnight.Add(time.Since(midnight)/2))); len(got) != 0 { // after it, not to come
			t.Errorf("deleted since after the clinic's midnight: %v", got)
		}
	})
}
