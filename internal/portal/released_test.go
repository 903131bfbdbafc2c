package portal_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/portal"
)

type labOrder struct {
	ID      int64  `json:"id"`
	Test    string `json:"test"`
	Version int    `json:"version"`
}

type releasedItem struct {
	Kind         string `json:"kind"`
	ID           int64  `json:"id"`
	Title        string `json:"title"`
	DocumentKind string `json:"document_kind"`
	Held         bool   `json:"held"`
	Note         string `json:"note"`
	Results      []struct {
		Name     string `json:"name"`
		Value    string `json:"value"`
		Unit     string `json:"unit"`
		Flag     string `json:"flag"`
		FlagText string `json:"flag_text"`
		Range    string `json:"range"`
	} `json:"results"`
}

type releasedList struct {
	Items   []releasedItem `json:"items"`
	Limited bool           `json:"limited"`
}

func (l releasedList) find(kind string, id int64) *releasedItem {
	for i := range l.Items {
		if l.Items[i].Kind == kind && l.Items[i].ID == id {
			return &l.Items[i]
		}
	}
	return nil
}

// clinician is the doctor and nurse of the released tests, with the starter catalogue.
type clinician struct {
	w          *world
	doc, nurse *apitest.Client
	docID      int64
	booked     int
}

func newClinician(t *testing.T, w *world) *clinician {
	t.Helper()
	if err := catalogue.InstallStarter(context.Background(), w.db); err != nil {
		t.Fatal(err)
	}
	c := &clinician{w: w}
	c.doc = w.env.LoggedIn("clin", w.env.CreateUser("clin", "doctor"))
	c.nurse = w.env.LoggedIn("nurse", w.env.CreateUser("nurse", "nurse"))
	c.docID = w.env.UserID("clin")
	return c
}

// visit opens a visit of patientID where the doctor orders codes; it answers the visit and its orders by test.
func (c *clinician) visit(t *testing.T, patientID int64, codes ...string) (int64, map[string]labOrder) {
	t.Helper()
	a := apitest.Do[struct {
		ID      int64
		Version int
	}](t, c.w.rec, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": patientID, "doctor_id": c.docID,
		"starts_at": time.Now().UTC().Add(time.Hour + time.Duration(c.booked)*20*time.Minute).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 15, "type": "new"})
	c.booked++
	path := fmt.Sprintf("/api/appointments/%d", a.ID)
	apitest.Do[any](t, c.w.rec, http.StatusOK, "POST", path+"/arrive", map[string]any{"version": a.Version})
	apitest.Do[any](t, c.doc, http.StatusOK, "POST", path+"/start", map[string]any{"version": a.Version + 1})
	orders := []map[string]any{}
	for _, code := range codes {
		orders = append(orders, map[string]any{"code": code, "note": ""})
	}
	apitest.Do[any](t, c.doc, http.StatusOK, "PUT", path+"/visit", map[string]any{"version": 0, "chief_complaint": "Tired",
		"diagnoses": []map[string]any{{"code": "J06.9", "primary": true}}, "orders": orders})
	list := apitest.Do[struct{ Data []labOrder }](t, c.nurse, http.StatusOK, "GET", path+"/orders", nil)
	out := map[string]labOrder{}
	for _, o := range list.Data {
		out[o.Test] = o
	}
	return a.ID, out
}

func (c *clinician) order(t *testing.T, id int64) labOrder {
	t.Helper()
	return apitest.Do[labOrder](t, c.doc, http.StatusOK, "GET", fmt.Sprintf("/api/lab-orders/%d", id), nil)
}

// record records final values of order o: the metabolic panel with potassium k, or one coded answer.
func (c *clinician) record(t *testing.T, o labOrder, k string) {
	t.Helper()
	o = c.order(t, o.ID)
	var results []map[string]any
	switch o.Test {
	case "BMP":
		results = []map[string]any{{"analyte": "GLU", "value": "5.2", "unit": "mmol/L"}, {"analyte": "K", "unit": "mmol/L", "value": k}, {"analyte": "CREA", "unit": "umol/L", "value": "90"}}
	case "HIV":
		results = []map[string]any{{"analyte": "HIVAGAB", "answer": "non-reactive"}}
	case "PREG":
		results = []map[string]any{{"analyte": "UHCG", "answer": "negative"}}
	}
	r := c.nurse.Do("PUT", fmt.Sprintf("/api/lab-orders/%d/results", o.ID), map[string]any{"version": o.Version, "final": true, "results": results})
	if r.Status != http.StatusOK {
		t.Fatalf("record %s: %d %s", o.Test, r.Status, r.Body)
	}
}

func (c *clinician) review(t *testing.T, o labOrder) {
	t.Helper()
	o = c.order(t, o.ID)
	apitest.Do[any](t, c.doc, http.StatusOK, "POST", "/api/results/review", map[string]any{"orders": []map[string]any{{"id": o.ID, "version": o.Version}}})
}

// issue signs visit (once) and issues a document of kind from the English starter template.
func (c *clinician) issue(t *testing.T, patientID, visit int64, kind string, fields map[string]string) int64 {
	t.Helper()
	if r := c.doc.Do("POST", fmt.Sprintf("/api/appointments/%d/visit/sign", visit), map[string]any{"version": 1}); r.Status != http.StatusOK && r.Status != http.StatusConflict {
		t.Fatalf("sign: %d %s", r.Status, r.Body)
	}
	list := apitest.Do[struct{ Data []struct{ ID int64 } }](t, c.doc, http.StatusOK, "GET", "/api/document-templates?kind="+kind+"&language=en", nil)
	if len(list.Data) == 0 {
		t.Fatalf("no %s template", kind)
	}
	if fields == nil {
		fields = map[string]string{}
	}
	d := apitest.Do[struct{ ID int64 }](t, c.doc, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": list.Data[0].ID,
		"patient_id": patientID, "appointment_id": visit, "fields": fields})
	return d.ID
}

func (c *clinician) certificate(t *testing.T, patientID, visit int64) int64 {
	return c.issue(t, patientID, visit, "medical_certificate", map[string]string{"rest_days": "3", "rest_from": "2026-11-25"})
}

// prescription writes and prints a prescription on visit.
func (c *clinician) prescription(t *testing.T, visit int64) int64 {
	t.Helper()
	rx := apitest.Do[struct{ ID, Version int64 }](t, c.doc, http.StatusCreated, "POST", fmt.Sprintf("/api/appointments/%d/prescriptions", visit),
		map[string]any{"items": []any{map[string]any{"medicine": "Amoxicillin 500 mg capsule", "dose": "1 capsule", "route": "oral",
			"frequency": "3 times a day", "duration": "7 days", "quantity": "21", "refills": 0}}})
	apitest.Do[any](t, c.doc, http.StatusOK, "POST", fmt.Sprintf("/api/prescriptions/%d/print", rx.ID), map[string]any{"version": rx.Version})
	return rx.ID
}

func released(t *testing.T, c *apitest.Client, id int64) releasedList {
	t.Helper()
	r := c.Do("GET", fmt.Sprintf("/api/portal/records/%d/released", id), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("released of %d: %d %s", id, r.Status, r.Body)
	}
	var l releasedList
	r.JSON(t, &l)
	return l
}

func openings(t *testing.T, db *database.DB, kind string, id int64) []string {
	t.Helper()
	rows, err := db.Query(`SELECT actor FROM release_openings WHERE kind = $1 AND item_id = $2 ORDER BY id`, kind, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// TestPortalReleasedResultsAndDocuments: a patient's Results and Documents as ADR 45 judges
// them: a reviewed result with its values, unit, flag in plain words and range; a held one
// with only the note; an unreviewed one and a critical one no doctor acknowledged absent; a
// certificate and a printed prescription opened as printed, each opening recorded and audited
// with the patient as actor; another record's item not found; a starter document's title in
// the reader's language.
func TestPortalReleasedResultsAndDocuments(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		c := newClinician(t, w)
		lan := w.patient(t, "Released", "1985-03-04", map[string]any{"email": "lan@example.test", "history": map[string]any{"allergy_status": "none"}})
		stranger := w.patient(t, "Stranger", "1970-07-07", map[string]any{"email": "x@example.test"})
		w.invite(t, lan)
		w.invite(t, stranger)

		first, o := c.visit(t, lan, "BMP")
		c.record(t, o["BMP"], "5.8")
		c.review(t, o["BMP"])
		shown := o["BMP"].ID
		_, o = c.visit(t, lan, "BMP")
		c.record(t, o["BMP"], "4.4")
		c.review(t, o["BMP"])
		held := o["BMP"].ID
		apitest.Do[any](t, c.doc, http.StatusOK, "POST", fmt.Sprintf("/api/release/results/%d", held), map[string]any{"action": "hold", "reason": "discuss at the follow-up visit",
			"hold_kind": "discuss", "category": "in_person", "version": 0})
		_, o = c.visit(t, lan, "BMP")
		c.record(t, o["BMP"], "4.4")
		unreviewed := o["BMP"].ID
		_, o = c.visit(t, lan, "BMP")
		c.record(t, o["BMP"], "6.8") // critical, and no doctor acknowledges it
		critical := o["BMP"].ID
		if r := c.doc.Do("POST", "/api/results/review", map[string]any{"orders": []map[string]any{{"id": critical, "version": c.order(t, critical).Version}}}); r.Status >= 500 {
			t.Fatalf("review the critical one: %d %s", r.Status, r.Body)
		}
		cert := c.certificate(t, lan, first)
		labRequest := c.issue(t, lan, first, "lab_request", nil)
		rx := c.prescription(t, first)
		strangerVisit, _ := c.visit(t, stranger, "BMP")
		strangerCert := c.certificate(t, stranger, strangerVisit)

		p := w.portalClient(t)
		w.signInByCode(t, p, "lan@example.test")
		list := released(t, p, lan)
		if list.Limited {
			t.Errorf("an adult's record is limited")
		}
		it := list.find("result", shown)
		if it == nil || it.Held || len(it.Results) != 3 {
			t.Fatalf("the reviewed result: %+v in %+v", it, list.Items)
		}
		if k := it.Results[1]; k.Flag != "H" || k.FlagText != "above the usual range" || k.Unit != "mmol/L" || !strings.Contains(k.Value, "5.8") || k.Range == "" {
			t.Errorf("potassium as the patient reads it: %+v", k)
		}
		if h := list.find("result", held); h == nil || !h.Held || h.Note != "Your doctor will discuss this with you." || len(h.Results) != 0 {
			t.Errorf("the held result: %+v", h)
		}
		for name, id := range map[string]int64{"unreviewed": unreviewed, "critical, unacknowledged": critical} {
			if list.find("result", id) != nil {
				t.Errorf("the %s result is listed", name)
			}
			if r := p.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/result/%d", lan, id), nil); r.Status != http.StatusNotFound {
				t.Errorf("the %s result opens: %d", name, r.Status)
			}
		}
		if r := p.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/result/%d", lan, held), nil); r.Status != http.StatusNotFound {
			t.Errorf("the held result opens: %d", r.Status)
		}
		if d := list.find("document", cert); d == nil || d.Title != "Medical certificate" || d.DocumentKind != "medical_certificate" {
			t.Errorf("the certificate: %+v", d)
		}

		// A starter template's title reads in the patient's language.
		p.Header.Set("Accept-Language", "ru")
		ru := released(t, p, lan)
		if d := ru.find("document", labRequest); d == nil || d.Title != "Направление на анализы" {
			t.Errorf("the laboratory request in Russian: %+v", d)
		}
		if k := ru.find("result", shown).Results[1]; k.FlagText != "выше нормы" && !strings.Contains(k.FlagText, "выше") {
			t.Errorf("the flag in Russian: %q", k.FlagText)
		}
		p.Header.Del("Accept-Language")

		// Opened as printed: the certificate's kept blocks, the prescription's sheet.
		var doc struct {
			Title   string `json:"title"`
			Content []struct {
				Type string `json:"type"`
			} `json:"content"`
			HTML     string `json:"html"`
			Language string `json:"language"`
		}
		r := p.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/document/%d", lan, cert), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("open the certificate: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &doc)
		if len(doc.Content) == 0 || doc.Content[0].Type != "h1" || doc.HTML != "" || doc.Language != "en" {
			t.Errorf("the certificate as printed: %+v", doc)
		}
		var sheet struct {
			Prescription struct {
				Lines []struct {
					Medicine, Route, Quantity string
				} `json:"lines"`
				Prescriber string `json:"prescriber"`
			} `json:"prescription"`
		}
		r = p.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/prescription/%d", lan, rx), nil)
		if r.Status != http.StatusOK || strings.Contains(string(r.Body), "override_reason") || strings.Contains(string(r.Body), "signature_url") {
			t.Fatalf("open the prescription: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &sheet)
		if l := sheet.Prescription.Lines; len(l) != 1 || l[0].Medicine != "Amoxicillin 500 mg capsule" || l[0].Route != "oral" || l[0].Quantity != "21" || sheet.Prescription.Prescriber == "" {
			t.Errorf("the prescription as printed: %+v", sheet)
		}
		if r := p.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/result/%d", lan, shown), nil); r.Status != http.StatusOK {
			t.Errorf("open the result: %d %s", r.Status, r.Body)
		}

		// Each opening recorded with the patient as actor, and audited.
		actor := fmt.Sprintf("patient:%d", lan)
		for kind, id := range map[string]int64{"document": cert, "prescription": rx, "result": shown} {
			if got := openings(t, db, kind, id); len(got) != 1 || got[0] != actor {
				t.Errorf("openings of the %s: %v", kind, got)
			}
			var n int
			if err := db.QueryRow(`SELECT COUNT(*) FROM audit_events WHERE action = 'release.open' AND entity_type = $1 AND entity_id = $2
				AND actor_name = $3 AND patient_id = $4 AND credential LIKE 'portal:code%'`, kind, fmt.Sprint(id), actor, lan).Scan(&n); err != nil || n != 1 {
				t.Errorf("the %s's opening audited: %d %v", kind, n, err)
			}
		}
		var views int
		if err := db.QueryRow(`SELECT COUNT(*) FROM audit_events WHERE action = 'release.view' AND actor_name = $1`, actor).Scan(&views); err != nil || views == 0 {
			t.Errorf("the list's read audited: %d %v", views, err)
		}

		// Another record's item, under one's own record or another's; a kind that is none.
		for _, path := range []string{
			fmt.Sprintf("/api/portal/records/%d/released/document/%d", lan, strangerCert),
			fmt.Sprintf("/api/portal/records/%d/released/document/%d", stranger, strangerCert),
			fmt.Sprintf("/api/portal/records/%d/released", stranger),
			fmt.Sprintf("/api/portal/records/%d/released/bill/%d", lan, cert),
			fmt.Sprintf("/api/portal/records/%d/released/document/x", lan),
		} {
			if r := p.Do("GET", path, nil); r.Status != http.StatusNotFound {
				t.Errorf("%s: %d %s", path, r.Status, r.Body)
			}
		}
		if got := openings(t, db, "document", strangerCert); len(got) != 0 {
			t.Errorf("another's document's openings: %v", got)
		}
	})
}

// birthday is the birth date of someone who is years old today, give or take days.
func birthday(years, days int) string {
	return time.Now().UTC().AddDate(-years, 0, days).Format(time.DateOnly)
}

// TestPortalGuardianView: a guardian reading a child of 12 or more sees no sexual-health or
// pregnancy result and no visit summary (nor a document naming the tests), and opens none of
// them (nothing recorded); a younger child's are shown; the link lapses at 18, at sign-in
// (by a one-time code or an access code) and in a session already open.
func TestPortalGuardianView(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		w := newWorld(t, db)
		c := newClinician(t, w)
		parent := w.patient(t, "Parent", "1980-05-05", map[string]any{"email": "g@example.test"})
		teen := w.patient(t, "Teen", birthday(14, -30), nil)
		young := w.patient(t, "Young", birthday(8, -30), nil)
		nearly := w.patient(t, "Nearly", birthday(18, 2), nil) // 18 in two days
		adult := w.patient(t, "Adult", birthday(18, -2), nil)  // 18 two days ago
		parentCode := w.invite(t, parent)
		for _, child := range []int64{teen, young, nearly, adult} {
			w.invite(t, child)
			if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "email", "address": "g@example.test"}); r.Status != http.StatusOK {
				t.Fatalf("link: %d %s", r.Status, r.Body)
			}
			if r := w.rec.Do("POST", fmt.Sprintf("/api/patients/%d/portal/guardians", child), map[string]any{"channel": "patient", "patient_id": parent}); r.Status != http.StatusOK {
				t.Fatalf("link by record: %d %s", r.Status, r.Body)
			}
		}
		visit, o := c.visit(t, teen, "BMP", "HIV", "PREG")
		for _, test := range []string{"BMP", "HIV", "PREG"} {
			c.record(t, o[test], "4.4")
			c.review(t, o[test])
		}
		cert := c.certificate(t, teen, visit)
		summary := c.issue(t, teen, visit, "visit_summary", nil)
		youngVisit, yo := c.visit(t, young, "HIV")
		c.record(t, yo["HIV"], "")
		c.review(t, yo["HIV"])
		// A sensitive result is given in person: released here by the doctor's hand.
		apitest.Do[any](t, c.doc, http.StatusOK, "POST", fmt.Sprintf("/api/release/results/%d", yo["HIV"].ID), map[string]any{"action": "release", "version": 0})
		youngSummary := c.issue(t, young, youngVisit, "visit_summary", nil)
		if r := c.doc.Do("POST", fmt.Sprintf("/api/release/documents/%d", youngSummary), map[string]any{"action": "release", "version": 0}); r.Status != http.StatusOK {
			t.Fatalf("release the young child's summary: %d %s", r.Status, r.Body)
		}

		g := w.portalClient(t)
		s := w.signInByCode(t, g, "g@example.test")
		if got := s.ids(); len(got) != 4 || got[0] != parent || !contains(got, teen) || !contains(got, young) || !contains(got, nearly) || contains(got, adult) {
			t.Fatalf("a guardian's records by code: %v", got)
		}
		teens := released(t, g, teen)
		if !teens.Limited || teens.find("result", o["BMP"].ID) == nil || teens.find("document", cert) == nil {
			t.Fatalf("the teen's record: %+v", teens)
		}
		for name, kind := range map[string]string{"HIV": "result", "PREG": "result", "summary": "document"} {
			id := o[name].ID
			if name == "summary" {
				id = summary
			}
			if teens.find(kind, id) != nil {
				t.Errorf("a guardian sees the teen's %s", name)
			}
			if r := g.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/%s/%d", teen, kind, id), nil); r.Status != http.StatusNotFound {
				t.Errorf("a guardian opens the teen's %s: %d", name, r.Status)
			}
			if got := openings(t, db, kind, id); len(got) != 0 {
				t.Errorf("the teen's %s opening recorded: %v", name, got)
			}
		}
		// What the guardian may open is recorded with the guardian as actor.
		if r := g.Do("GET", fmt.Sprintf("/api/portal/records/%d/released/result/%d", teen, o["BMP"].ID), nil); r.Status != http.StatusOK {
			t.Fatalf("a guardian opens the teen's panel: %d %s", r.Status, r.Body)
		}
		if got := openings(t, db, "result", o["BMP"].ID); len(got) != 1 || !strings.HasPrefix(got[0], "guardian:") {
			t.Errorf("the guardian's opening: %v", got)
		}
		var credential string
		if err := db.QueryRow(`SELECT credential FROM audit_events WHERE action = 'release.open' AND actor_name = $1`, fmt.Sprintf("patient:%d", teen)).Scan(&credential); err != nil ||
			!strings.Contains(credential, "guardian:") {
			t.Errorf("the guardian's opening audited: %q %v", credential, err)
		}
		// A child under 12: everything released is shown.
		youngs := released(t, g, young)
		if youngs.Limited || youngs.find("result", yo["HIV"].ID) == nil || youngs.find("document", youngSummary) == nil {
			t.Errorf("the young child's record: %+v", youngs)
		}
		// A child who came of age is not opened.
		if r := g.Do("GET", fmt.Sprintf("/api/portal/records/%d/released", adult), nil); r.Status != http.StatusNotFound {
			t.Errorf("the adult child's record: %d", r.Status)
		}

		// The parent's access code opens the parent and the children under 18.
		a := w.portalClient(t)
		var viaAccess session
		r := a.Do("POST", "/api/portal/sign-in/access", map[string]any{"code": parentCode, "birth_date": "1980-05-05"})
		if r.Status != http.StatusOK {
			t.Fatalf("access sign-in: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &viaAccess)
		if got := viaAccess.ids(); len(got) != 4 || contains(got, adult) || !contains(got, nearly) {
			t.Fatalf("a guardian's records by access code: %v", got)
		}

		// The session already open loses the child on the child's 18th birthday.
		later := time.Now().UTC().Add(96 * time.Hour)
		if _, err := db.Exec(`UPDATE portal_sessions SET last_seen_at = $1, expires_at = $2`, later, later.Add(time.Hour)); err != nil {
			t.Fatal(err) // the session used until then
		}
		store := &portal.Store{DB: db, Now: func() time.Time { return later }}
		pp, err := store.LookupPortal(context.Background(), g.Cookie(auth.PortalCookie))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := pp.Record(nearly); ok || len(pp.Records) != 3 {
			t.Fatalf("the session after the 18th birthday: %+v", pp.Records)
		}
		if _, ok := pp.Record(teen); !ok {
			t.Fatalf("the teen dropped out: %+v", pp.Records)
		}
	})
}

func contains(list []int64, id int64) bool {
	for _, v := range list {
		if v == id {
			return true
		}
	}
	return false
}
