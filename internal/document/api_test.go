package document_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/auth"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/document"
)

// born is the test patient's birth: 41 years and ten days ago, whatever today is, so that a
// document gives her age as "41 год" (a plural form of its own) in any year.
var born = time.Now().AddDate(-41, 0, -10)

var birthDate = born.Format(time.DateOnly)

type run struct {
	Text string `json:"text"`
	Bold bool   `json:"bold"`
}

type block struct {
	Type  string    `json:"type"`
	Runs  []run     `json:"runs"`
	Items [][]run   `json:"items"`
	Rows  [][][]run `json:"rows"`
}

type doc struct {
	ID           int64   `json:"id"`
	Kind         string  `json:"kind"`
	Number       string  `json:"number"`
	Code         string  `json:"code"`
	Status       string  `json:"status"`
	HasSignature bool    `json:"has_signature"`
	Content      []block `json:"content"`
	ContentHash  string  `json:"content_hash"`
	Doctor       struct {
		Name     string `json:"name"`
		Licences []struct {
			Number string `json:"number"`
		} `json:"licences"`
	} `json:"doctor"`
	Version int `json:"version"`
}

type tmpl struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	Language string `json:"language"`
	Body     string `json:"body"`
	Fields   []struct {
		Key string `json:"key"`
	} `json:"fields"`
	Version int `json:"version"`
}

// text is a document's content as plain text, one block a line.
func text(blocks []block) string {
	var b strings.Builder
	runs := func(rs []run) {
		for _, r := range rs {
			b.WriteString(r.Text)
		}
	}
	for _, bl := range blocks {
		runs(bl.Runs)
		for _, it := range bl.Items {
			b.WriteString("\n• ")
			runs(it)
		}
		for _, row := range bl.Rows {
			b.WriteString("\n")
			for _, c := range row {
				b.WriteString("| ")
				runs(c)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

type setup struct {
	env                         *apitest.Env
	admin, doctor, nurse, front *apitest.Client
	patientID, visitID          int64
	booked                      int // visits booked, each half an hour after the last
}

const hostileName = `<img src=x onerror=alert(1)>`

// newSetup: a doctor with a licence and a signature; a patient whose first name is markup;
// a signed visit with a diagnosis and two orders.
func newSetup(t *testing.T, db *database.DB) *setup {
	env := apitest.New(t, db)
	s := &setup{env: env}
	s.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	s.doctor = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	s.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	s.front = env.LoggedIn("front", env.CreateUser("front", "receptionist"))
	var me struct{ Version int }
	s.doctor.Do("GET", "/api/get-profile", nil).JSON(t, &me)
	if r := s.doctor.Do("PATCH", "/api/update-profile", map[string]any{"name": "Dr Nguyễn Văn Bình", "specialisations": []string{"Family medicine"},
		"licences": []map[string]string{{"number": "PRC-0012345", "issuer": "MOH"}}, "version": me.Version}); r.Status != http.StatusOK {
		t.Fatalf("profile: %d %s", r.Status, r.Body)
	}
	if r := s.doctor.Upload("PUT", "/api/profile/signature", "sig.png", apitest.SignaturePNG(t)); r.Status != http.StatusOK {
		t.Fatalf("signature: %d %s", r.Status, r.Body)
	}
	p := apitest.Do[struct{ ID int64 }](t, s.front, http.StatusCreated, "POST", "/api/patients", map[string]any{"first_name": hostileName, "last_name": "Trần",
		"birth_date": birthDate, "sex": "female", "address": "12 Lê Lợi, Huế", "history": map[string]any{"allergy_status": "none"}})
	s.patientID = p.ID
	s.visitID = s.visit(t, true)
	return s
}

// visit books, starts and writes a visit of the patient; signed or left a draft.
func (s *setup) visit(t *testing.T, sign bool) int64 {
	t.Helper()
	docs := apitest.Do[struct{ Data []struct{ ID int64 } }](t, s.front, http.StatusOK, "GET", "/api/doctors", nil)
	a := apitest.Do[struct {
		ID      int64
		Version int
	}](t, s.front, http.StatusCreated, "POST", "/api/appointments", map[string]any{"patient_id": s.patientID, "doctor_id": docs.Data[0].ID,
		"starts_at": time.Now().UTC().Add(time.Hour + time.Duration(s.booked)*30*time.Minute).Truncate(time.Minute).Format(time.RFC3339), "duration_minutes": 10, "type": "new"})
	s.booked++
	path := fmt.Sprintf("/api/appointments/%d", a.ID)
	apitest.Do[any](t, s.front, http.StatusOK, "POST", path+"/arrive", map[string]any{"version": a.Version})
	apitest.Do[any](t, s.doctor, http.StatusOK, "POST", path+"/start", map[string]any{"version": a.Version + 1})
	apitest.Do[any](t, s.doctor, http.StatusOK, "PUT", path+"/visit", map[string]any{"version": 0, "chief_complaint": "Sốt, ho", "examination": "Họng đỏ",
		"vitals":    map[string]any{"temperature": 38.2, "heart_rate": 96},
		"diagnoses": []map[string]any{{"code": "J06.9", "primary": true}}, "orders": []map[string]any{{"code": "CBC", "note": ""}, {"code": "XR-CHEST", "note": "PA view"}, {"code": "ECG", "note": ""}}})
	if sign {
		apitest.Do[any](t, s.doctor, http.StatusOK, "POST", path+"/visit/sign", map[string]any{"version": 1})
	}
	return a.ID
}

func (s *setup) template(t *testing.T, kind, lang string) tmpl {
	t.Helper()
	list := apitest.Do[struct{ Data []tmpl }](t, s.doctor, http.StatusOK, "GET", "/api/document-templates?kind="+kind+"&language="+lang, nil)
	if len(list.Data) != 1 {
		t.Fatalf("templates %s/%s: %v", kind, lang, list.Data)
	}
	return list.Data[0]
}

// A doctor issues a medical certificate in Vietnamese from a signed visit: the fields and the
// visit fill it, the patient's markup stays text, the number is the year's first, the
// doctor's details and signature are kept; the receiver's check shows only what it may;
// cancelling shows on the check; the database refuses any other change.
func TestCertificateIssuedVerifiedCancelled(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		all := apitest.Do[struct{ Data []tmpl }](t, s.doctor, http.StatusOK, "GET", "/api/document-templates", nil)
		if len(all.Data) != 36 {
			t.Fatalf("starter templates: %d, want 7 kinds in 4 languages and the immunisation card on two papers in 4", len(all.Data))
		}
		cert := s.template(t, "medical_certificate", "vi")

		d := apitest.Do[doc](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": cert.ID, "patient_id": s.patientID,
			"appointment_id": s.visitID, "fields": map[string]string{"rest_days": "3", "rest_from": "2026-11-25", "remarks": "**not bold** {{patient.mrn}}"}})
		year := time.Now().Year()
		if d.Number != fmt.Sprintf("MC-%d-000001", year) || d.Status != "issued" || !d.HasSignature || len(d.Code) != 16 || len(d.ContentHash) != 64 {
			t.Errorf("issued: %+v", d)
		}
		body := text(d.Content)
		for _, want := range []string{"Giấy xác nhận khám bệnh", "không thay thế Giấy chứng nhận nghỉ việc", "Trần " + hostileName, "J06.9", "3 ngày", "25/11/2026", "đến hết ngày 27/11/2026", "giới tính: nữ",
			"**not bold** {{patient.mrn}}", d.Number} {
			if !strings.Contains(body, want) {
				t.Errorf("content lacks %q:\n%s", want, body)
			}
		}
		if d.Doctor.Name != "Dr Nguyễn Văn Bình" || len(d.Doctor.Licences) != 1 {
			t.Errorf("doctor: %+v", d.Doctor)
		}

		// The doctor's profile changes later; the document keeps what it was issued with.
		var me struct{ Version int }
		s.doctor.Do("GET", "/api/get-profile", nil).JSON(t, &me)
		apitest.Do[any](t, s.doctor, http.StatusOK, "PATCH", "/api/update-profile", map[string]any{"name": "Dr Someone Else", "version": me.Version})
		again := apitest.Do[doc](t, s.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/documents/%d", d.ID), nil)
		if again.Doctor.Name != "Dr Nguyễn Văn Bình" || again.ContentHash != d.ContentHash {
			t.Errorf("kept: %+v", again.Doctor)
		}

		// The receiver checks it without an account, in their browser's language.
		visitor := s.env.Client()
		visitor.Header.Set("Accept-Language", "vi-VN,vi;q=0.9")
		page := visitor.Do("GET", "/verify/"+d.Code[:4]+"-"+strings.ToLower(d.Code[4:]), nil)
		html := string(page.Body)
		if page.Status != http.StatusOK || !strings.Contains(html, "Hợp lệ") || !strings.Contains(html, d.Number) || !strings.Contains(html, born.Format("2006")) ||
			!strings.Contains(html, d.ContentHash) || !strings.Contains(html, "Dr Nguyễn Văn Bình") || !strings.Contains(html, "T. &lt;.") {
			t.Fatalf("verify: %d %s", page.Status, html)
		}
		for _, never := range []string{"<img", "onerror", "Lê Lợi", "J06.9", birthDate, born.Format("02/01/2006"), "Sốt"} {
			if strings.Contains(html, never) {
				t.Errorf("the verify page shows %q", never)
			}
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'document.verify' AND actor_id IS NULL AND address <> '' AND patient_id = $1", s.patientID); n != 1 {
			t.Errorf("verifications audited: %d", n)
		}
		// The database keeps it as issued, whoever writes.
		ctx := context.Background()
		if _, err := db.ExecContext(ctx, `UPDATE documents SET content = '[]' WHERE id = $1`, d.ID); err == nil {
			t.Error("content changed by SQL")
		}
		if _, err := db.ExecContext(ctx, `DELETE FROM documents WHERE id = $1`, d.ID); err == nil {
			t.Error("document deleted by SQL")
		}

		// A receptionist prints it again (TestDocumentRules: who may issue and cancel).
		apitest.Do[doc](t, s.front, http.StatusOK, "POST", fmt.Sprintf("/api/documents/%d/print", d.ID), nil)
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action IN ('document.issue', 'document.print') AND patient_id = $1", s.patientID); n != 2 {
			t.Errorf("issue and print audited: %d", n)
		}

		// Cancelled with a reason: the check says so (TestDocumentRules: it prints no more).
		c := apitest.Do[doc](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/documents/%d/cancel", d.ID), map[string]any{"version": d.Version, "reason": "Wrong dates"})
		if c.Status != "cancelled" {
			t.Errorf("cancelled: %+v", c)
		}
		visitor.Header.Set("Accept-Language", "en")
		if page := visitor.Do("GET", "/verify/"+d.Code, nil); !strings.Contains(string(page.Body), "Cancelled: no longer valid") {
			t.Errorf("verify after cancelling: %s", page.Body)
		}
		if _, err := db.ExecContext(ctx, `UPDATE documents SET status = 'issued' WHERE id = $1`, d.ID); err == nil {
			t.Error("a cancelled document was issued again by SQL")
		}
		list := apitest.Do[struct{ Data []doc }](t, s.nurse, http.StatusOK, "GET", fmt.Sprintf("/api/documents?patient_id=%d", s.patientID), nil)
		if len(list.Data) != 1 || list.Data[0].Status != "cancelled" {
			t.Errorf("the chart's list: %+v", list.Data)
		}
	})
}

// A laboratory request lists the visit's orders; a visit summary needs a signed visit.
func TestRequestsAndSummary(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		lab := s.template(t, "lab_request", "en")
		d := apitest.Do[doc](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": lab.ID, "patient_id": s.patientID, "appointment_id": s.visitID})
		var orders []string
		for _, b := range d.Content {
			for _, it := range b.Items {
				orders = append(orders, it[0].Text)
			}
		}
		if !slices.Equal(orders, []string{"CBC Complete blood count", "J06.9 Acute upper respiratory infection, unspecified (primary)"}) {
			t.Errorf("the laboratory request's lists: %q", orders)
		}
		img := s.template(t, "imaging_request", "en")
		d = apitest.Do[doc](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": img.ID, "patient_id": s.patientID, "appointment_id": s.visitID})
		// The ECG, a functional study, is on the request for instrumental examinations too.
		if body := text(d.Content); !strings.Contains(body, "• XR-CHEST Chest X-ray — PA view") || !strings.Contains(body, "• ECG Electrocardiogram") || strings.Contains(body, "CBC") {
			t.Errorf("the imaging request:\n%s", body)
		}
		draft := s.visit(t, false)
		summary := s.template(t, "visit_summary", "ru")
		if r := s.doctor.Do("POST", "/api/documents", map[string]any{"template_id": summary.ID, "patient_id": s.patientID, "appointment_id": draft}); r.Status != http.StatusConflict {
			t.Errorf("summary of a draft: %d %s", r.Status, r.Body)
		}
		sum := apitest.Do[doc](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": summary.ID, "patient_id": s.patientID, "appointment_id": s.visitID})
		// The vitals are printed with the server's flags for the patient's age on the visit's
		// day (a fever from 38.0 °C), the age band named in the print's language.
		if body := text(sum.Content); !strings.Contains(body, "Выписка из медицинской карты") ||
			!strings.Contains(body, "T 38,2 °C ↑") || !strings.Contains(body, " — ↑ выше возрастной нормы (возрастная группа: 18 лет и старше)") ||
			strings.Count(body, "выше возрастной нормы") != 1 || !strings.Contains(body, "ЧСС 96") ||
			strings.Contains(body, "ЧСС 96 /мин ↑") || !strings.Contains(body, "(основной)") {
			t.Errorf("summary:\n%s", body)
		}
		// Another patient's visit is not this patient's.
		other := apitest.Do[struct{ ID int64 }](t, s.front, http.StatusCreated, "POST", "/api/patients", map[string]any{"first_name": "Minh", "last_name": "Lê", "birth_date": "1990-01-01", "sex": "male"})
		r := s.doctor.Do("POST", "/api/documents", map[string]any{"template_id": lab.ID, "patient_id": other.ID, "appointment_id": s.visitID})
		if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields["appointment_id"]) == 0 {
			t.Errorf("another patient's visit: %d %s", r.Status, r.Body)
		}
	})
}

// Numbers of a kind run without gaps when doctors issue at once.
func TestNumbersWithoutGapsUnderConcurrency(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		lab := s.template(t, "lab_request", "vi")
		const n = 12
		var wg sync.WaitGroup
		numbers := make([]string, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := s.doctor.Do("POST", "/api/documents", map[string]any{"template_id": lab.ID, "patient_id": s.patientID, "appointment_id": s.visitID})
				var d doc
				if r.Status == http.StatusCreated {
					r.JSON(t, &d)
				}
				numbers[i] = d.Number
			}()
		}
		wg.Wait()
		slices.Sort(numbers)
		for i, got := range numbers {
			if want := fmt.Sprintf("LR-%d-%06d", time.Now().Year(), i+1); got != want {
				t.Fatalf("numbers %v: want %s at %d", numbers, want, i)
			}
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(DISTINCT code) FROM documents"); n != 12 {
			t.Errorf("codes: %d distinct", n)
		}
	})
}

// Templates: a manager writes one in Russian with placeholders and a field; a mistake in the
// body is refused naming its line; the preview fills the placeholders for a chosen visit.
func TestTemplateEditingAndPreview(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		s.admin.SetCookie("language", "ru")
		body := "# Справка для бассейна\nПациент: **{{patient.name}}**, {{patient.age}}\n- {{visit.diagnoses}}\nДопуск до {{field.until}}"
		fields := []map[string]any{{"key": "until", "label": "Допуск до", "type": "date", "required": true}}
		bad := s.admin.Do("POST", "/api/document-templates", map[string]any{"name": "Бассейн", "kind": "custom", "language": "ru", "paper": "a5-portrait",
			"body": body + "\n{{patient.passport}}", "fields": fields})
		if msg, _, _ := bad.Error(t); bad.Status != http.StatusUnprocessableEntity || msg != "Строка 5: нет такой подстановки {{patient.passport}}. Вставьте её из списка рядом с редактором." {
			t.Errorf("unknown placeholder: %d %q", bad.Status, msg)
		}
		if r := s.admin.Do("POST", "/api/document-templates", map[string]any{"name": "Бассейн", "kind": "custom", "language": "ru", "paper": "a5-portrait",
			"body": "**unclosed", "fields": fields}); r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "Строка 1") {
			t.Errorf("unclosed bold: %d %s", r.Status, r.Body)
		}
		tp := apitest.Do[tmpl](t, s.admin, http.StatusCreated, "POST", "/api/document-templates", map[string]any{"name": "Бассейн", "kind": "custom", "language": "ru",
			"paper": "a5-portrait", "body": body, "fields": fields})
		if r := s.admin.Do("POST", "/api/document-templates", map[string]any{"name": "Бассейн", "kind": "custom", "language": "ru", "paper": "a5-portrait", "body": body, "fields": fields}); r.Status != http.StatusUnprocessableEntity {
			t.Errorf("a name taken: %d", r.Status)
		}
		prev := apitest.Do[struct{ Content []block }](t, s.admin, http.StatusOK, "POST", "/api/document-templates/preview", map[string]any{"body": body, "fields": fields,
			"language": "ru", "patient_id": s.patientID, "appointment_id": s.visitID, "values": map[string]string{"until": "2027-01-31"}})
		got := text(prev.Content)
		if !strings.Contains(got, "Пациент: Trần "+hostileName+", 41 год") || !strings.Contains(got, "J06.9") || !strings.Contains(got, "31.01.2027") {
			t.Errorf("preview:\n%s", got)
		}
		if prev.Content[1].Runs[1].Text != "Trần "+hostileName || !prev.Content[1].Runs[1].Bold {
			t.Errorf("the name's run: %+v", prev.Content[1].Runs)
		}
		// A stale save is refused; a current one saves.
		upd := map[string]any{"name": "Бассейн", "kind": "custom", "language": "ru", "paper": "a4-portrait", "body": body, "fields": fields, "version": tp.Version}
		apitest.Do[tmpl](t, s.admin, http.StatusOK, "PUT", fmt.Sprintf("/api/document-templates/%d", tp.ID), upd)
		if r := s.admin.Do("PUT", fmt.Sprintf("/api/document-templates/%d", tp.ID), upd); r.Status != http.StatusConflict {
			t.Errorf("stale save: %d", r.Status)
		}
		// A doctor may preview and issue, a nurse neither.
		if r := s.nurse.Do("POST", "/api/document-templates/preview", map[string]any{"body": body, "language": "ru", "patient_id": s.patientID}); r.Status != http.StatusForbidden {
			t.Errorf("nurse previews: %d", r.Status)
		}
	})
}

// The verify page refuses an address past its look-ups.
func TestVerifyIsRateLimited(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env := apitest.New(t, db)
		visitor := env.Client()
		limited := 0
		for range 25 {
			if r := visitor.Do("GET", "/verify/AAAAAAAAAAAAAAAA", nil); r.Status == http.StatusTooManyRequests {
				limited++
				if r.Header.Get("Retry-After") == "" {
					t.Error("no Retry-After")
				}
			}
		}
		if limited != 5 {
			t.Errorf("%d of 25 look-ups refused, want 5", limited)
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM audit_events WHERE action = 'document.verify'"); n != 0 {
			t.Errorf("look-ups of an unknown code audited one by one: %d rows", n)
		}
	})
}

// The verify page's limit is shared by every instance (it lives in the database) and counts
// an IPv6 /64 as one address: a visitor cannot step through a household's addresses.
func TestVerifyLimitIsSharedAndPerBlock(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		one := &document.Limiter{Throttle: &auth.Throttle{DB: db, Window: document.VerifyWindow}}
		other := &document.Limiter{Throttle: &auth.Throttle{DB: db, Window: document.VerifyWindow}} // another instance
		for i := range document.VerifyLimit {
			l := one
			if i%2 == 1 {
				l = other
			}
			if ok, _, err := l.Allow(ctx, fmt.Sprintf("2001:db8:1:2::%x", i+1)); !ok || err != nil {
				t.Fatalf("look-up %d refused: %v", i+1, err)
			}
		}
		if ok, wait, _ := other.Allow(ctx, "2001:db8:1:2:ffff::9"); ok || wait <= 0 {
			t.Errorf("an address of the same /64, past the limit, on the other instance: allowed %v, wait %v", ok, wait)
		}
		if ok, _, _ := one.Allow(ctx, "2001:db8:1:3::1"); !ok {
			t.Error("the next /64 is refused")
		}
		if ok, _, _ := one.Allow(ctx, "192.0.2.7"); !ok {
			t.Error("an IPv4 address is refused")
		}
		// Ended windows are swept: a flood from many addresses leaves no rows behind.
		if n, err := one.Throttle.Sweep(ctx, time.Now().UTC().Add(auth.ShortWindow+document.VerifyWindow)); err != nil || n != 4 {
			t.Errorf("swept %d rows (%v), want 4: two /64s, an IPv4 address, everyone", n, err)
		}
		if ok, _, _ := other.Allow(ctx, "2001:db8:1:2::1"); !ok {
			t.Error("after the sweep the /64 is still refused")
		}
	})
}

// A referral carries what the receiving doctor must know before prescribing: the patient's
// allergies with their status (none known, or each with its reaction and severity) and the
// medicines being taken (this clinic's prescriptions whose supply has not run out, and those
// recorded as taken from elsewhere or over the counter and not stopped).
func TestReferralCarriesAllergiesAndMedicines(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		referral := s.template(t, "referral", "en")
		issue := func() string {
			d := apitest.Do[doc](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": referral.ID, "patient_id": s.patientID,
				"appointment_id": s.visitID, "fields": map[string]string{"referred_to": "Cardiology", "reason": "Palpitations"}})
			return text(d.Content)
		}
		if body := issue(); !strings.Contains(body, "No known allergies") || !strings.Contains(body, "Not asked yet: none recorded, and none currently supplied from here") ||
			!strings.Contains(body, "T 38.2 °C ↑") || !strings.Contains(body, " — ↑ above the usual range (age band: 18 years and over)") {
			t.Errorf("a patient with no known allergies and no medicines:\n%s", body)
		}

		p := apitest.Do[struct{ ID int64 }](t, s.front, http.StatusCreated, "POST", "/api/patients", map[string]any{"first_name": "Hoa", "last_name": "Phạm",
			"birth_date": "1950-05-05", "sex": "female", "history": map[string]any{"allergy_status": "present",
				"allergies": []map[string]string{{"substance": "Penicillin", "reaction": "anaphylaxis", "severity": "severe"}}}})
		s.patientID = p.ID
		s.visitID = s.visit(t, true)
		for _, item := range []map[string]any{
			{"medicine": "Metformin 500 mg tablet", "dose": "1 tablet", "frequency": "twice daily", "duration": "30 days", "quantity": "60"},
			{"medicine": "Amlodipine 5 mg tablet", "dose": "1 tablet", "frequency": "once daily", "duration": "", "quantity": "30"},
		} {
			if r := s.doctor.Do("POST", "/api/prescriptions", map[string]any{"patient_id": p.ID, "items": []any{item}}); r.Status != http.StatusCreated {
				t.Fatalf("prescription: %d %s", r.Status, r.Body)
			}
		}
		// A visit's draft, never handed to the patient, is no medicine taken (clinic-day review, m4).
		if r := s.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/prescriptions", s.visitID), map[string]any{"items": []any{map[string]any{
			"medicine": "Paracetamol 500 mg tablet", "dose": "1 tablet", "frequency": "every 6 hours if needed", "duration": "5 days", "quantity": "20"}}}); r.Status != http.StatusCreated {
			t.Fatalf("draft: %d %s", r.Status, r.Body)
		}
		// Taken, not prescribed here (clinic-day review 2026-11-28, M4): from elsewhere since a
		// day, over the counter since a year; one stopped, which is no current medicine.
		taken := fmt.Sprintf("/api/patients/%d/current-medicines", p.ID)
		for _, in := range []map[string]any{
			{"medicine": "Warfarin 5 mg tablet", "dose": "1 tablet", "frequency": "once daily", "source": "elsewhere", "started_on": "2019-03-05", "prescriber": "Dr Minh"},
			{"medicine": "Omeprazole 20 mg", "source": "otc", "started_on": "2024"},
			{"medicine": "Lisinopril 10 mg", "source": "otc"},
			{"medicine": "Atenolol 50 mg", "source": "elsewhere", "started_on": "2020-03"},
			{"medicine": "Metformin 500 mg", "source": "elsewhere"}, // also prescribed here: listed once
			{"medicine": "Ibuprofen 200 mg", "source": "otc"},
		} {
			if r := s.doctor.Do("POST", taken, in); r.Status != http.StatusCreated {
				t.Fatalf("record %v: %d %s", in, r.Status, r.Body)
			}
		}
		var list struct {
			Data []struct {
				ID       int64
				Medicine string
				Version  int
			}
		}
		s.doctor.Do("GET", taken, nil).JSON(t, &list)
		for _, m := range list.Data {
			if m.Medicine == "Ibuprofen 200 mg" {
				if r := s.doctor.Do("POST", fmt.Sprintf("/api/current-medicines/%d/stop", m.ID), map[string]any{"category": "side_effect", "reason": "Stomach pain", "version": m.Version}); r.Status != http.StatusOK {
					t.Fatalf("stop: %d %s", r.Status, r.Body)
				}
			}
		}
		body := issue()
		// Each medicine once, with who prescribed it, its start in words or "start not known" (m1, m4).
		for _, want := range []string{"Penicillin — anaphylaxis, severe", "Metformin 500 mg tablet, 1 tablet, twice daily (prescribed here, last ",
			"Amlodipine 5 mg tablet, 1 tablet, once daily (prescribed here, last ",
			"Warfarin 5 mg tablet, 1 tablet, once daily (prescribed elsewhere by Dr Minh, since 5 March 2019)", "Omeprazole 20 mg (over the counter, since 2024)",
			"Lisinopril 10 mg (over the counter, start not known)", "Atenolol 50 mg (prescribed elsewhere, since March 2020)"} {
			if !strings.Contains(body, want) {
				t.Errorf("the referral does not say %q:\n%s", want, body)
			}
		}
		if n := strings.Count(body, "Metformin"); n != 1 {
			t.Errorf("the referral lists metformin %d times:\n%s", n, body)
		}
		if strings.Contains(body, "Paracetamol") || strings.Contains(body, "Ibuprofen") {
			t.Errorf("the referral lists a draft prescription or a stopped medicine:\n%s", body)
		}
	})
}

// The pharmacist's review of the current-medicines list: what a reconciliation recorded is
// printed with the medicine only when set; an entry entered in error is printed nowhere; the
// medicines stopped at the visit (a recorded one, a line prescribed here) are printed on its
// summary under their heading, with the reason.
func TestVisitSummaryStoppedAndReconciled(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		s := newSetup(t, db)
		taken := fmt.Sprintf("/api/patients/%d/current-medicines", s.patientID)
		type entry struct {
			ID      int64
			Version int
		}
		record := func(in map[string]any) entry {
			return apitest.Do[entry](t, s.doctor, http.StatusCreated, "POST", taken, in)
		}
		record(map[string]any{"medicine": "Warfarin 5 mg", "source": "elsewhere", "route": "oral", "indication": "atrial fibrillation",
			"last_dose": "2024-05-01T08:30", "adherence": "irregular", "information_source": "carer"})
		record(map[string]any{"medicine": "Omeprazole 20 mg", "source": "otc"})
		wrong := record(map[string]any{"medicine": "Digoxin 0.25 mg", "source": "elsewhere"})
		apitest.Do[entry](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/current-medicines/%d/entered-in-error", wrong.ID), map[string]any{"reason": "Wrong patient", "version": wrong.Version})
		naproxen := record(map[string]any{"medicine": "Naproxen 250 mg", "source": "otc"})
		apitest.Do[entry](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/current-medicines/%d/stop", naproxen.ID),
			map[string]any{"category": "side_effect", "reason": "Heartburn", "appointment_id": s.visitID, "version": naproxen.Version})
		rx := apitest.Do[struct{ ID int64 }](t, s.doctor, http.StatusCreated, "POST", "/api/prescriptions", map[string]any{"patient_id": s.patientID, "items": []any{
			map[string]any{"medicine": "Metformin 500 mg tablet", "dose": "1 tablet", "frequency": "twice daily", "duration": "30 days", "quantity": "60"}}})
		apitest.Do[entry](t, s.doctor, http.StatusOK, "POST", fmt.Sprintf("/api/prescriptions/%d/lines/0/stop", rx.ID),
			map[string]any{"category": "not_effective", "appointment_id": s.visitID})

		summary := s.template(t, "visit_summary", "en")
		body := text(apitest.Do[doc](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": summary.ID, "patient_id": s.patientID, "appointment_id": s.visitID}).Content)
		for _, want := range []string{
			"Warfarin 5 mg (prescribed elsewhere, start not known, route: oral, for atrial fibrillation, last dose 1 May 2024 08:30, taking irregularly, per a relative or carer)",
			"Omeprazole 20 mg (over the counter, start not known)",
			"Stopped at this visit", "Naproxen 250 mg — side effect or reaction: Heartburn", "Metformin 500 mg tablet, 1 tablet, twice daily — not effective",
		} {
			if !strings.Contains(body, want) {
				t.Errorf("the summary does not say %q:\n%s", want, body)
			}
		}
		if strings.Contains(body, "Digoxin") {
			t.Errorf("the summary prints an entry entered in error:\n%s", body)
		}
		// another visit's summary has no such heading
		other := s.visit(t, true)
		if body := text(apitest.Do[doc](t, s.doctor, http.StatusCreated, "POST", "/api/documents", map[string]any{"template_id": summary.ID, "patient_id": s.patientID, "appointment_id": other}).Content); strings.Contains(body, "Stopped at this visit") {
			t.Errorf("another visit's summary:\n%s", body)
		}
	})
}
