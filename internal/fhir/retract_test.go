package fhir_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestRetractedAndPerformedLabResults (issue 54): a value keeps the decimals typed (TSH
// 0.004 through the store, the API and valueQuantity); each result names the laboratory
// that performed it; an old "lab-{order}-{result row}" id moves permanently to its
// analyte's; a result entered in error becomes a new version of its Observation,
// entered-in-error with a fixed note (never the reason typed), and its report corrected (a
// final one; a preliminary one stays preliminary), or entered-in-error once every result is.
func TestRetractedAndPerformedLabResults(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		orders := c.visitOrders(t, "THYROID", "CBC", "BMP")
		api, _ := c.token(t, "doc", "")
		for _, o := range orders {
			c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
		}
		thyroid, cbc := orders["THYROID"].ID, orders["CBC"].ID
		c.record(t, thyroid, true, "", map[string]any{"analyte": "TSH", "value": "0.004", "unit": "m[IU]/L"},
			map[string]any{"analyte": "FT4", "value": "31.5", "unit": "pmol/L"})
		if r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", cbc), map[string]any{"version": c.orderVersion(t, cbc), "final": true,
			"performer": "  City Reference Laboratory ", "results": []map[string]any{{"analyte": "WBC", "value": "5.0", "unit": "10*9/L"}}}); r.Status != http.StatusOK {
			t.Fatalf("results performed elsewhere: %d %s", r.Status, r.Body)
		}

		// 0.004 as typed: in the native API and in valueQuantity.
		var detail struct {
			Results []struct {
				ID        int64
				Analyte   string
				Value     *string
				Performer string
			}
		}
		c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", thyroid), nil).JSON(t, &detail)
		var tshRow int64
		for _, x := range detail.Results {
			if x.Analyte == "TSH" {
				tshRow = x.ID
				if x.Value == nil || *x.Value != "0.004" || x.Performer != "" {
					t.Errorf("TSH as stored: %v %q", x.Value, x.Performer)
				}
			}
		}
		tsh := fmt.Sprintf("/fhir/R4/Observation/lab-%d-TSH", thyroid)
		r := api.Do("GET", tsh, nil)
		if r.Status != http.StatusOK || !strings.Contains(string(r.Body), `"value":0.004`) {
			t.Errorf("TSH valueQuantity: %d %s", r.Status, r.Body)
		}

		// The performer: the clinic's Organization, or the external laboratory by name.
		if got := get(t, api, tsh, http.StatusOK); fmt.Sprint(got["performer"]) != "[map[reference:Organization/clinic]]" {
			t.Errorf("the clinic's own result: performer %v", got["performer"])
		}
		wbc := get(t, api, fmt.Sprintf("/fhir/R4/Observation/lab-%d-WBC", cbc), http.StatusOK)
		report := get(t, api, fmt.Sprintf("/fhir/R4/DiagnosticReport/%d", cbc), http.StatusOK)
		for what, got := range map[string]any{"observation": wbc["performer"], "report": report["performer"]} {
			if fmt.Sprint(got) != "[map[display:City Reference Laboratory]]" {
				t.Errorf("performed elsewhere, %s: performer %v", what, got)
			}
		}

		// The old id of a result row answers 301 to its analyte's id; one that names no row
		// of the order, 404.
		old := fmt.Sprintf("/fhir/R4/Observation/lab-%d-%d", thyroid, tshRow)
		r = api.Do("GET", old, nil)
		if r.Status != http.StatusMovedPermanently || !strings.HasSuffix(r.Header.Get("Location"), fmt.Sprintf("/Observation/lab-%d-TSH", thyroid)) ||
			!strings.Contains(string(r.Body), `"resourceType":"OperationOutcome"`) {
			t.Errorf("old id: %d %q %s", r.Status, r.Header.Get("Location"), r.Body)
		}
		get(t, api, fmt.Sprintf("/fhir/R4/Observation/lab-%d-%d", thyroid, tshRow+1000), http.StatusNotFound)
		get(t, api, fmt.Sprintf("/fhir/R4/Observation/lab-%d-%d", cbc, tshRow), http.StatusNotFound) // another order's row

		// TSH entered in error: a new version, entered-in-error, no value, the reason in a
		// note; the history keeps the value; the report is corrected (FT4 stands).
		before := get(t, api, tsh, http.StatusOK)
		// Another patient's sample is the whole report; one value is withdrawn as mistyped.
		category := func(row int64) string {
			if row == 0 {
				return "wrong_patient"
			}
			return "transcription"
		}
		retract := func(id, row int64, reason string) {
			t.Helper()
			if r := c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/retract", id), map[string]any{"version": c.orderVersion(t, id), "result_id": row, "category": category(row), "reason": reason}); r.Status != http.StatusOK {
				t.Fatalf("retract: %d %s", r.Status, r.Body)
			}
		}
		retract(thyroid, tshRow, "another patient's sample")
		after := get(t, api, tsh, http.StatusOK)
		versionOf := func(m map[string]any) int {
			n, _ := strconv.Atoi(m["meta"].(map[string]any)["versionId"].(string))
			return n
		}
		// The note is fixed words: the reason typed (which may name the patient whose sample it
		// was) stays in the clinic's own screens.
		if after["status"] != "entered-in-error" || after["valueQuantity"] != nil || fmt.Sprint(after["note"]) != "[map[text:Entered in error]]" ||
			strings.Contains(string(api.Do("GET", tsh, nil).Body), "another patient") || versionOf(after) <= versionOf(before) {
			t.Errorf("retracted TSH: %v %v %v v%d", after["status"], after["valueQuantity"], after["note"], versionOf(after))
		}
		kept := get(t, api, tsh+"/_history/"+strconv.Itoa(versionOf(before)), http.StatusOK)
		if kept["status"] != "final" || kept["valueQuantity"] == nil {
			t.Errorf("the version before the retraction: %v %v", kept["status"], kept["valueQuantity"])
		}
		dr := fmt.Sprintf("/fhir/R4/DiagnosticReport/%d", thyroid)
		if got := get(t, api, dr, http.StatusOK); got["status"] != "corrected" || !strings.Contains(fmt.Sprint(got["result"]), fmt.Sprintf("lab-%d-TSH", thyroid)) {
			t.Errorf("report with one result entered in error: %v %v", got["status"], got["result"])
		}
		// A preliminary report with one result withdrawn stays preliminary: corrected follows
		// final (R4).
		bmp := orders["BMP"].ID
		c.record(t, bmp, false, "", map[string]any{"analyte": "K", "value": "4.4", "unit": "mmol/L"},
			map[string]any{"analyte": "NA", "value": "139", "unit": "mmol/L"})
		var prelim struct{ Results []struct{ ID int64 } }
		c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", bmp), nil).JSON(t, &prelim)
		retract(bmp, prelim.Results[0].ID, "typed on the wrong order")
		if got := get(t, api, fmt.Sprintf("/fhir/R4/DiagnosticReport/%d", bmp), http.StatusOK); got["status"] != "preliminary" {
			t.Errorf("a preliminary report with one result entered in error: %v", got["status"])
		}
		// The whole report entered in error.
		retract(thyroid, 0, "wrong patient")
		if got := get(t, api, dr, http.StatusOK); got["status"] != "entered-in-error" {
			t.Errorf("report with every result entered in error: %v", got["status"])
		}
		if got := get(t, api, fmt.Sprintf("/fhir/R4/Observation/lab-%d-FT4", thyroid), http.StatusOK); got["status"] != "entered-in-error" {
			t.Errorf("FT4 after the whole report: %v", got["status"])
		}
	})
}
