package result_test

import (
	"fmt"
	"net/http"
	"testing"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestEachRowHasItsOwnStatus: after an order is final, a value replacing a final (or
// corrected) one is corrected; one replacing a preliminary value, or of an analyte not yet
// reported, is final (issue 54).
func TestEachRowHasItsOwnStatus(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		o := find(c.order(t, "ELEC"), "ELEC")
		if r := c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version}); r.Status != http.StatusOK {
			t.Fatalf("collect: %d %s", r.Status, r.Body)
		}
		steps := []struct {
			final   bool
			reason  string
			results []map[string]any
		}{
			{false, "", []map[string]any{{"analyte": "CL", "unit": "mmol/L", "value": "101"}}},
			{true, "", []map[string]any{{"analyte": "NA", "unit": "mmol/L", "value": "140"}}},
			{true, "Sample mislabelled", []map[string]any{{"analyte": "NA", "unit": "mmol/L", "value": "138"},
				{"analyte": "CL", "unit": "mmol/L", "value": "102"}, {"analyte": "K", "unit": "mmol/L", "value": "4.1"}}},
			// The correction form sends every result again: only what changed is corrected.
			{true, "Potassium haemolysed", []map[string]any{{"analyte": "NA", "unit": "mmol/L", "value": "138"},
				{"analyte": "CL", "unit": "mmol/L", "value": "102"}, {"analyte": "K", "unit": "mmol/L", "value": "3.9"}}},
		}
		for i, s := range steps {
			var d order
			c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil).JSON(t, &d)
			r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{"version": d.Version, "final": s.final, "reason": s.reason, "results": s.results})
			if r.Status != http.StatusOK {
				t.Fatalf("step %d: %d %s", i, r.Status, r.Body)
			}
		}
		var d order
		c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil).JSON(t, &d)
		got := map[string]string{}
		for _, x := range d.Results {
			got[x.Analyte] = x.Status
		}
		for _, row := range []struct{ analyte, status, why string }{
			{"NA", "corrected", "corrected once, sent again unchanged: still the corrected value"},
			{"CL", "final", "replaces a preliminary value never made final, then sent again unchanged"},
			{"K", "corrected", "first reported in a correction, then corrected"},
		} {
			if got[row.analyte] != row.status {
				t.Errorf("%s (%s): %q, want %q", row.analyte, row.why, got[row.analyte], row.status)
			}
		}
		if d.Corrections != 2 || d.Status != "final" {
			t.Errorf("the order: %d corrections, %s", d.Corrections, d.Status)
		}
	})
}

// TestAReadingKeepsItsLaboratory: the correction form names one performing laboratory for
// what it sends, and sends every result again; a reading sent again unchanged keeps the
// laboratory that performed it, and only the changed one takes the new name (ISO 15189
// §7.4.1.6: the report says which examinations a referral laboratory performed).
func TestAReadingKeepsItsLaboratory(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		o := find(c.order(t, "ELEC"), "ELEC")
		if r := c.nurse.Do("POST", fmt.Sprintf("/api/lab-orders/%d/collect", o.ID), map[string]any{"version": o.Version}); r.Status != http.StatusOK {
			t.Fatalf("collect: %d %s", r.Status, r.Body)
		}
		type row struct {
			Analyte   string `json:"analyte"`
			Performer string `json:"performer"`
		}
		var d struct {
			Version int   `json:"version"`
			Results []row `json:"results"`
		}
		for i, s := range []struct {
			performer, reason, k string
		}{
			{"", "", "4.1"},
			{"Synlab", "Potassium repeated at the reference laboratory", "3.9"},
		} {
			c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil).JSON(t, &d)
			r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{"version": d.Version, "final": true, "reason": s.reason,
				"performer": s.performer, "results": []map[string]any{{"analyte": "NA", "unit": "mmol/L", "value": "140"}, {"analyte": "K", "unit": "mmol/L", "value": s.k}}})
			if r.Status != http.StatusOK {
				t.Fatalf("step %d: %d %s", i, r.Status, r.Body)
			}
		}
		c.nurse.Do("GET", fmt.Sprintf("/api/lab-orders/%d", o.ID), nil).JSON(t, &d)
		got := map[string]string{}
		for _, x := range d.Results {
			got[x.Analyte] = x.Performer
		}
		if got["NA"] != "" || got["K"] != "Synlab" {
			t.Errorf("performers %v: sodium, unchanged, is the clinic's; potassium Synlab's", got)
		}
	})
}
