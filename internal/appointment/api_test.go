package appointment_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

type appt struct {
	ID          int64  `json:"id"`
	PatientID   int64  `json:"patient_id"`
	DoctorID    int64  `json:"doctor_id"`
	StartsAt    string `json:"starts_at"`
	Day         string `json:"day"`
	QueueNumber int    `json:"queue_number"`
	Type        string `json:"type"`
	Status      string `json:"status"`
	FollowUpOf  *int64 `json:"follow_up_of"`
	VisitStatus string `json:"visit_status"`
	Diagnoses   []struct {
		Code, Text, Label string
		Primary           bool
	} `json:"diagnoses"`
	Version int `json:"version"`
}

type page struct {
	Data []appt `json:"data"`
	Meta struct {
		Total int `json:"total"`
	} `json:"meta"`
}

type visit struct {
	Status    string `json:"status"`
	Version   int    `json:"version"`
	Diagnoses []struct {
		Code, Text, Label string
		Primary           bool
	} `json:"diagnoses"`
	ChiefComplaint string   `json:"chief_complaint"`
	BMI            *float64 `json:"bmi"`
	Vitals         struct {
		Weight *float64 `json:"weight"`
	} `json:"vitals"`
	FollowUp *struct {
		ID       int64  `json:"id"`
		StartsAt string `json:"starts_at"`
	} `json:"follow_up"`
	Amendments []struct {
		Reason   string `json:"reason"`
		Previous struct {
			ChiefComplaint string `json:"chief_complaint"`
		} `json:"previous"`
	} `json:"amendments"`
}

// clinic is a running server with one account per role, a second doctor and a patient.
type clinic struct {
	env                            *apitest.Env
	admin, doctor, nurse, rec      *apitest.Client
	doctorID, doctor2ID, patientID int64
	date                           string // tomorrow, so that no booking is in the past
}

func newClinic(t *testing.T, db *database.DB) *clinic {
	env := apitest.New(t, db)
	c := &clinic{env: env}
	c.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	c.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	env.CreateUser("doc2", "doctor")
	c.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	c.rec = env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
	var docs struct {
		Data []struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"data"`
	}
	c.rec.Do("GET", "/api/doctors", nil).JSON(t, &docs)
	if len(docs.Data) != 2 {
		t.Fatalf("doctors: %+v", docs)
	}
	for _, d := range docs.Data {
		if d.Name == "Test doc" {
			c.doctorID = d.ID
		} else {
			c.doctor2ID = d.ID
		}
	}
	var p struct{ ID int64 }
	r := c.rec.Do("POST", "/api/patients", map[string]any{"first_name": "An", "last_name": "Nguyễn", "birth_date": "1980-01-02", "sex": "male"})
	r.JSON(t, &p)
	c.patientID = p.ID
	c.date = time.Now().UTC().AddDate(0, 0, 1).Format(time.DateOnly)
	return c
}

func (c *clinic) at(clock string) string { return c.date + "T" + clock + ":00Z" }

func (c *clinic) book(t *testing.T, who *apitest.Client, doctorID int64, clock string, minutes int) apitest.Response {
	t.Helper()
	return who.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": doctorID,
		"starts_at": c.at(clock), "duration_minutes": minutes, "type": "new", "reason": "Cough"})
}

func (c *clinic) mustBook(t *testing.T, clock string) appt {
	t.Helper()
	r := c.book(t, c.rec, c.doctorID, clock, 15)
	if r.Status != http.StatusCreated {
		t.Fatalf("book %s: %d %s", clock, r.Status, r.Body)
	}
	var a appt
	r.JSON(t, &a)
	return a
}

func (c *clinic) queue(t *testing.T, date string) []appt {
	t.Helper()
	var p page
	r := c.rec.Do("GET", fmt.Sprintf("/api/appointments?date=%s&doctor_id=%d", date, c.doctorID), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("queue: %d %s", r.Status, r.Body)
	}
	r.JSON(t, &p)
	return p.Data
}

func TestBookingAndDoubleBooking(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		a := c.mustBook(t, "09:00")
		b := c.mustBook(t, "09:15") // right after: no overlap
		if a.QueueNumber != 1 || b.QueueNumber != 2 || a.Status != "booked" || a.Day != c.date {
			t.Fatalf("booked %+v %+v", a, b)
		}

		r := c.book(t, c.rec, c.doctorID, "09:10", 20)
		msg, code, _ := r.Error(t)
		if r.Status != http.StatusConflict || code != "appointment.double_booked" || !strings.Contains(msg, "09:00") {
			t.Fatalf("overlap: %d %s %s", r.Status, code, msg)
		}
		// In the user's language.
		c.rec.SetCookie("language", "ru")
		r = c.book(t, c.rec, c.doctorID, "09:05", 5)
		if msg, _, _ := r.Error(t); r.Status != http.StatusConflict || !strings.Contains(msg, "уже есть приём") {
			t.Fatalf("overlap in Russian: %d %s", r.Status, msg)
		}
		c.rec.SetCookie("language", "en")
		// Another doctor at the same time is fine.
		if r := c.book(t, c.rec, c.doctor2ID, "09:00", 15); r.Status != http.StatusCreated {
			t.Fatalf("other doctor: %d %s", r.Status, r.Body)
		}
		// A cancelled appointment frees its time.
		if r := c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/cancel", a.ID), map[string]any{}); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("cancel without a reason: %d %s", r.Status, r.Body)
		}
		if r := c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/cancel", a.ID), map[string]any{"reason": "Patient called"}); r.Status != http.StatusOK {
			t.Fatalf("cancel: %d %s", r.Status, r.Body)
		}
		if r := c.book(t, c.rec, c.doctorID, "09:00", 15); r.Status != http.StatusCreated {
			t.Fatalf("rebook a cancelled time: %d %s", r.Status, r.Body)
		}

		// Bad input changes nothing and says why, per field.
		before := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments`)
		yesterday := time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly)
		r = c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": c.patientID + 1000,
			"starts_at": yesterday + "T10:00:00Z", "duration_minutes": 1, "type": "x"})
		_, _, fields := r.Error(t)
		for _, f := range []string{"starts_at", "duration_minutes", "type"} {
			if len(fields[f]) == 0 {
				t.Errorf("no message for %s: %s", f, r.Body)
			}
		}
		r = c.rec.Do("POST", "/api/appointments", map[string]any{"patient_id": c.patientID, "doctor_id": c.patientID + 1000,
			"starts_at": c.at("11:00"), "duration_minutes": 15, "type": "new"})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["doctor_id"]) == 0 {
			t.Errorf("unknown doctor: %d %s", r.Status, r.Body)
		}
		if after := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments`); after != before {
			t.Errorf("refused bookings wrote %d rows", after-before)
		}
		// A nurse may look but not book.
		if r := c.book(t, c.nurse, c.doctorID, "12:00", 15); r.Status != http.StatusForbidden {
			t.Errorf("nurse books: %d", r.Status)
		}
	})
}

func TestConcurrentDoubleBooking(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		const n = 8
		var wg sync.WaitGroup
		statuses := make(chan int, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Each overlaps every other: 10:00 + i minutes, 30 minutes long.
				statuses <- c.book(t, c.rec, c.doctorID, fmt.Sprintf("10:%02d", i), 30).Status
			}()
		}
		wg.Wait()
		close(statuses)
		count := map[int]int{}
		for s := range statuses {
			count[s]++
		}
		if count[http.StatusCreated] != 1 || count[http.StatusConflict] != n-1 {
			t.Fatalf("concurrent bookings: %v, want one 201 and %d 409", count, n-1)
		}
		if got := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments WHERE doctor_id = $1`, c.doctorID); got != 1 {
			t.Fatalf("%d appointments stored", got)
		}
	})
}

func TestStatusChangesAndQueueOrder(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		a, b, d := c.mustBook(t, "08:00"), c.mustBook(t, "08:30"), c.mustBook(t, "09:00")
		post := func(who *apitest.Client, id int64, action string) apitest.Response {
			return who.Do("POST", fmt.Sprintf("/api/appointments/%d/%s", id, action), map[string]any{})
		}
		if r := post(c.rec, a.ID, "complete"); r.Status != http.StatusForbidden {
			t.Errorf("receptionist completes: %d", r.Status)
		}
		r := post(c.doctor, a.ID, "complete")
		if msg, code, _ := r.Error(t); r.Status != http.StatusConflict || code != "appointment.cannot_complete" || msg == "" {
			t.Errorf("complete a booked visit: %d %s", r.Status, r.Body)
		}
		if r := post(c.rec, a.ID, "arrive"); r.Status != http.StatusOK {
			t.Fatalf("arrive: %d %s", r.Status, r.Body)
		}
		if r := post(c.rec, a.ID, "arrive"); r.Status != http.StatusConflict {
			t.Errorf("arrive twice: %d", r.Status)
		}
		if r := post(c.rec, a.ID, "start"); r.Status != http.StatusForbidden {
			t.Errorf("receptionist starts: %d", r.Status)
		}
		if r := post(c.doctor, a.ID, "start"); r.Status != http.StatusOK {
			t.Fatalf("start: %d %s", r.Status, r.Body)
		}
		if r := post(c.rec, a.ID, "cancel"); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("cancel without a reason: %d", r.Status) // the reason is checked first
		}
		if r := c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/cancel", a.ID), map[string]any{"reason": "x"}); r.Status != http.StatusConflict {
			t.Errorf("cancel a visit in progress: %d", r.Status)
		}
		if r := post(c.doctor, a.ID, "complete"); r.Status != http.StatusOK {
			t.Fatalf("complete: %d %s", r.Status, r.Body)
		}
		if r := post(c.rec, b.ID, "no-show"); r.Status != http.StatusOK {
			t.Fatalf("no-show: %d %s", r.Status, r.Body)
		}
		// A stale version is refused.
		if r := c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", d.ID), map[string]any{"version": d.Version + 5}); r.Status != http.StatusConflict {
			t.Errorf("stale arrive: %d", r.Status)
		}

		// Reorder: the last goes first, and it stays so.
		order := map[string]any{"date": c.date, "doctor_id": c.doctorID, "ids": []int64{d.ID, a.ID, b.ID}}
		if r := c.rec.Do("POST", "/api/appointments/queue", order); r.Status != http.StatusNoContent {
			t.Fatalf("reorder: %d %s", r.Status, r.Body)
		}
		q := c.queue(t, c.date)
		if len(q) != 3 || q[0].ID != d.ID || q[0].QueueNumber != 1 || q[2].ID != b.ID {
			t.Fatalf("queue after reorder: %+v", q)
		}
		// A list that is not the queue (someone booked meanwhile) changes nothing.
		c.mustBook(t, "11:00")
		if r := c.rec.Do("POST", "/api/appointments/queue", order); r.Status != http.StatusConflict {
			t.Errorf("stale reorder: %d", r.Status)
		}
		if q := c.queue(t, c.date); q[0].ID != d.ID || q[3].QueueNumber != 4 {
			t.Errorf("queue after refused reorder: %+v", q)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action LIKE 'appointment.%'`); n < 8 {
			t.Errorf("%d appointment audit events", n)
		}
	})
}

func TestVisitDraftSignAmendAndFollowUp(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		a := c.mustBook(t, "14:00")
		path := fmt.Sprintf("/api/appointments/%d/visit", a.ID)
		content := map[string]any{"chief_complaint": "Sore throat", "version": 0,
			"diagnoses": []map[string]any{{"code": "j02.9", "primary": false}, {"text": "Mild dehydration"}},
			"orders":    []map[string]any{{"code": "CBC", "note": "fasting"}}}
		c.rec.Do("POST", fmt.Sprintf("/api/appointments/%d/arrive", a.ID), map[string]any{})

		// The nurse records vitals (TestVisitRules: what is refused, and who may not).
		r := c.nurse.Do("PUT", path+"/vitals", map[string]any{"version": 0, "vitals": map[string]any{"bp_systolic": 120, "bp_diastolic": 80, "weight": 70, "height": 175}})
		var v visit
		r.JSON(t, &v)
		if r.Status != http.StatusOK || v.Version != 1 || v.BMI == nil || *v.BMI != 22.9 {
			t.Fatalf("nurse vitals: %d %s", r.Status, r.Body)
		}
		c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/start", a.ID), map[string]any{})
		content["version"] = 1
		content["vitals"] = map[string]any{"bp_systolic": 120, "bp_diastolic": 80, "weight": 70, "height": 175}
		content["follow_up_date"] = time.Now().UTC().AddDate(0, 0, 8).Format(time.DateOnly)
		r = c.doctor.Do("PUT", path, content)
		r.JSON(t, &v)
		if r.Status != http.StatusOK || v.Version != 2 || v.Diagnoses[0].Code != "J02.9" || v.Diagnoses[0].Label != "Acute pharyngitis, unspecified" || v.FollowUp == nil {
			t.Fatalf("save: %d %s", r.Status, r.Body)
		}
		// Saving again with the same follow-up date books no second one.
		content["version"] = 2
		r = c.doctor.Do("PUT", path, content)
		r.JSON(t, &v)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM appointments WHERE follow_up_of = $1`, a.ID); n != 1 || r.Status != http.StatusOK {
			t.Fatalf("follow-ups after re-save: %d (%d %s)", n, r.Status, r.Body)
		}
		followUps := c.queue(t, content["follow_up_date"].(string))
		if len(followUps) != 1 || followUps[0].Type != "follow-up" || !strings.HasSuffix(followUps[0].StartsAt, "T14:00:00Z") {
			t.Fatalf("follow-up in its day's queue: %+v", followUps)
		}
		// The follow-up moved since (by the desk here; a patient's move in the portal alike): the
		// doctor's next save with the form's same date leaves it where it is now.
		moved := time.Now().UTC().AddDate(0, 0, 10).Format(time.DateOnly) + "T13:00:00Z"
		if r := c.rec.Do("PUT", fmt.Sprintf("/api/appointments/%d", followUps[0].ID), map[string]any{"doctor_id": followUps[0].DoctorID, "starts_at": moved,
			"duration_minutes": 15, "type": "follow-up", "version": followUps[0].Version}); r.Status != http.StatusOK {
			t.Fatalf("move the follow-up: %d %s", r.Status, r.Body)
		}
		content["version"] = v.Version
		c.doctor.Do("PUT", path, content).JSON(t, &v)
		var after appt
		c.rec.Do("GET", fmt.Sprintf("/api/appointments/%d", followUps[0].ID), nil).JSON(t, &after)
		if after.StartsAt != moved {
			t.Fatalf("the doctor's save put the moved follow-up back: %s, want %s", after.StartsAt, moved)
		}

		content["version"] = v.Version
		content["diagnoses"] = []map[string]any{{"code": "J02.9", "primary": true}, {"text": "Mild dehydration"}}
		c.doctor.Do("PUT", path, content).JSON(t, &v)
		r = c.doctor.Do("POST", path+"/sign", map[string]any{"version": v.Version})
		r.JSON(t, &v)
		if r.Status != http.StatusOK || v.Status != "signed" {
			t.Fatalf("sign: %d %s", r.Status, r.Body)
		}
		var got appt
		c.rec.Do("GET", fmt.Sprintf("/api/appointments/%d", a.ID), nil).JSON(t, &got)
		if got.Status != "completed" || got.VisitStatus != "signed" {
			t.Errorf("after signing: %+v", got)
		}
		// Signed means read-only (TestVisitRules); an amendment keeps the original.
		amend := map[string]any{"version": v.Version, "chief_complaint": "Sore throat for 3 days",
			"diagnoses": []map[string]any{{"code": "J02.9", "primary": true}}, "reason": "Duration added after a call"}
		r = c.doctor.Do("POST", path+"/amend", amend)
		r.JSON(t, &v)
		if r.Status != http.StatusOK || v.ChiefComplaint != "Sore throat for 3 days" || len(v.Amendments) != 1 ||
			v.Amendments[0].Previous.ChiefComplaint != "Sore throat" || v.Status != "signed" {
			t.Fatalf("amend: %d %s", r.Status, r.Body)
		}
		if _, err := db.Exec(`DELETE FROM visit_amendments`); err == nil {
			t.Error("amendments can be deleted")
		}

		// The patient's history shows the diagnoses to clinicians, not to the front desk.
		var hist page
		c.doctor.Do("GET", fmt.Sprintf("/api/appointments?patient_id=%d", c.patientID), nil).JSON(t, &hist)
		if hist.Meta.Total != 2 || hist.Data[1].ID != a.ID || len(hist.Data[1].Diagnoses) != 1 || hist.Data[1].Diagnoses[0].Label == "" {
			t.Fatalf("history for the doctor: %+v", hist)
		}
		hist = page{}
		c.rec.Do("GET", fmt.Sprintf("/api/appointments?patient_id=%d", c.patientID), nil).JSON(t, &hist)
		if len(hist.Data[1].Diagnoses) != 0 {
			t.Errorf("history for the receptionist shows diagnoses: %+v", hist.Data[1])
		}
		for action, want := range map[string]int{"visit.read": 0, "visit.save": 4, "visit.vitals": 1, "visit.sign": 1, "visit.amend": 1, "visit.list": 1} {
			if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = $1`, action); n != want {
				t.Errorf("%s audit events: %d, want %d", action, n, want)
			}
		}
		c.nurse.Do("GET", path, nil).JSON(t, &v)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'visit.read'`); n != 1 || len(v.Amendments) != 1 {
			t.Errorf("visit.read audit events: %d", n)
		}
	})
}

func TestDiagnosisCodesSearchAndImport(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM diagnosis_codes`); n < 200 {
			t.Fatalf("starter list has %d codes", n)
		}
		search := func(lang, q string) []struct{ Code, Label string } {
			var out struct {
				Data []struct{ Code, Label string }
			}
			c.doctor.SetCookie("language", lang)
			c.doctor.Do("GET", "/api/diagnosis-codes?q="+q, nil).JSON(t, &out)
			return out.Data
		}
		if got := search("en", "j06"); len(got) != 1 || got[0].Code != "J06.9" {
			t.Errorf("code prefix: %+v", got)
		}
		if got := search("ru", "%D0%B3%D0%B0%D1%81%D1%82%D1%80%D0%B8%D1%82"); len(got) == 0 || !strings.Contains(got[0].Label, "астрит") { // гастрит
			t.Errorf("Russian words: %+v", got)
		}
		if got := search("zh", "%E8%83%83%E7%82%8E"); len(got) != 1 || got[0].Code != "K29.7" { // 胃炎
			t.Errorf("Chinese words: %+v", got)
		}
		// Words match at a word's start: "hong" is not found inside "không".
		if got := search("vi", "viem+hong+cap"); len(got) != 2 || got[1].Code != "J02.9" || got[1].Label != "Viêm họng cấp, không đặc hiệu" {
			t.Errorf("Vietnamese words without accents: %+v", got)
		}

		csv := "code,label_en,label_ru\nA00.0,\"Cholera due to Vibrio cholerae 01, biovar cholerae\",Холера\n,no code\nJ06.9,Acute upper respiratory infection,\nB99!,Bad code\nZ99.9,\n"
		upload := func(who *apitest.Client) apitest.Response {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			fw, _ := mw.CreateFormFile("file", "codes.csv")
			fw.Write([]byte(csv))
			mw.Close()
			who.Header.Set("Content-Type", mw.FormDataContentType())
			defer who.Header.Del("Content-Type")
			return who.Do("POST", "/api/diagnosis-codes/import", body.Bytes())
		}
		if r := upload(c.doctor); r.Status != http.StatusForbidden {
			t.Errorf("doctor imports: %d", r.Status)
		}
		var rep struct {
			Inserted, Updated, Unchanged, Rejected int
			Errors                                 []struct {
				Line    int
				Message string
			}
		}
		r := upload(c.admin)
		r.JSON(t, &rep)
		if r.Status != http.StatusOK || rep.Inserted != 1 || rep.Updated != 1 || rep.Rejected != 3 || len(rep.Errors) != 3 ||
			rep.Errors[0].Line != 3 || rep.Errors[1].Line != 5 || rep.Errors[2].Line != 6 || rep.Errors[2].Message == "" {
			t.Fatalf("import: %d %s", r.Status, r.Body)
		}
		r = upload(c.admin)
		r.JSON(t, &rep)
		if rep.Inserted != 0 || rep.Updated != 0 || rep.Unchanged != 2 {
			t.Fatalf("import again: %s", r.Body)
		}
		if got := search("ru", "%D1%85%D0%BE%D0%BB%D0%B5%D1%80%D0%B0"); len(got) != 1 || got[0].Code != "A00.0" { // холера
			t.Errorf("imported code: %+v", got)
		}
		var tests struct {
			Data []struct {
				Code, Kind, Label string
				Includes          []string
			}
		}
		c.doctor.SetCookie("language", "zh")
		c.doctor.Do("GET", "/api/lab-tests", nil).JSON(t, &tests)
		if len(tests.Data) < 30 || tests.Data[0].Kind != "lab" || tests.Data[len(tests.Data)-1].Kind != "functional" {
			t.Errorf("lab tests: %+v", tests.Data)
		}
		// A panel names the tests it reports all of, so the doctor ordering both is told.
		includes := map[string][]string{}
		for _, x := range tests.Data {
			includes[x.Code] = x.Includes
		}
		if !slices.Contains(includes["CMP"], "BMP") || slices.Contains(includes["BMP"], "CMP") || len(includes["HBA1C"]) != 0 {
			t.Errorf("what panels include: CMP %v, BMP %v, HBA1C %v", includes["CMP"], includes["BMP"], includes["HBA1C"])
		}
		// What a test reports, by its code in any case: HbA1c in % with mmol/mol as an entry unit.
		var hba1c struct {
			LOINC    string `json:"loinc"`
			Analytes []struct {
				Unit  string `json:"unit"`
				Label string `json:"label"`
				Units []struct{ Unit, Conversion string }
			}
		}
		c.doctor.Do("GET", "/api/lab-tests/hba1c", nil).JSON(t, &hba1c)
		if hba1c.LOINC != "4548-4" || len(hba1c.Analytes) != 1 || hba1c.Analytes[0].Unit != "%" || hba1c.Analytes[0].Label != "糖化血红蛋白（HbA1c）" ||
			len(hba1c.Analytes[0].Units) != 1 || hba1c.Analytes[0].Units[0].Conversion != "hba1c_ifcc" {
			t.Errorf("HbA1c: %+v", hba1c)
		}
		if r := c.doctor.Do("GET", "/api/lab-tests/NO-SUCH", nil); r.Status != 404 || !strings.Contains(string(r.Body), "目录中没有这项检查") {
			t.Errorf("no such test: %d %s", r.Status, r.Body)
		}
	})
}

// A rebooking is audited with what changed, named in each reader's language.
func TestRebookingIsAuditedInWords(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		a := c.mustBook(t, "09:00")
		r := c.rec.Do("PUT", fmt.Sprintf("/api/appointments/%d", a.ID), map[string]any{"doctor_id": c.doctor2ID, "starts_at": c.at("10:00"),
			"duration_minutes": 15, "type": "new", "reason": "Cough", "version": a.Version})
		if r.Status != http.StatusOK {
			t.Fatalf("rebook: %d %s", r.Status, r.Body)
		}
		var detail string
		if err := db.QueryRowContext(context.Background(), `SELECT detail FROM audit_events WHERE action = 'appointment.update'`).Scan(&detail); err != nil {
			t.Fatal(err)
		}
		for lang, want := range map[string]string{"en": "changed: doctor, date and time", "ru": "изменено: врач, дата и время", "vi": "đã sửa: bác sĩ, ngày giờ hẹn"} {
			if got := audit.DetailIn(lang, detail); got != want {
				t.Errorf("%s: %q, want %q", lang, got, want)
			}
		}
	})
}
