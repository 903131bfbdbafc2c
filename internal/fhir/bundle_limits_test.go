package fhir_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/fhir"
	"emr/internal/i18n"
)

// bundleOf is a batch or transaction of the given entries.
func bundleOf(kind string, entries ...map[string]any) map[string]any {
	list := make([]any, len(entries))
	for i, e := range entries {
		list[i] = e
	}
	return map[string]any{"resourceType": "Bundle", "type": kind, "entry": list}
}

func getEntry(url string) map[string]any {
	return map[string]any{"request": map[string]any{"method": "GET", "url": url}}
}

func postEntry(urn string, res map[string]any) map[string]any {
	e := map[string]any{"request": map[string]any{"method": "POST", "url": "Patient"}, "resource": res}
	if urn != "" {
		e["fullUrl"] = urn
	}
	return e
}

// postBundle sends a Bundle as it is (no schema check of the answer: a thousand entries).
func postBundle(t *testing.T, c *apitest.Client, body any) (apitest.Response, map[string]any) {
	t.Helper()
	js, ok := body.([]byte)
	if !ok {
		js, _ = json.Marshal(body)
	}
	c.Header.Set("Content-Type", "application/fhir+json")
	r := c.Do("POST", "/fhir/R4", js)
	c.Header.Del("Content-Type")
	var out map[string]any
	if err := json.Unmarshal(r.Body, &out); err != nil {
		t.Fatalf("the answer is not JSON (%d): %v: %.300s", r.Status, err, r.Body)
	}
	return r, out
}

// entryResponses are the answer Bundle's entries' responses.
func entryResponses(t *testing.T, b map[string]any) []map[string]any {
	t.Helper()
	var out []map[string]any
	list, _ := b["entry"].([]any)
	for _, e := range list {
		resp, _ := e.(map[string]any)["response"].(map[string]any)
		out = append(out, resp)
	}
	return out
}

func issueCode(oo map[string]any) string {
	issues, _ := oo["issue"].([]any)
	if len(issues) == 0 {
		return ""
	}
	code, _ := issues[0].(map[string]any)["code"].(string)
	return code
}

// TestBundleBounds: a Bundle over its entries or bytes is refused whole (413 and an
// OperationOutcome), a Bundle's writes over the credential's rate whole (429, Retry-After,
// nothing written); each read's page is the search's own; every entry has a status, and one
// that could not be answered its own OperationOutcome (in the caller's language), never an
// empty 200 after writes; past the answer's budget the remaining reads are not run.
func TestBundleBounds(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		api, tokenID := c.token(t, "clerk", "")

		// Whole Bundles: size and kind → status.
		thousand := make([]map[string]any, fhir.MaxEntries)
		for i := range thousand {
			thousand[i] = getEntry("metadata")
		}
		huge := newPatientResource("Huge")
		huge["name"] = []any{map[string]any{"family": strings.Repeat("x", fhir.MaxBundle), "given": []string{"A"}}}
		for _, tc := range []struct {
			name     string
			body     any
			want     int
			wantCode string
		}{
			{"a thousand reads", bundleOf("batch", thousand...), http.StatusOK, ""},
			{"a thousand and one entries", bundleOf("batch", append(thousand, getEntry("metadata"))...), http.StatusRequestEntityTooLarge, "too-costly"},
			{"over 8 MB", bundleOf("transaction", postEntry("", huge)), http.StatusRequestEntityTooLarge, "too-long"},
			{"not a batch", map[string]any{"resourceType": "Bundle", "type": "collection", "entry": []any{}}, http.StatusBadRequest, "invalid"},
			{"an entry without a request", map[string]any{"resourceType": "Bundle", "type": "batch", "entry": []any{map[string]any{}}}, http.StatusBadRequest, "invalid"},
		} {
			r, out := postBundle(t, api, tc.body)
			if r.Status != tc.want {
				t.Errorf("%s: %d, want %d: %.300s", tc.name, r.Status, tc.want, r.Body)
				continue
			}
			if tc.want == http.StatusOK {
				if got := len(entryResponses(t, out)); got != fhir.MaxEntries {
					t.Errorf("%s: %d entries answered", tc.name, got)
				}
				continue
			}
			if out["resourceType"] != "OperationOutcome" || issueCode(out) != tc.wantCode {
				t.Errorf("%s: %v", tc.name, out)
			}
		}

		// More than a page of patients, in one Bundle of registrations.
		many := make([]map[string]any, fhir.MaxCount+1)
		for i := range many {
			p := newPatientResource(fmt.Sprintf("Page%03d", i))
			p["birthDate"] = fmt.Sprintf("19%02d-01-01", 20+i%70)
			many[i] = postEntry("", p)
		}
		if r, out := postBundle(t, api, bundleOf("batch", many...)); r.Status != http.StatusOK || entryResponses(t, out)[fhir.MaxCount]["status"] != "201 Created" {
			t.Fatalf("registrations: %d %.300s", r.Status, r.Body)
		}

		// A batch after a write: each entry → its status, and an outcome when it failed.
		urn := "urn:uuid:7d1c9a52-2222-4a5b-9c0d-000000000001"
		entries := []struct {
			entry    map[string]any
			status   string
			wantCode string // the outcome's issue code, "" for an answer
		}{
			{postEntry(urn, newPatientResource("Written")), "201 Created", ""},
			{getEntry("Patient/99999999"), "404 Not Found", "not-found"},
			{getEntry(fmt.Sprintf("Observation?patient=%d", c.patientID)), "403 Forbidden", "forbidden"},
			{getEntry("Patient?_count=abc"), "400 Bad Request", "invalid"},
			{getEntry("Patient/../../api/patients"), "400 Bad Request", "invalid"},
			{getEntry("https://elsewhere.example/fhir/R4/Patient/1"), "400 Bad Request", "invalid"},
			{getEntry("$export"), "400 Bad Request", "not-supported"},
			{getEntry("bulkdata/abc/Patient.ndjson"), "400 Bad Request", "not-supported"},
			{getEntry("Patient?_count=1000"), "200 OK", ""},
			{getEntry(urn), "200 OK", ""},
		}
		var list []map[string]any
		for _, e := range entries {
			list = append(list, e.entry)
		}
		api.Header.Set("Accept-Language", "vi")
		r, out := postBundle(t, api, bundleOf("batch", list...))
		api.Header.Del("Accept-Language")
		if r.Status != http.StatusOK {
			t.Fatalf("batch: %d %s", r.Status, r.Body)
		}
		validResource(t, r.Body)
		answered := out["entry"].([]any)
		for i, e := range entries {
			got := answered[i].(map[string]any)
			resp, _ := got["response"].(map[string]any)
			if resp == nil || resp["status"] != e.status {
				t.Errorf("entry %d (%v): %v, want %s", i, e.entry["request"], resp, e.status)
				continue
			}
			oo, _ := resp["outcome"].(map[string]any)
			if e.wantCode == "" {
				if got["resource"] == nil || oo != nil {
					t.Errorf("entry %d: an answer without its resource: %v", i, got)
				}
				continue
			}
			if oo == nil || issueCode(oo) != e.wantCode {
				t.Errorf("entry %d (%v): outcome %v, want %s", i, e.entry["request"], oo, e.wantCode)
			}
		}
		page := answered[8].(map[string]any)["resource"].(map[string]any)
		if n := len(page["entry"].([]any)); n != fhir.MaxCount || !strings.Contains(link(page, "self"), "_count="+strconv.Itoa(fhir.MaxCount)) {
			t.Errorf("a read asking for 1000: %d entries, self %s", n, link(page, "self"))
		}
		diag := answered[4].(map[string]any)["response"].(map[string]any)["outcome"].(map[string]any)["issue"].([]any)[0].(map[string]any)["diagnostics"]
		if want := i18n.T("vi", "fhir.entry_url", "Patient/../../api/patients"); diag != want {
			t.Errorf("the outcome in the caller's language: %q, want %q", diag, want)
		}

		// The answer's budget: past it the remaining reads are not run; one read over its own
		// limit is not kept.
		patient := fmt.Sprintf("Patient/%d", c.patientID)
		restore := fhir.SetAnswerLimits(1, fhir.MaxEntryAnswer)
		_, out = postBundle(t, api, bundleOf("batch", getEntry(patient), getEntry(patient), getEntry(patient)))
		restore()
		resps := entryResponses(t, out)
		if resps[0]["status"] != "200 OK" || resps[1]["status"] != "400 Bad Request" || resps[2]["status"] != "400 Bad Request" ||
			issueCode(resps[2]["outcome"].(map[string]any)) != "too-costly" {
			t.Errorf("past the budget: %v", resps)
		}
		restore = fhir.SetAnswerLimits(fhir.MaxBundleAnswer, 100)
		_, out = postBundle(t, api, bundleOf("batch", getEntry(patient)))
		restore()
		if resp := entryResponses(t, out)[0]; resp["status"] != "400 Bad Request" || issueCode(resp["outcome"].(map[string]any)) != "too-costly" {
			t.Errorf("a read over its limit: %v", resp)
		}

		// The credential's rate: a Bundle whose writes would go over it is refused whole,
		// before it writes; reads are not counted; another credential has its own.
		if _, err := db.ExecContext(context.Background(), `INSERT INTO login_throttle (key, window_start, tries) VALUES ($1, $2, $3)
			ON CONFLICT (key) DO UPDATE SET window_start = excluded.window_start, tries = excluded.tries`,
			"bundle-writes:token:"+strconv.FormatInt(tokenID, 10), time.Now().UTC(), fhir.BundleWritesPerMinute-1); err != nil {
			t.Fatal(err)
		}
		before := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`)
		r, out = postBundle(t, api, bundleOf("batch", postEntry("", newPatientResource("Rate")), postEntry("", newPatientResource("Limit"))))
		wait, _ := strconv.Atoi(r.Header.Get("Retry-After"))
		if r.Status != http.StatusTooManyRequests || wait < 1 || wait > 60 || out["resourceType"] != "OperationOutcome" || issueCode(out) != "throttled" {
			t.Errorf("over the rate: %d Retry-After %q %v", r.Status, r.Header.Get("Retry-After"), out)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`); n != before {
			t.Errorf("a refused Bundle wrote %d patients", n-before)
		}
		if r, out := postBundle(t, api, bundleOf("batch", postEntry("", newPatientResource("Within")))); r.Status != http.StatusOK || entryResponses(t, out)[0]["status"] != "201 Created" {
			t.Errorf("the last write within the rate: %d %s", r.Status, r.Body)
		}
		if r, _ := postBundle(t, api, bundleOf("batch", getEntry(patient))); r.Status != http.StatusOK {
			t.Errorf("reads at the rate: %d %s", r.Status, r.Body)
		}
		other, _ := c.token(t, "clerk", "")
		if r, _ := postBundle(t, other, bundleOf("batch", postEntry("", newPatientResource("Other")), postEntry("", newPatientResource("Token")))); r.Status != http.StatusOK {
			t.Errorf("another credential: %d %s", r.Status, r.Body)
		}
	})
}
