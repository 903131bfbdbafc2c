package fhir_test

import (
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

// TestFHIRDeletionsListed: a resource its record's new version no longer gives (a length taken
// off the form, and the BMI and its percentile with it) is a DELETE entry, with its time, in
// the instance's and the type's history (with and without _since), and a transaction Bundle
// of a DELETE in an export since before it (the manifest's "deleted"): of the export's patients
// only, not in an export of everything, and not once it is back.
func TestFHIRDeletionsListed(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		kid, _ := c.child(t, 10)
		var a struct{ ID int64 }
		r := c.clerk.Do("POST", "/api/appointments", map[string]any{"patient_id": kid, "doctor_id": c.env.UserID("doc"),
			"starts_at": c.visitAt.Add(30 * time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new", "reason": "well child"})
		if r.Status != http.StatusCreated {
			t.Fatalf("book: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &a)
		path := fmt.Sprintf("/api/appointments/%d", a.ID)
		c.clerk.Do("POST", path+"/arrive", map[string]any{})
		vitals := func(version int, v map[string]any) int {
			t.Helper()
			r := c.nurse.Do("PUT", path+"/visit/vitals", map[string]any{"version": version, "vitals": v})
			if r.Status != http.StatusOK {
				t.Fatalf("vitals: %d %s", r.Status, r.Body)
			}
			var saved struct{ Version int }
			r.JSON(t, &saved)
			return saved.Version
		}
		version := vitals(0, map[string]any{"weight": 8.5, "height": 71})
		start := time.Now().UTC().Truncate(time.Second)
		since := start.Format(time.RFC3339)
		after := func(at string) bool { // at is an instant at or after since
			t, err := time.Parse(time.RFC3339, at)
			return err == nil && !t.Before(start)
		}
		version = vitals(version, map[string]any{"height": nil})

		api, _ := c.token(t, "doc", "")
		gone := []string{fmt.Sprintf("%d-height", a.ID), fmt.Sprintf("%d-bmi", a.ID), fmt.Sprintf("%d-bmipct", a.ID)}
		for _, id := range gone {
			get(t, api, "/fhir/R4/Observation/"+id, http.StatusGone)
		}
		deletes := func(b map[string]any) map[string]string { // id → the DELETE's time
			out := map[string]string{}
			list, _ := b["entry"].([]any)
			for _, e := range list {
				e := e.(map[string]any)
				if req := e["request"].(map[string]any); req["method"] == "DELETE" {
					if e["resource"] != nil {
						t.Errorf("a DELETE entry with a resource: %v", e)
					}
					res := e["response"].(map[string]any)
					out[req["url"].(string)] = fmt.Sprint(res["lastModified"])
				}
			}
			return out
		}
		want := func(what string, got map[string]string) {
			t.Helper()
			for _, id := range gone {
				if at, ok := got["Observation/"+id]; !ok || !after(at) {
					t.Errorf("%s: Observation/%s's deletion %q (of %v)", what, id, at, got)
				}
			}
			if _, ok := got[fmt.Sprintf("Observation/%d-weight", a.ID)]; ok {
				t.Errorf("%s: the weight, still there, said deleted: %v", what, got)
			}
		}
		one := deletes(get(t, api, "/fhir/R4/Observation/"+gone[0]+"/_history", http.StatusOK))
		if len(one) != 1 || !after(one["Observation/"+gone[0]]) {
			t.Errorf("the length's own history: %v", one)
		}
		want("the type's history", deletes(get(t, api, "/fhir/R4/Observation/_history", http.StatusOK)))
		want("the type's history since", deletes(get(t, api, "/fhir/R4/Observation/_history?_since="+url.QueryEscape(since), http.StatusOK)))
		// Other types' histories say nothing of an Observation's deletion.
		if d := deletes(get(t, api, "/fhir/R4/Condition/_history", http.StatusOK)); len(d) != 0 {
			t.Errorf("Condition history: %v", d)
		}

		// An export since before the change lists its deletions; one of everything does not.
		admin, _ := c.token(t, "admin", "")
		expected := []string{"Observation/" + gone[1], "Observation/" + gone[2], "Observation/" + gone[0]}
		slices.Sort(expected)
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=Observation,Patient&_since="+url.QueryEscape(since))); !slices.Equal(got, expected) {
			t.Errorf("deleted since %s: %v, want %v", since, got, expected)
		}
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=Observation")); len(got) != 0 {
			t.Errorf("deleted in an export of everything: %v", got)
		}
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=Condition&_since="+url.QueryEscape(since))); len(got) != 0 {
			t.Errorf("deleted in an export of another type: %v", got)
		}
		if got := deletedIn(t, admin, exportBy(t, admin, "POST", "/fhir/R4/Patient/$export", parameters("_type", "Observation", "_since", since,
			"patient", fmt.Sprintf("Patient/%d", c.patientID)))); len(got) != 0 {
			t.Errorf("deleted in another patient's export: %v", got)
		}
		if got := deletedIn(t, admin, exportBy(t, admin, "POST", "/fhir/R4/Patient/$export", parameters("_type", "Observation", "_since", since,
			"patient", fmt.Sprintf("Patient/%d", kid)))); !slices.Equal(got, expected) {
			t.Errorf("deleted in the child's export: %v", got)
		}
		// Measured again: back, no longer deleted.
		version = vitals(version, map[string]any{"height": 72})
		if got := deletedIn(t, admin, exportTo(t, admin, "/fhir/R4/$export?_type=Observation&_since="+url.QueryEscape(since))); len(got) != 0 {
			t.Errorf("deleted once back: %v", got)
		}
		// The length's history a page at a time: measured, taken off, measured again — every
		// page full, the last without a next link; a vital never measured has no history, however
		// many versions its visit has.
		vitals(version, map[string]any{"temperature": 36.6})
		var methods []string
		for link := "/fhir/R4/Observation/" + gone[0] + "/_history?_count=1"; link != ""; {
			b := get(t, api, link, http.StatusOK)
			list, _ := b["entry"].([]any)
			if len(list) != 1 {
				t.Fatalf("a page of %d: %v", len(list), b)
			}
			methods = append(methods, list[0].(map[string]any)["request"].(map[string]any)["method"].(string))
			link = nextLink(t, b)
			if len(methods) > 10 {
				t.Fatal("paging without end")
			}
		}
		// Versions: the first save (POST), the length taken off (DELETE), measured again and
		// the temperature (PUT each).
		if want := []string{"PUT", "PUT", "DELETE", "POST"}; !slices.Equal(methods, want) {
			t.Errorf("the length's history by pages: %v, want %v", methods, want)
		}
		get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-head/_history", a.ID), http.StatusNotFound)
		get(t, api, fmt.Sprintf("/fhir/R4/Observation/%d-head/_history?_count=1", a.ID), http.StatusNotFound)
	})
}

// deletedIn are the deletions an export's manifest lists ("Kind/id", sorted): each a
// transaction Bundle of DELETE entries, as many lines as the manifest counts.
func deletedIn(t *testing.T, admin *apitest.Client, m map[string]any) []string {
	t.Helper()
	var out []string
	list, _ := m["deleted"].([]any)
	for _, f := range list {
		f := f.(map[string]any)
		if f["type"] != "Bundle" {
			t.Errorf("a deletions file of %v", f["type"])
		}
		lines := ndjson(t, admin, f["url"].(string))
		if len(lines) != int(f["count"].(float64)) {
			t.Errorf("%d lines, the manifest says %v", len(lines), f["count"])
		}
		for _, b := range lines {
			if b["resourceType"] != "Bundle" || b["type"] != "transaction" {
				t.Errorf("a deletion: %v", b)
			}
			for _, e := range b["entry"].([]any) {
				req := e.(map[string]any)["request"].(map[string]any)
				if req["method"] != "DELETE" {
					t.Errorf("a deletion's entry: %v", e)
				}
				out = append(out, req["url"].(string))
			}
		}
	}
	slices.Sort(out)
	return out
}

// nextLink is a Bundle's next page, relative to the server; "" on the last page.
func nextLink(t *testing.T, b map[string]any) string {
	t.Helper()
	for _, l := range b["link"].([]any) {
		if l := l.(map[string]any); l["relation"] == "next" {
			return relative(t, l["url"].(string))
		}
	}
	return ""
}
