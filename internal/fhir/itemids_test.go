package fhir_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestFHIRItemsKeepTheirIDs: a diagnosis or an allergy keeps its resource's id across its
// record's saves, whatever is taken off before it in the list: the one taken off is deleted
// (410, a DELETE in the type's history), the next is never given the other's code, an id taken
// off is never given to a new one, and an edit sent back with its key stays the same resource.
// A list written before keys were keeps its ids by place (issue 59's FHIR review).
func TestFHIRItemsKeepTheirIDs(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, _ := c.token(t, "doc", "")
		visit := fmt.Sprintf("/api/appointments/%d/visit", c.visitID)
		type form struct {
			Version   int
			Diagnoses []map[string]any
		}
		save := func(ds ...map[string]any) {
			t.Helper()
			var f form
			c.doctor.Do("GET", visit, nil).JSON(t, &f)
			if r := c.doctor.Do("PUT", visit, map[string]any{"version": f.Version, "diagnoses": ds}); r.Status != http.StatusOK {
				t.Fatalf("save the diagnoses: %d %s", r.Status, r.Body)
			}
		}
		code := func(kind, id string) string { // the resource's code (its text), or its status
			t.Helper()
			r := api.Do("GET", "/fhir/R4/"+kind+"/"+id, nil)
			if r.Status != http.StatusOK {
				return fmt.Sprint(r.Status)
			}
			var res struct {
				Code struct{ Text string }
			}
			r.JSON(t, &res)
			return res.Code.Text
		}
		cond := func(n int) string { return fmt.Sprintf("%d-%d", c.visitID, n) }

		// The form holds I10, the tension headache, and now a cold.
		save(map[string]any{"code": "I10", "primary": true}, map[string]any{"text": "Tension headache"}, map[string]any{"code": "J06.9"})
		if got := []string{code("Condition", cond(1)), code("Condition", cond(2)), code("Condition", cond(3))}; !slices.Equal(got, []string{"I10", "Tension headache", "J06.9"}) {
			t.Fatalf("the conditions: %v", got)
		}
		recorded := get(t, api, "/fhir/R4/Condition/"+cond(3), http.StatusOK)["recordedDate"]
		since := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
		// The headache taken off, by a client that sends no keys.
		save(map[string]any{"code": "I10", "primary": true}, map[string]any{"code": "J06.9"})
		if got := []string{code("Condition", cond(1)), code("Condition", cond(2)), code("Condition", cond(3))}; !slices.Equal(got, []string{"I10", "410", "J06.9"}) {
			t.Errorf("after the headache was taken off: %v", got)
		}
		versionOf := func(id string) string {
			return get(t, api, "/fhir/R4/Condition/"+id, http.StatusOK)["meta"].(map[string]any)["versionId"].(string)
		}
		dropped := versionOf(cond(3))
		if again := get(t, api, "/fhir/R4/Condition/"+cond(3), http.StatusOK)["recordedDate"]; again != recorded {
			t.Errorf("the cold's recordedDate moved: %v, was %v", again, recorded)
		}
		for _, e := range get(t, api, "/fhir/R4/Condition/"+cond(3)+"/_history", http.StatusOK)["entry"].([]any) {
			if text := e.(map[string]any)["resource"].(map[string]any)["code"].(map[string]any)["text"]; text != "J06.9" {
				t.Errorf("a version of the cold's Condition says %v", text)
			}
		}
		methods := func(kind string) map[string][]string {
			out := map[string][]string{}
			list, _ := get(t, api, "/fhir/R4/"+kind+"/_history?_since="+url.QueryEscape(since), http.StatusOK)["entry"].([]any)
			for _, e := range list {
				req := e.(map[string]any)["request"].(map[string]any)
				u := req["url"].(string)
				out[u] = append(out[u], req["method"].(string))
			}
			return out
		}
		// (Newest first; since a time truncated to the second, the saves of that second too.)
		if got := methods("Condition"); len(got["Condition/"+cond(2)]) == 0 || got["Condition/"+cond(2)][0] != "DELETE" || slices.Contains(got["Condition/"+cond(3)], "DELETE") {
			t.Errorf("the history since the headache was taken off: %v", got)
		}
		// The cold's own history since then: nothing changed of it but its version... none since
		// a time to come; an unknown id since then is still unknown.
		if b := get(t, api, "/fhir/R4/Condition/"+cond(3)+"/_history?_since="+url.QueryEscape(time.Now().UTC().Add(time.Hour).Format(time.RFC3339)), http.StatusOK); b["entry"] != nil {
			t.Errorf("the cold's history since an hour to come: %v", b["entry"])
		}
		get(t, api, "/fhir/R4/Condition/"+cond(9)+"/_history?_since="+url.QueryEscape(since), http.StatusNotFound)
		if n := len(get(t, api, "/fhir/R4/Condition/"+cond(2)+"/_history?_since="+url.QueryEscape(since), http.StatusOK)["entry"].([]any)); n == 0 || n > 3 {
			t.Errorf("the headache's history since before it was taken off: %d entries", n)
		}
		// A new one is given a new id, not the headache's; an edit sent back with its key is
		// the same Condition.
		var f form
		c.doctor.Do("GET", visit, nil).JSON(t, &f)
		f.Diagnoses[0]["text"] = "Hypertension, treated"
		save(f.Diagnoses[0], f.Diagnoses[1], map[string]any{"text": "Insomnia"})
		if got := []string{code("Condition", cond(1)), code("Condition", cond(2)), code("Condition", cond(4))}; !slices.Equal(got, []string{"Hypertension, treated", "410", "Insomnia"}) {
			t.Errorf("after an edit and a new one: %v", got)
		}
		// The type's history a page at a time: no page holds more than _count entries (each
		// version whole), and the pages together hold what one page does.
		entryKeys := func(b map[string]any) []string {
			var out []string
			list, _ := b["entry"].([]any)
			for _, e := range list {
				e := e.(map[string]any)
				out = append(out, fmt.Sprint(e["request"].(map[string]any)["method"], " ", e["request"].(map[string]any)["url"], " ", e["response"].(map[string]any)["etag"]))
			}
			return out
		}
		whole := entryKeys(get(t, api, "/fhir/R4/Condition/_history?_count=100", http.StatusOK))
		var paged []string
		for link := "/fhir/R4/Condition/_history?_count=3"; link != ""; {
			b := get(t, api, link, http.StatusOK)
			page := entryKeys(b)
			if len(page) > 3 || len(page) == 0 {
				t.Errorf("a page of %d entries: %v", len(page), page)
			}
			paged = append(paged, page...)
			link = nextLink(t, b)
			if len(paged) > 100 {
				t.Fatal("paging without end")
			}
		}
		if !slices.Equal(paged, whole) {
			t.Errorf("the pages: %v\nthe whole: %v", paged, whole)
		}
		// vread: the version the headache stopped at is gone; a later one never had it.
		get(t, api, "/fhir/R4/Condition/"+cond(2)+"/_history/"+dropped, http.StatusGone)
		get(t, api, "/fhir/R4/Condition/"+cond(2)+"/_history/"+versionOf(cond(1)), http.StatusNotFound)

		// Allergies: penicillin, latex and egg; latex taken off by a client that sends no keys.
		allergies := func(list ...string) {
			t.Helper()
			var p map[string]any
			c.clerk.Do("GET", fmt.Sprintf("/api/patients/%d", c.patientID), nil).JSON(t, &p)
			var as []map[string]any
			for _, s := range list {
				as = append(as, map[string]any{"substance": s, "reaction": "rash", "severity": "moderate"})
			}
			p["history"].(map[string]any)["allergies"] = as
			if r := c.clerk.Do("PUT", fmt.Sprintf("/api/patients/%d", c.patientID), p); r.Status != http.StatusOK {
				t.Fatalf("save the allergies: %d %s", r.Status, r.Body)
			}
		}
		allergy := func(n int) string { return code("AllergyIntolerance", fmt.Sprintf("%d-%d", c.patientID, n)) }
		allergies("penicillin", "latex", "egg")
		if got := []string{allergy(1), allergy(2), allergy(3)}; !slices.Equal(got, []string{"penicillin", "latex", "egg"}) {
			t.Fatalf("the allergies: %v", got)
		}
		allergies("penicillin", "Egg ")
		allergies("penicillin", "egg", "peanut")
		if got := []string{allergy(1), allergy(2), allergy(3), allergy(4)}; !slices.Equal(got, []string{"penicillin", "410", "egg", "peanut"}) {
			t.Errorf("after latex was taken off and peanut added: %v", got)
		}

		// Allergies written before keys were, the list shortened then: a new one's id is above
		// every place a kept version's list had.
		unkey := func(table, column, where string) string {
			return fmt.Sprintf(`UPDATE %s SET %s = replace(replace(%s, '"key":', '"was_key":'), '"allergy_seq":', '"was_seq":') WHERE %s`, table, column, column, where)
		}
		allergies("penicillin", "egg")
		dbtest.Tamper(t, db, unkey("patients", "history", fmt.Sprintf("id = %d", c.patientID)), unkey("patient_versions", "data", fmt.Sprintf("patient_id = %d", c.patientID)))
		if got := []string{allergy(1), allergy(2), allergy(3)}; !slices.Equal(got, []string{"penicillin", "egg", "410"}) {
			t.Fatalf("a list without keys: %v", got)
		}
		allergies("penicillin", "egg", "sulfa")
		if got := []string{allergy(1), allergy(2), allergy(3), allergy(4)}; !slices.Equal(got, []string{"penicillin", "egg", "410", "sulfa"}) {
			t.Errorf("a list without keys, one added: %v", got)
		}

		// A list written before keys were: its ids are its places, and stay with its items.
		dbtest.Tamper(t, db, fmt.Sprintf(`UPDATE visits SET content = '%s' WHERE appointment_id = %d`,
			`{"diagnoses":[{"code":"I10","text":"","primary":true},{"code":"","text":"Gout","primary":false},{"code":"J06.9","text":"","primary":false}]}`, c.visitID))
		if got := []string{code("Condition", cond(1)), code("Condition", cond(2)), code("Condition", cond(3))}; !slices.Equal(got, []string{"I10", "Gout", "J06.9"}) {
			t.Fatalf("a list without keys: %v", got)
		}
		// Saved again: the new one's id is above every one the kept versions gave (Insomnia's 4).
		save(map[string]any{"code": "J06.9"}, map[string]any{"text": "Gout"}, map[string]any{"text": "Asthma"})
		if got := []string{code("Condition", cond(1)), code("Condition", cond(2)), code("Condition", cond(3)), code("Condition", cond(4)), code("Condition", cond(5))}; !slices.Equal(got, []string{"410", "Gout", "J06.9", "410", "Asthma"}) {
			t.Errorf("a list without keys, saved again: %v", got)
		}
	})
}
