package charting_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type check struct {
	Text string `json:"text"`
	Done bool   `json:"done"`
}

type set struct {
	ID      int64  `json:"id"`
	Name    string `json:"name"`
	Scope   string `json:"scope"`
	Example bool   `json:"example"`
	Mine    bool   `json:"mine"`
	Version int    `json:"version"`
	Content struct {
		Diagnoses []struct {
			Code, Label string
			Primary     bool
		} `json:"diagnoses"`
		Orders []struct{ Code, Label string } `json:"orders"`
		Items  []map[string]any               `json:"items"`
		Checks []check                        `json:"checks"`
		Plan   string                         `json:"plan"`
		Days   int                            `json:"follow_up_days"`
	} `json:"content"`
}

type applied struct {
	Visit struct {
		Diagnoses []struct {
			Code    string
			Primary bool
		} `json:"diagnoses"`
		Orders       []struct{ Code string } `json:"orders"`
		Plan         string                  `json:"plan"`
		FollowUpDate string                  `json:"follow_up_date"`
		Version      int                     `json:"version"`
	} `json:"visit"`
	Prescription *struct {
		ID    int64 `json:"id"`
		Items []struct {
			Medicine       string   `json:"medicine"`
			OverrideReason string   `json:"override_reason"`
			Overrides      []string `json:"overrides"`
		} `json:"items"`
	} `json:"prescription"`
	Skipped struct {
		Diagnoses []string `json:"diagnoses"`
		Orders    []string `json:"orders"`
		Today     []string `json:"today"`
		Plan      bool     `json:"plan"`
		FollowUp  bool     `json:"follow_up"`
	} `json:"skipped"`
}

type clinic struct {
	env                         *apitest.Env
	admin, doctor, other, nurse *apitest.Client
	patientID                   int64
}

func newClinic(t *testing.T, db *database.DB) *clinic {
	env := apitest.New(t, db)
	c := &clinic{env: env}
	c.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	c.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	c.other = env.LoggedIn("other", env.CreateUser("other", "doctor"))
	c.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	var p struct{ ID int64 }
	r := c.doctor.Do("POST", "/api/patients", map[string]any{"first_name": "Minh", "last_name": "Lê", "birth_date": "1970-03-02", "sex": "male",
		"history": map[string]any{"allergies": []map[string]any{{"substance": "penicillin", "reaction": "rash", "severity": "moderate"}}}})
	if r.Status != http.StatusCreated {
		t.Fatalf("register: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &p)
	c.patientID = p.ID
	return c
}

// openVisit books, admits and starts a visit of the doctor's today; its visit is at version 0.
func (c *clinic) openVisit(t *testing.T) int64 {
	t.Helper()
	return c.openVisitIn(t, time.Duration(len(t.Name())%50+1)*time.Minute)
}

// openVisitIn is openVisit for a visit starting in about d from now.
func (c *clinic) openVisitIn(t *testing.T, d time.Duration) int64 {
	t.Helper()
	var a struct{ ID int64 }
	at := time.Now().UTC().Add(d).Truncate(time.Minute)
	r := c.doctor.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": c.env.UserID("doc"),
		"starts_at": at.Format(time.RFC3339), "duration_minutes": 10, "type": "follow-up"})
	if r.Status != http.StatusCreated {
		t.Fatalf("book: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &a)
	for _, step := range []string{"arrive", "start"} {
		if r := c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/%s", a.ID, step), map[string]any{}); r.Status != http.StatusOK {
			t.Fatalf("%s: %d %s", step, r.Status, r.Body)
		}
	}
	return a.ID
}

func (c *clinic) starter(t *testing.T, who *apitest.Client, name string) set {
	t.Helper()
	var list struct{ Data []set }
	who.Do("GET", "/api/order-sets", nil).JSON(t, &list)
	i := slices.IndexFunc(list.Data, func(s set) bool { return strings.HasPrefix(s.Name, name) })
	if i < 0 {
		t.Fatalf("no set %q in %+v", name, list.Data)
	}
	return list.Data[i]
}

// findingKeys are the safety findings of a line on appointment appt's patient, as the
// editor shows them before an override.
func findingKeys(t *testing.T, who *apitest.Client, appt int64, line map[string]any) []string {
	t.Helper()
	var out struct{ Findings []struct{ Key string } }
	r := who.Do("POST", "/api/prescriptions/check", map[string]any{"appointment_id": appt, "items": []any{line}})
	r.JSON(t, &out)
	var keys []string
	for _, f := range out.Findings {
		keys = append(keys, f.Key)
	}
	if len(keys) == 0 {
		t.Fatalf("no findings: %s", r.Body)
	}
	return keys
}

func apply(who *apitest.Client, appt int64, s set, version int) apitest.Response {
	return who.Do("POST", fmt.Sprintf("/api/appointments/%d/order-set", appt), map[string]any{"set_id": s.ID, "version": version, "content": s.Content})
}

// TestApplyingASetChartsTheVisitSafely is the story of an order set: the clinic's starter
// hypertension set applied to a follow-up writes the diagnosis, tests, plan, follow-up and a
// draft prescription in one go; applied again it adds nothing twice, and its medicine is a
// duplicate the prescriber must acknowledge with a reason, which is audited.
func TestApplyingASetChartsTheVisitSafely(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		htn := c.starter(t, c.doctor, "Hypertension")
		if !htn.Example || htn.Scope != "clinic" || htn.Mine || htn.Content.Diagnoses[0].Code != "I10" || htn.Content.Diagnoses[0].Label == "" ||
			len(htn.Content.Items) != 0 || htn.Content.Days != 28 {
			t.Fatalf("starter set: %+v", htn)
		}
		// The starter follow-up continues the patient's medicines; this doctor's copy adds one.
		var meds struct {
			Data []struct {
				ID    int64
				Label string
			}
		}
		c.doctor.Do("GET", "/api/medicines?q=amlodipine", nil).JSON(t, &meds)
		htn.Content.Items = []map[string]any{{"medicine_id": meds.Data[0].ID, "medicine": meds.Data[0].Label, "dose": "1 tablet", "route": "oral",
			"frequency": "once daily", "duration": "30 days", "quantity": "30"}}
		appt := c.openVisit(t)

		r := apply(c.doctor, appt, htn, 0)
		var got applied
		r.JSON(t, &got)
		if r.Status != http.StatusOK || len(got.Visit.Diagnoses) != 1 || !got.Visit.Diagnoses[0].Primary || len(got.Visit.Orders) != len(htn.Content.Orders) ||
			got.Visit.Plan != htn.Content.Plan || got.Visit.FollowUpDate == "" || got.Prescription == nil ||
			!strings.HasPrefix(got.Prescription.Items[0].Medicine, "Amlodipine") {
			t.Fatalf("apply: %d %s", r.Status, r.Body)
		}
		var rxs struct{ Data []struct{ ID int64 } }
		c.doctor.Do("GET", fmt.Sprintf("/api/appointments/%d/prescriptions", appt), nil).JSON(t, &rxs)
		if len(rxs.Data) != 1 {
			t.Errorf("prescriptions after one apply: %d", len(rxs.Data))
		}

		// Again: the amlodipine is a duplicate of the draft just written; refused without a
		// reason, and nothing of the set is written.
		r = apply(c.doctor, appt, htn, got.Visit.Version)
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["items.0.override_reason"]) == 0 {
			t.Fatalf("second apply without a reason: %d %s", r.Status, r.Body)
		}
		var v struct{ Version int }
		c.doctor.Do("GET", fmt.Sprintf("/api/appointments/%d/visit", appt), nil).JSON(t, &v)
		if v.Version != got.Visit.Version {
			t.Errorf("a refused apply changed the visit: version %d, was %d", v.Version, got.Visit.Version)
		}
		htn.Content.Items[0]["override_reason"] = "Dose continued on a second script for the pharmacy"
		htn.Content.Items[0]["overrides"] = findingKeys(t, c.doctor, appt, htn.Content.Items[0])
		r = apply(c.doctor, appt, htn, got.Visit.Version)
		var again applied
		r.JSON(t, &again)
		if r.Status != http.StatusOK || len(again.Visit.Diagnoses) != 1 || len(again.Visit.Orders) != len(htn.Content.Orders) || again.Visit.Plan != htn.Content.Plan ||
			strings.Join(again.Skipped.Diagnoses, ",") != "I10" || len(again.Skipped.Orders) != len(htn.Content.Orders) || len(again.Skipped.Today) != 0 || !again.Skipped.Plan || !again.Skipped.FollowUp ||
			len(again.Prescription.Items[0].Overrides) == 0 {
			t.Fatalf("second apply with a reason: %d %s", r.Status, r.Body)
		}
		var events struct {
			Data []struct{ Action, Detail string }
		}
		c.admin.Do("GET", fmt.Sprintf("/api/audit-events?patient_id=%d&per_page=50", c.patientID), nil).JSON(t, &events)
		var actions []string
		for _, e := range events.Data {
			actions = append(actions, e.Action)
		}
		for _, want := range []string{"order_set.apply", "prescription.duplicate_override", "visit.save", "prescription.create"} {
			if !slices.Contains(actions, want) {
				t.Errorf("audit log lacks %s: %v", want, actions)
			}
		}

		// A stale version is a conflict; a signed visit takes no set.
		if r := apply(c.doctor, appt, htn, got.Visit.Version); r.Status != http.StatusConflict {
			t.Errorf("stale apply: %d %s", r.Status, r.Body)
		}
	})
}

// TestAllergyInASetNeedsAReason: a set's line the patient is allergic to is blocked like a
// typed one, and applies only with a reason.
func TestAllergyInASetNeedsAReason(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		appt := c.openVisit(t)
		var meds struct {
			Data []struct {
				ID    int64
				Label string
			}
		}
		c.doctor.Do("GET", "/api/medicines?q=amoxicillin", nil).JSON(t, &meds)
		line := map[string]any{"medicine_id": meds.Data[0].ID, "medicine": meds.Data[0].Label, "dose": "1 capsule", "route": "oral", "frequency": "3 times a day", "duration": "7 days", "quantity": "21"}
		body := map[string]any{"version": 0, "content": map[string]any{"diagnoses": []map[string]any{{"code": "J02.9", "primary": true}}, "items": []map[string]any{line}}}
		r := c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/order-set", appt), body)
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["items.0.override_reason"]) == 0 {
			t.Fatalf("allergy without a reason: %d %s", r.Status, r.Body)
		}
		line["override_reason"] = "Tolerated amoxicillin last year under observation"
		line["overrides"] = findingKeys(t, c.doctor, appt, line)
		r = c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/order-set", appt), body)
		var got applied
		r.JSON(t, &got)
		if r.Status != http.StatusOK || got.Prescription == nil || !slices.ContainsFunc(got.Prescription.Items[0].Overrides, func(k string) bool { return strings.HasPrefix(k, "allergy:") }) {
			t.Fatalf("allergy with a reason: %d %s", r.Status, r.Body)
		}
	})
}

// TestSaveAVisitAsASet: a doctor's own set is theirs alone; the clinic's needs the permission.
func TestSetsAreTheirKeepers(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		mine := map[string]any{"name": "My HTN review", "scope": "personal", "language": "", "content": map[string]any{
			"diagnoses": []map[string]any{{"code": "i10", "primary": true}}, "orders": []map[string]any{{"code": "LIPID"}}, "plan": "Recheck", "follow_up_days": 14}}
		var s set
		r := c.doctor.Do("POST", "/api/order-sets", mine)
		r.JSON(t, &s)
		if r.Status != http.StatusCreated || !s.Mine || s.Scope != "personal" || s.Content.Diagnoses[0].Code != "I10" {
			t.Fatalf("create personal: %d %s", r.Status, r.Body)
		}
		if r := c.other.Do("GET", fmt.Sprintf("/api/order-sets/%d", s.ID), nil); r.Status != http.StatusNotFound {
			t.Errorf("another doctor reads my set: %d", r.Status)
		}
		if r := c.other.Do("PUT", fmt.Sprintf("/api/order-sets/%d", s.ID), mine); r.Status != http.StatusNotFound {
			t.Errorf("another doctor changes my set: %d", r.Status)
		}
		mine["scope"] = "clinic"
		if r := c.doctor.Do("POST", "/api/order-sets", mine); r.Status != http.StatusForbidden {
			t.Errorf("a doctor makes a clinic set: %d %s", r.Status, r.Body)
		}
		if r := c.admin.Do("POST", "/api/order-sets", mine); r.Status != http.StatusCreated {
			t.Errorf("the administrator makes a clinic set: %d %s", r.Status, r.Body)
		}
		htn := c.starter(t, c.doctor, "Hypertension")
		if r := c.doctor.Do("DELETE", fmt.Sprintf("/api/order-sets/%d?version=%d", htn.ID, htn.Version), nil); r.Status != http.StatusForbidden {
			t.Errorf("a doctor deletes a clinic set: %d", r.Status)
		}
		if r := c.nurse.Do("GET", "/api/order-sets", nil); r.Status != http.StatusForbidden {
			t.Errorf("a nurse lists sets: %d", r.Status)
		}
		bad := map[string]any{"name": " ", "scope": "personal", "content": map[string]any{"diagnoses": []map[string]any{{"code": "ZZZ9"}}, "orders": []map[string]any{{"code": "NOPE"}},
			"follow_up_days": 1000, "items": []map[string]any{{"medicine": "Something"}}}}
		r = c.doctor.Do("POST", "/api/order-sets", bad)
		_, _, fields := r.Error(t)
		for _, f := range []string{"name", "content.diagnoses.0.code", "content.orders.0.code", "content.follow_up_days", "content.items.0.quantity"} {
			if len(fields[f]) == 0 {
				t.Errorf("a bad set: no error on %s: %s", f, r.Body)
			}
		}
		if r := c.doctor.Do("DELETE", fmt.Sprintf("/api/order-sets/%d?version=%d", s.ID, s.Version), nil); r.Status != http.StatusNoContent {
			t.Errorf("delete my set: %d %s", r.Status, r.Body)
		}
	})
}

// TestSnippetsAndTheirValues: snippets are listed with the clinic's starters, a shortcut is
// one per owner and language, and the chart fills their placeholders.
func TestSnippetsAndTheirValues(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		var list struct {
			Data []struct {
				ID       int64
				Shortcut string
				Scope    string
				Body     string
			}
		}
		c.doctor.Do("GET", "/api/snippets", nil).JSON(t, &list)
		if !slices.ContainsFunc(list.Data, func(s struct {
			ID       int64
			Shortcut string
			Scope    string
			Body     string
		}) bool {
			return s.Shortcut == ";ntd" && s.Scope == "clinic"
		}) {
			t.Fatalf("starter snippets: %+v", list.Data)
		}
		mine := map[string]any{"scope": "personal", "section": "plan", "shortcut": ";FU", "language": "en", "body": "Follow up in two weeks; HbA1c {{last.HbA1c}}."}
		if r := c.doctor.Do("POST", "/api/snippets", mine); r.Status != http.StatusCreated || !strings.Contains(string(r.Body), `"shortcut":";fu"`) {
			t.Fatalf("create snippet: %d %s", r.Status, r.Body)
		}
		if r := c.doctor.Do("POST", "/api/snippets", mine); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("the same shortcut again: %d", r.Status)
		}
		for field, bad := range map[string]map[string]any{
			"shortcut": {"scope": "personal", "section": "plan", "shortcut": "fu", "body": "x"},
			"body":     {"scope": "personal", "section": "plan", "shortcut": ";zz", "body": "{{patient.secret}}"},
			"section":  {"scope": "personal", "section": "billing", "shortcut": ";zy", "body": "x"},
		} {
			r := c.doctor.Do("POST", "/api/snippets", bad)
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields[field]) == 0 {
				t.Errorf("bad %s: %d %s", field, r.Status, r.Body)
			}
		}
		appt := c.openVisit(t)
		c.doctor.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit", appt), map[string]any{"version": 0, "vitals": map[string]any{"bp_systolic": 138, "bp_diastolic": 86},
			"diagnoses": []any{}, "orders": []any{}})
		var values struct{ Values map[string]string }
		r := c.doctor.Do("GET", fmt.Sprintf("/api/appointments/%d/chart-values", appt), nil)
		r.JSON(t, &values)
		if r.Status != http.StatusOK || values.Values["vitals.bp"] != "138/86" || !strings.Contains(values.Values["age"], "years old") ||
			values.Values["sex"] != "male" || !strings.Contains(values.Values["allergies"], "penicillin") {
			t.Errorf("chart values: %d %s", r.Status, r.Body)
		}
		c.doctor.SetCookie("language", "ru")
		c.doctor.Do("GET", fmt.Sprintf("/api/appointments/%d/chart-values", appt), nil).JSON(t, &values)
		if values.Values["sex"] != "мужской" {
			t.Errorf("chart values in Russian: %+v", values.Values)
		}
	})
}

// TestFavouritesComeFirst: starred entries lead each list, then what the doctor used.
func TestFavouritesComeFirst(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		appt := c.openVisit(t)
		c.doctor.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit", appt), map[string]any{"version": 0,
			"diagnoses": []map[string]any{{"code": "J06.9", "primary": true}}, "orders": []map[string]any{{"code": "CBC"}}})
		for _, p := range []string{"/api/favourites/code/i10", "/api/favourites/test/LIPID", "/api/favourites/code/i10"} {
			if r := c.doctor.Do("PUT", p, nil); r.Status != http.StatusNoContent {
				t.Fatalf("star %s: %d %s", p, r.Status, r.Body)
			}
		}
		if r := c.doctor.Do("PUT", "/api/favourites/code/NOPE1", nil); r.Status != http.StatusNotFound {
			t.Errorf("star an unknown code: %d", r.Status)
		}
		if r := c.doctor.Do("PUT", "/api/favourites/pet/x", nil); r.Status != http.StatusNotFound {
			t.Errorf("star an unknown kind: %d", r.Status)
		}
		type pick struct {
			Ref, Label string
			Favourite  bool
			Uses       int
		}
		var picks struct{ Codes, Tests, Medicines []pick }
		c.doctor.Do("GET", "/api/favourites", nil).JSON(t, &picks)
		if len(picks.Codes) != 2 || picks.Codes[0].Ref != "I10" || !picks.Codes[0].Favourite || picks.Codes[1].Ref != "J06.9" || picks.Codes[1].Uses != 1 ||
			len(picks.Tests) != 2 || picks.Tests[0].Ref != "LIPID" || picks.Tests[1].Ref != "CBC" {
			t.Errorf("picks: %+v", picks)
		}
		var others struct{ Codes []pick }
		c.other.Do("GET", "/api/favourites", nil).JSON(t, &others)
		if len(others.Codes) != 0 {
			t.Errorf("another doctor's picks: %+v", others)
		}
		c.doctor.Do("DELETE", "/api/favourites/code/I10", nil)
		c.doctor.Do("GET", "/api/favourites", nil).JSON(t, &picks)
		if len(picks.Codes) != 1 || picks.Codes[0].Ref != "J06.9" {
			t.Errorf("after unstarring: %+v", picks.Codes)
		}
	})
}
