package portal_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/billing"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/feereport"
)

// TestPortalAdolescentViewKeepsSensitiveCare (the clinician's and attacker's reviews of
// 2026-11-29): a 15-year-old was given levonorgestrel 1.5 mg for emergency contraception
// (Z30.0), a pregnancy test (hCG) and an HIV test. Her parent's session finds none of them by
// name: not in /released (the prescription is not listed at all, the results are given in
// person, a held item is left out whatever it is, and so is a certificate that prints the
// diagnosis), not by opening them, not on /bills, where
// the tests are charged as a laboratory test with their amounts, so that the bill adds up.
func TestPortalAdolescentViewKeepsSensitiveCare(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		c := newClinician(t, w)
		teen := w.patient(t, "Teen", birthday(15, -30), nil)
		w.invite(t, teen)
		if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", teen), map[string]any{"channel": "email", "address": "p@example.test"}); r.Status != http.StatusOK {
			t.Fatalf("link: %d %s", r.Status, r.Body)
		}

		// The visit: Z30.0, the tests, the prescription printed.
		a := apitest.Do[struct {
			ID      int64
			Version int
		}](t, w.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": teen, "doctor_id": c.docID,
			"starts_at": time.Now().UTC().Add(time.Hour).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new"})
		path := fmt.Sprintf("/api/appointments/%d", a.ID)
		apitest.Do[any](t, w.rec, http.StatusOK, "POST", path+"/arrive", map[string]any{"version": a.Version})
		apitest.Do[any](t, c.doc, http.StatusOK, "POST", path+"/start", map[string]any{"version": a.Version + 1})
		apitest.Do[any](t, c.doc, http.StatusOK, "PUT", path+"/visit", map[string]any{"version": 0, "chief_complaint": "Advice",
			"diagnoses": []map[string]any{{"code": "Z30.0", "primary": true}},
			"orders":    []map[string]any{{"code": "HIV", "note": ""}, {"code": "PREG", "note": ""}, {"code": "BMP", "note": ""}}})
		list := apitest.Do[struct{ Data []labOrder }](t, c.nurse, http.StatusOK, "GET", path+"/orders", nil)
		o := map[string]labOrder{}
		for _, x := range list.Data {
			o[x.Test] = x
		}
		for _, test := range []string{"HIV", "PREG", "BMP"} {
			c.record(t, o[test], "4.4")
			c.review(t, o[test])
		}
		// A held result, whatever it is, is left out: its title alone may tell.
		apitest.Do[any](t, c.doc, http.StatusOK, "POST", fmt.Sprintf("/api/release/results/%d", o["BMP"].ID),
			map[string]any{"action": "hold", "reason": "discuss at the follow-up visit", "hold_kind": "discuss", "category": "in_person", "version": 0})
		line := map[string]any{"medicine": "Levonorgestrel 1.5 mg tablet", "dose": "1 tablet", "route": "oral",
			"frequency": "once", "duration": "1 day", "quantity": "1", "refills": 0}
		var pre struct{ Findings []struct{ Key string } }
		c.doc.Do("POST", "/api/prescriptions/check", map[string]any{"patient_id": teen, "items": []any{line}}).JSON(t, &pre)
		if len(pre.Findings) > 0 { // a child's dose without a weight
			keys := []string{}
			for _, f := range pre.Findings {
				keys = append(keys, f.Key)
			}
			line["override_reason"], line["overrides"] = "Emergency contraception, counselled today", keys
		}
		rx := apitest.Do[struct{ ID, Version int64 }](t, c.doc, http.StatusCreated, "POST", path+"/prescriptions", map[string]any{"items": []any{line}})
		apitest.Do[any](t, c.doc, http.StatusOK, "POST", fmt.Sprintf("/api/prescriptions/%d/print", rx.ID), map[string]any{"version": rx.Version})
		cert := c.certificate(t, teen, a.ID)

		// A bill: a consultation, the pregnancy test by its name, and the HIV test under a
		// name that says nothing, charging the order.
		ctx := context.Background()
		fees := &billing.Store{DB: db, Loc: time.UTC, Days: feereport.Book{}}
		e := audit.Event{ActorID: w.env.UserID("rec"), ActorName: "rec"}
		price := func(m billing.Money) *billing.Money { return &m }
		b, _, err := fees.CreateWalkIn(ctx, e, teen)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range []billing.LineInput{{Description: "Consultation", Quantity: 1, UnitPrice: price(1000)},
			{Description: "Pregnancy test (hCG)", Quantity: 1, UnitPrice: price(500)}, {Description: "Screening", Quantity: 1, UnitPrice: price(700)},
			{Description: "Levonorgestrel 1.5 mg tablet", Quantity: 1, UnitPrice: price(300)},
			{Description: "Tenofovir/emtricitabine 300/200 mg, 30 tablets", Quantity: 1, UnitPrice: price(900)},
			{Description: "Implanon NXT insertion", Quantity: 1, UnitPrice: price(2000)},
			{Description: "Contraceptive counselling", Quantity: 1, UnitPrice: price(400)},
			{Description: "Condoms x10", Quantity: 1, UnitPrice: price(100)}} {
			if b, err = fees.AddLine(ctx, e, b.ID, 0, l, true); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.Exec(`UPDATE bill_lines SET lab_order_id = $1 WHERE bill_id = $2 AND description = 'Screening'`, o["HIV"].ID, b.ID); err != nil {
			t.Fatal(err)
		}
		// The lines' categories, as the price list's services give them.
		for desc, category := range map[string]string{"Consultation": "consultation", "Pregnancy test (hCG)": "laboratory", "Levonorgestrel 1.5 mg tablet": "medicine",
			"Tenofovir/emtricitabine 300/200 mg, 30 tablets": "medicine", "Implanon NXT insertion": "procedure", "Contraceptive counselling": "consultation"} {
			if _, err := db.Exec(`UPDATE bill_lines SET category = $1 WHERE bill_id = $2 AND description = $3`, category, b.ID, desc); err != nil {
				t.Fatal(err)
			}
		}
		if b, err = fees.Finalise(ctx, e, b.ID, b.Version); err != nil {
			t.Fatal(err)
		}

		g := w.portalClient(t)
		w.signInByCode(t, g, "p@example.test")
		named := []string{"levonorgestrel", "z30", "contracep", "pregnan", "hcg", "hiv", "screening", "tenofovir", "emtricitabine", "implanon", "condom"}
		tells := func(where string, body []byte) {
			t.Helper()
			for _, word := range named {
				if strings.Contains(strings.ToLower(string(body)), word) {
					t.Errorf("%s names %q: %s", where, word, body)
				}
			}
		}
		seen := released(t, g, teen)
		if !seen.Limited || seen.find("document", cert) != nil {
			t.Fatalf("the teen's record (the certificate prints Z30.0): %+v", seen)
		}
		for _, it := range seen.Items {
			if it.Kind == "prescription" || it.Held {
				t.Errorf("the adolescent's view lists %s %d (held %v)", it.Kind, it.ID, it.Held)
			}
		}
		r := g.Do("GET", fmt.Sprintf("/api/portal/records/%d/released", teen), nil)
		tells("/released", r.Body)
		for kind, id := range map[string]int64{"prescription": rx.ID, "result": o["HIV"].ID, "result ": o["PREG"].ID, "result  ": o["BMP"].ID, "document": cert} {
			kind = strings.TrimSpace(kind)
			r := g.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/%s/%d", teen, kind, id), nil)
			if r.Status != http.StatusNotFound {
				t.Errorf("the parent opens %s %d: %d", kind, id, r.Status)
			}
			tells("opening "+kind, r.Body)
		}
		r = g.Do("GET", fmt.Sprintf("/api/portal/records/%d/bills", teen), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("bills: %d %s", r.Status, r.Body)
		}
		tells("/bills", r.Body)
		var bills struct {
			Bills []struct {
				Subtotal int64 `json:"subtotal"`
				Lines    []struct {
					Description string `json:"description"`
					Amount      int64  `json:"amount"`
				} `json:"lines"`
			} `json:"bills"`
		}
		r.JSON(t, &bills)
		if len(bills.Bills) != 1 || len(bills.Bills[0].Lines) != 8 || bills.Bills[0].Subtotal != 5900 {
			t.Fatalf("the bill: %+v", bills)
		}
		// The visit of the contraception (Z30.0) is not listed; a cold's visit is.
		cold := apitest.Do[struct {
			ID      int64
			Version int
		}](t, w.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": teen, "doctor_id": c.docID,
			"starts_at": time.Now().UTC().Add(2 * time.Hour).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new"})
		coldPath := fmt.Sprintf("/api/appointments/%d", cold.ID)
		apitest.Do[any](t, w.rec, http.StatusOK, "POST", coldPath+"/arrive", map[string]any{"version": cold.Version})
		apitest.Do[any](t, c.doc, http.StatusOK, "POST", coldPath+"/start", map[string]any{"version": cold.Version + 1})
		apitest.Do[any](t, c.doc, http.StatusOK, "PUT", coldPath+"/visit", map[string]any{"version": 0, "chief_complaint": "Cough",
			"diagnoses": []map[string]any{{"code": "J06.9", "primary": true}}})
		var visits struct {
			Upcoming, Past []struct{ ID int64 }
		}
		g.Do("GET", fmt.Sprintf("/api/portal/records/%d/appointments", teen), nil).JSON(t, &visits)
		var listed []int64
		for _, v := range append(visits.Upcoming, visits.Past...) {
			listed = append(listed, v.ID)
		}
		if slices.Contains(listed, a.ID) || !slices.Contains(listed, cold.ID) {
			t.Errorf("the parent's list: %v (the Z30.0 visit %d left out, the cold's %d listed)", listed, a.ID, cold.ID)
		}
		// Each hidden line is named by its kind of charge, its amount kept.
		var got []string
		for _, l := range bills.Bills[0].Lines {
			got = append(got, fmt.Sprintf("%s %d", l.Description, l.Amount))
		}
		want := []string{"Consultation 1000", "Laboratory test 500", "Laboratory test 700", "Medicine 300", "Medicine 900", "Procedure 2000",
			"Consultation 400", "Medical services and supplies 100"}
		if !slices.Equal(got, want) {
			t.Errorf("the lines: %q, want %q", got, want)
		}
	})
}

// TestPortalValueSaysNoRangeJudgedIt (the clinician's review of 2026-11-29): a value no
// reference range judged says so in plain words, as the printed report does, never blank as
// if normal: a potassium "<5" lies below the top of the range, and may lie below its bottom.
func TestPortalValueSaysNoRangeJudgedIt(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		c := newClinician(t, w)
		lan := w.patient(t, "Ranged", "1985-03-04", map[string]any{"email": "r@example.test"})
		w.invite(t, lan)
		_, o := c.visit(t, lan, "BMP")
		c.record(t, o["BMP"], "<5")
		c.review(t, o["BMP"])
		p := w.portalClient(t)
		w.signInByCode(t, p, "r@example.test")
		r := p.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/result/%d", lan, o["BMP"].ID), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("open: %d %s", r.Status, r.Body)
		}
		var got struct {
			Results []struct {
				Name      string `json:"name"`
				Value     string `json:"value"`
				Range     string `json:"range"`
				RangeNote string `json:"range_note"`
			} `json:"results"`
		}
		r.JSON(t, &got)
		if len(got.Results) != 3 {
			t.Fatalf("values: %+v", got.Results)
		}
		for _, v := range got.Results {
			censored := strings.HasPrefix(v.Value, "<")
			if censored != (v.RangeNote == "beyond the measuring range: not compared with the reference range") || (!censored && v.Range == "") {
				t.Errorf("%s %s: range %q, note %q", v.Name, v.Value, v.Range, v.RangeNote)
			}
		}
	})
}
