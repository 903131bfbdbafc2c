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

// labOrder is one order of the clinic's visit as the results screen reads it.
type labOrder struct {
	ID      int64
	Test    string
	Version int
}

// visitOrders orders tests on the clinic's visit and returns its orders by test.
func (c *clinic) visitOrders(t *testing.T, tests ...string) map[string]labOrder {
	t.Helper()
	path := fmt.Sprintf("/api/appointments/%d", c.visitID)
	var orders []map[string]any
	for _, code := range tests {
		orders = append(orders, map[string]any{"code": code})
	}
	if r := c.doctor.Do("PUT", path+"/visit", map[string]any{"version": 2, "chief_complaint": "Headache", "orders": orders}); r.Status != http.StatusOK {
		t.Fatalf("order: %d %s", r.Status, r.Body)
	}
	var list struct{ Data []labOrder }
	c.nurse.Do("GET", path+"/orders", nil).JSON(t, &list)
	out := map[string]labOrder{}
	for _, o := range list.Data {
		out[o.Test] = o
	}
	return out
}

// orderVersion reads an order's version now.
func (c *clinic) orderVersion(t *testing.T, id int64) int {
	t.Helper()
	var o labOrder
	c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", id), nil).JSON(t, &o)
	return o.Version
}

// record records results on an order as the nurse; reason makes it a correction.
func (c *clinic) record(t *testing.T, id int64, final bool, reason string, results ...map[string]any) {
	t.Helper()
	body := map[string]any{"version": c.orderVersion(t, id), "final": final, "reason": reason, "results": results}
	if r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", id), body); r.Status != http.StatusOK {
		t.Fatalf("results of order %d: %d %s", id, r.Status, r.Body)
	}
}

// TestLaboratoryResultsAsAClinicianReadsThem: a result keeps one Observation through its
// corrections (same id, a new version, the old value still readable), each result's status
// is its own, a closed order's unreported results are cancelled with the reason, decimals
// keep the precision reported, qualitative answers are coded.
func TestLaboratoryResultsAsAClinicianReadsThem(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		orders := c.visitOrders(t, "CBC", "UA", "DENGUE", "CRP", "ECG", "ECHO", "XR-CHEST")
		api, _ := c.token(t, "doc", "")
		for _, o := range orders {
			c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version})
		}
		cbc, ua, dengue := orders["CBC"].ID, orders["UA"].ID, orders["DENGUE"].ID
		wbc := fmt.Sprintf("/fhir/R4/Observation/lab-%d-WBC", cbc)

		// Entered preliminary, then final with another analyte, then corrected.
		c.record(t, cbc, false, "", map[string]any{"analyte": "WBC", "value": "5.0", "unit": "10*9/L"})
		first := get(t, api, wbc, http.StatusOK)
		c.record(t, cbc, true, "", map[string]any{"analyte": "WBC", "value": "5.0", "unit": "10*9/L"},
			map[string]any{"analyte": "NEUT%", "value": "60.0", "unit": "%"})
		final := get(t, api, wbc, http.StatusOK)
		c.record(t, cbc, true, "transcription error", map[string]any{"analyte": "WBC", "value": "6.1", "unit": "10*9/L"},
			map[string]any{"analyte": "PLT", "value": "250", "unit": "10*9/L"})
		corrected := get(t, api, wbc, http.StatusOK)
		version := func(m map[string]any) int {
			n, _ := strconv.Atoi(m["meta"].(map[string]any)["versionId"].(string))
			return n
		}
		value := func(m map[string]any) any { return m["valueQuantity"].(map[string]any)["value"] }
		for _, row := range []struct {
			name   string
			got    map[string]any
			status string
			value  string
		}{
			{"entered preliminary", first, "preliminary", "5.0"},
			{"made final", final, "final", "5.0"},
			{"corrected", corrected, "corrected", "6.1"},
		} {
			if row.got["status"] != row.status || fmt.Sprint(value(row.got)) != row.value || row.got["id"] != fmt.Sprintf("lab-%d-WBC", cbc) {
				t.Errorf("%s: %v %v %v", row.name, row.got["id"], row.got["status"], value(row.got))
			}
		}
		if !(version(first) < version(final) && version(final) < version(corrected)) {
			t.Errorf("versions: %d, %d, %d", version(first), version(final), version(corrected))
		}
		old := get(t, api, wbc+"/_history/"+strconv.Itoa(version(final)), http.StatusOK)
		if old["status"] != "final" || fmt.Sprint(value(old)) != "5.0" {
			t.Errorf("vread of the version before the correction: %v %v", old["status"], value(old))
		}
		history := entries(get(t, api, wbc+"/_history", http.StatusOK))
		seen := map[string]bool{}
		for _, e := range history {
			seen[fmt.Sprint(e["status"], " ", value(e))] = true
		}
		if !seen["corrected 6.1"] || !seen["final 5.0"] || !seen["preliminary 5.0"] {
			t.Errorf("history: %v", seen)
		}
		// Per result: the new analyte of a correction is final, the corrected one corrected;
		// an id names the analyte whatever its code holds.
		for _, row := range []struct{ id, status string }{
			{fmt.Sprintf("lab-%d-PLT", cbc), "final"},
			{fmt.Sprintf("lab-%d-NEUT.25", cbc), "final"},
			{fmt.Sprintf("lab-%d-WBC", cbc), "corrected"},
		} {
			if got := get(t, api, "/fhir/R4/Observation/"+row.id, http.StatusOK); got["status"] != row.status {
				t.Errorf("%s: %v", row.id, got["status"])
			}
		}
		// The laboratory's precision stays: 5.0 is written 5.0, 60.0 as 60.0.
		if r := api.Do("GET", fmt.Sprintf("/fhir/R4/Observation/lab-%d-NEUT.25", cbc), nil); !strings.Contains(string(r.Body), `"value":60.0`) {
			t.Errorf("60.0 as reported: %s", r.Body)
		}
		if r := api.Do("GET", wbc+"/_history/"+strconv.Itoa(version(first)), nil); !strings.Contains(string(r.Body), `"value":5.0`) {
			t.Errorf("5.0 as reported: %s", r.Body)
		}

		// A censored value keeps its comparator and the limit as written; a comparator that is
		// none of the four is refused, naming the four.
		crp := orders["CRP"].ID
		bad := map[string]any{"version": c.orderVersion(t, crp), "final": true, "results": []map[string]any{{"analyte": "CRP", "value": "5", "comparator": "~", "unit": "mg/L"}}}
		if r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", crp), bad); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `\u003c, \u003c=, \u003e and \u003e=`) {
			t.Errorf("a comparator that is none: %d %s", r.Status, r.Body)
		}
		c.record(t, crp, true, "", map[string]any{"analyte": "CRP", "value": "<5", "unit": "mg/L"})
		if got := get(t, api, fmt.Sprintf("/fhir/R4/Observation/lab-%d-CRP", crp), http.StatusOK); fmt.Sprint(got["valueQuantity"]) != "map[code:mg/L comparator:< system:http://unitsofmeasure.org unit:mg/L value:5]" {
			t.Errorf("a censored value: %v", got["valueQuantity"])
		}

		// A qualitative answer is coded; results added after the report was final append it.
		c.record(t, ua, true, "", map[string]any{"analyte": "UPRO", "answer": "negative"})
		c.record(t, ua, true, "forgotten on the first entry", map[string]any{"analyte": "UNIT", "answer": "positive"})
		for _, row := range []struct{ analyte, code, status string }{{"UPRO", "260385009", "final"}, {"UNIT", "10828004", "final"}} {
			got := get(t, api, fmt.Sprintf("/fhir/R4/Observation/lab-%d-%s", ua, row.analyte), http.StatusOK)
			concept, _ := got["valueCodeableConcept"].(map[string]any)
			if got["status"] != row.status || concept == nil || !strings.Contains(fmt.Sprint(concept["coding"]), row.code) {
				t.Errorf("%s: %v %v", row.analyte, got["status"], got["valueCodeableConcept"])
			}
		}
		reports := map[string]string{fmt.Sprint(cbc): "corrected", fmt.Sprint(ua): "appended"}

		// A test not done after a preliminary result: that result is cancelled, with why, and
		// the report, cancelled too, still lists it.
		c.record(t, dengue, false, "", map[string]any{"analyte": "DENNS1", "answer": "positive"})
		if r := c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/not-done", dengue), map[string]any{"version": c.orderVersion(t, dengue), "reason": "specimen haemolysed"}); r.Status != http.StatusOK && r.Status != http.StatusNoContent {
			t.Fatalf("not done: %d %s", r.Status, r.Body)
		}
		ns1 := get(t, api, fmt.Sprintf("/fhir/R4/Observation/lab-%d-DENNS1", dengue), http.StatusOK)
		if ns1["status"] != "cancelled" || !strings.Contains(fmt.Sprint(ns1["note"]), "specimen haemolysed") {
			t.Errorf("the not-done order's result: %v %v", ns1["status"], ns1["note"])
		}
		// The withdrawn value is not given, nor its flag or range: only why it is absent.
		for _, withdrawn := range []string{"valueQuantity", "valueCodeableConcept", "valueString", "interpretation", "referenceRange"} {
			if _, ok := ns1[withdrawn]; ok {
				t.Errorf("the not-done order's result still gives %s: %v", withdrawn, ns1[withdrawn])
			}
		}
		if absent := fmt.Sprint(ns1["dataAbsentReason"]); !strings.Contains(absent, "error") {
			t.Errorf("the not-done order's result: dataAbsentReason %v", absent)
		}
		reports[fmt.Sprint(dengue)] = "cancelled"
		for id, status := range reports {
			dr := get(t, api, "/fhir/R4/DiagnosticReport/"+id, http.StatusOK)
			if dr["status"] != status || dr["result"] == nil {
				t.Errorf("report %s: %v %v", id, dr["status"], dr["result"])
			}
		}
		// An image's and a procedure's order is no laboratory procedure, and their results do
		// not claim the laboratory profile: they are of category imaging or procedure, and
		// their report is of the study's section with its text as the conclusion.
		for _, row := range []struct{ test, request, category, section string }{
			{"ECG", "103693007", "procedure", "EC"},
			{"ECHO", "363679005", "imaging", "CUS"},
			{"XR-CHEST", "363679005", "imaging", "RAD"},
		} {
			id := orders[row.test].ID
			c.record(t, id, true, "", map[string]any{"analyte": "REPORT", "text": "No abnormality seen."})
			obs := get(t, api, fmt.Sprintf("/fhir/R4/Observation/lab-%d-REPORT", id), http.StatusOK)
			sr := get(t, api, fmt.Sprintf("/fhir/R4/ServiceRequest/%d", id), http.StatusOK)
			if strings.Contains(fmt.Sprint(obs["meta"]), "us-core-observation-lab") || !strings.Contains(fmt.Sprint(sr["category"]), row.request) ||
				strings.Contains(fmt.Sprint(sr["category"]), "108252007") {
				t.Errorf("%s: observation %v, order %v", row.test, obs["meta"], sr["category"])
			}
			dr := get(t, api, fmt.Sprintf("/fhir/R4/DiagnosticReport/%d", id), http.StatusOK)
			if !strings.Contains(fmt.Sprint(obs["category"]), "code:"+row.category+" ") || !strings.Contains(fmt.Sprint(dr["category"]), "code:"+row.section+" ") ||
				dr["conclusion"] != "No abnormality seen." || strings.Contains(fmt.Sprint(dr["meta"]), "diagnosticreport-lab") {
				t.Errorf("%s: observation category %v, report %v", row.test, obs["category"], dr)
			}
		}
		if dr := get(t, api, fmt.Sprintf("/fhir/R4/DiagnosticReport/%d", dengue), http.StatusOK); !strings.Contains(fmt.Sprint(dr["result"]), fmt.Sprintf("Observation/lab-%d-DENNS1", dengue)) {
			t.Errorf("the cancelled report's results: %v", dr["result"])
		}
	})
}
