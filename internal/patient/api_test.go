package patient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"emr/internal/apitest"
	"emr/internal/audit"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	pt "emr/internal/patient"
)

type patient struct {
	ID        int64  `json:"id"`
	MRN       string `json:"mrn"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
	Phone     string `json:"phone"`
	Version   int    `json:"version"`
	Archived  bool   `json:"archived"`
	HasPhoto  bool   `json:"has_photo"`
}

type page struct {
	Data []patient `json:"data"`
	Meta struct {
		Total      int  `json:"total"`
		TotalExact bool `json:"total_exact"`
	} `json:"meta"`
}

func newPatient(first, last, birth, sex, phone string) map[string]any {
	return map[string]any{"first_name": first, "last_name": last, "birth_date": birth, "sex": sex, "phone": phone}
}

func setup(t *testing.T, db *database.DB) (*apitest.Env, *apitest.Client) {
	env := apitest.New(t, db)
	return env, env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
}

func create(t *testing.T, c *apitest.Client, body map[string]any) patient {
	t.Helper()
	r := c.Do("POST", "/api/patients", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.Status, r.Body)
	}
	var p patient
	r.JSON(t, &p)
	return p
}

func TestCreateGetAndPatientNumbers(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		p := create(t, c, map[string]any{"first_name": " An ", "last_name": "Nguyễn", "birth_date": "1990-05-01", "sex": "male",
			"history": map[string]any{"allergies": []map[string]any{{"substance": "Penicillin", "severity": "severe"}}, "chronic": []string{"asthma"}},
			"mrn":     "HACKED", "id": 999, "unknown_field": "ignored"})
		if !regexp.MustCompile(`^\d{4}-000001$`).MatchString(p.MRN) || p.FirstName != "An" || p.Version != 1 {
			t.Fatalf("created %+v", p)
		}
		var got map[string]any
		c.Do("GET", fmt.Sprintf("/api/patients/%d", p.ID), nil).JSON(t, &got)
		hist := got["history"].(map[string]any)
		if hist["allergies"].([]any)[0].(map[string]any)["substance"] != "Penicillin" || got["mrn"] != p.MRN {
			t.Fatalf("read back %v", got)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'patient.read' AND entity_id = $1`, fmt.Sprint(p.ID)); n != 1 {
			t.Errorf("read audit events = %d", n)
		}
		// Concurrent creates never share a number.
		var wg sync.WaitGroup
		mrns := make(chan string, 10)
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mrns <- create(t, c, newPatient(fmt.Sprint("P", i), "Concurrent", "2000-01-01", "female", "")).MRN
			}()
		}
		wg.Wait()
		close(mrns)
		seen := map[string]bool{p.MRN: true}
		for m := range mrns {
			if seen[m] {
				t.Fatalf("patient number %s given twice", m)
			}
			seen[m] = true
		}
		var pg page
		c.Do("GET", "/api/patients", nil).JSON(t, &pg)
		if pg.Meta.Total != 11 || len(pg.Data) != 11 {
			t.Fatalf("list total %d, %d rows", pg.Meta.Total, len(pg.Data))
		}
	})
}

func TestValidationChangesNothing(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		c.SetCookie("language", "zh")
		r := c.Do("POST", "/api/patients", map[string]any{"first_name": strings.Repeat("x", 101), "birth_date": "2999-01-01", "sex": "robot",
			"email": "not-an-email", "blood_type": "Z+", "phone": "call me", "history": map[string]any{"allergies": []map[string]any{{"substance": ""}}}})
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("status %d", r.Status)
		}
		_, _, fields := r.Error(t)
		for _, f := range []string{"first_name", "last_name", "birth_date", "sex", "email", "blood_type", "phone", "history.allergies.0.substance"} {
			if len(fields[f]) == 0 {
				t.Errorf("no message for %s: %v", f, fields)
			}
		}
		if fields["last_name"][0] != "此字段为必填项。" {
			t.Errorf("message not in Chinese: %v", fields["last_name"])
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patients`); n != 0 {
			t.Fatalf("%d patients written", n)
		}
		if r := c.Do("POST", "/api/patients", newPatient("Old", "Man", "1800-01-01", "male", "")); r.Status != 422 {
			t.Fatalf("birth date 1800: %d", r.Status)
		}
	})
}

func TestStaleUpdateIsAConflictAndChangesNothing(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		p := create(t, c, newPatient("Anna", "Ivanova", "1985-02-03", "female", "0901"))
		body := newPatient("Anna", "Ivanova", "1985-02-03", "female", "0902")
		body["version"] = 1
		r := c.Do("PUT", fmt.Sprintf("/api/patients/%d", p.ID), body)
		if r.Status != 200 {
			t.Fatalf("first update %d %s", r.Status, r.Body)
		}
		body["phone"], body["last_name"] = "0903", "Petrova" // a second editor, still at version 1
		r = c.Do("PUT", fmt.Sprintf("/api/patients/%d", p.ID), body)
		if r.Status != http.StatusConflict {
			t.Fatalf("stale update: %d", r.Status)
		}
		var now patient
		c.Do("GET", fmt.Sprintf("/api/patients/%d", p.ID), nil).JSON(t, &now)
		if now.Phone != "0902" || now.LastName != "Ivanova" || now.Version != 2 {
			t.Fatalf("after the conflict: %+v", now)
		}
		var detail string
		_ = db.QueryRowContext(context.Background(), `SELECT detail FROM audit_events WHERE action = 'patient.update'`).Scan(&detail)
		if audit.DetailIn("en", detail) != "changed: phone" || audit.DetailIn("ru", detail) != "изменено: телефон" || strings.Contains(detail, "0902") {
			t.Errorf("audit detail %q reads %q, %q", detail, audit.DetailIn("en", detail), audit.DetailIn("ru", detail))
		}
	})
}

func TestSearch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		an := create(t, c, newPatient("Văn An", "Nguyễn", "1990-01-01", "male", "+84 90 123 4567"))
		create(t, c, newPatient("Thị Bình", "Nguyễn", "1991-01-01", "female", ""))
		create(t, c, newPatient("Анна", "Ёлкина", "1980-01-01", "female", ""))
		create(t, c, newPatient("小明", "王", "2001-01-01", "male", ""))
		create(t, c, newPatient("Anne", "Annandale", "1970-01-01", "female", "")) // two parts match "ann": listed once
		search := func(q string) []string {
			var pg page
			c.Do("GET", "/api/patients?q="+strings.ReplaceAll(q, " ", "+"), nil).JSON(t, &pg)
			var names []string
			for _, p := range pg.Data {
				names = append(names, p.LastName+" "+p.FirstName)
			}
			return names
		}
		for q, want := range map[string]string{
			"nguyen an":   "Nguyễn Văn An",
			"an ngu":      "Nguyễn Văn An",
			"NGUYỄN VĂN":  "Nguyễn Văn An",
			"елк":         "Ёлкина Анна",
			"ЁЛКИНА ан":   "Ёлкина Анна",
			"小明":          "王 小明",
			"王":           "王 小明",
			an.MRN:        "Nguyễn Văn An",
			"8490123":     "Nguyễn Văn An",
			"+84 90 123":  "Nguyễn Văn An",
			"090 123 45":  "Nguyễn Văn An", // the same phone written at home, with the trunk 0
			"90 123 4567": "Nguyễn Văn An",
			"0084 90 123": "Nguyễn Văn An",
		} {
			got := search(q)
			if q == "+84 90 123" {
				q = "84 90 123"
			}
			if len(got) != 1 || got[0] != want {
				t.Errorf("search %q = %v, want [%s]", q, got, want)
			}
		}
		if got := search("nguyen"); len(got) != 2 {
			t.Errorf("nguyen: %v", got)
		}
		if got := search("ann"); len(got) != 1 {
			t.Errorf("ann: %v (Anne Annandale must appear once, Анна not at all)", got)
		}
		if got := search("zzz"); len(got) != 0 {
			t.Errorf("zzz: %v", got)
		}
		if r := c.Do("GET", "/api/patients?sort=password_hash", nil); r.Status != 422 {
			t.Errorf("unknown sort: %d", r.Status)
		}
		if r := c.Do("GET", "/api/patients?page=0", nil); r.Status != 422 {
			t.Errorf("page 0: %d", r.Status)
		}
	})
}

func TestDuplicatesArchiveRestore(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		p := create(t, c, newPatient("Bình", "Trần", "1975-07-07", "female", "0912 000 111"))
		var dups struct{ Data []patient }
		c.Do("POST", "/api/patients/duplicates", newPatient("binh", "TRAN", "1975-07-07", "female", "")).JSON(t, &dups)
		if len(dups.Data) != 1 || dups.Data[0].ID != p.ID {
			t.Fatalf("same name: %+v", dups.Data)
		}
		c.Do("POST", "/api/patients/duplicates", newPatient("Other", "Person", "2000-01-01", "male", "0912-000-111")).JSON(t, &dups)
		if len(dups.Data) != 1 {
			t.Fatalf("same phone: %+v", dups.Data)
		}
		c.Do("POST", "/api/patients/duplicates", newPatient("Other", "Person", "2000-01-01", "male", "+84 912 000 111")).JSON(t, &dups)
		if len(dups.Data) != 1 {
			t.Fatalf("same phone with its country code: %+v", dups.Data)
		}
		c.Do("POST", "/api/patients/duplicates", newPatient("Bình", "Trần", "1975-07-08", "female", "")).JSON(t, &dups)
		if len(dups.Data) != 0 {
			t.Fatalf("other birth date: %+v", dups.Data)
		}

		path := fmt.Sprintf("/api/patients/%d", p.ID)
		if r := c.Do("POST", path+"/archive", map[string]string{"reason": " "}); r.Status != 422 {
			t.Fatalf("archive without a reason: %d", r.Status)
		}
		if r := c.Do("POST", path+"/archive", map[string]string{"reason": "moved away"}); r.Status != 200 {
			t.Fatalf("archive: %d %s", r.Status, r.Body)
		}
		var pg page
		c.Do("GET", "/api/patients", nil).JSON(t, &pg)
		if pg.Meta.Total != 0 || len(pg.Data) != 0 {
			t.Fatalf("archived patient still listed: %+v", pg)
		}
		c.Do("GET", "/api/patients?archived=1", nil).JSON(t, &pg)
		if pg.Meta.Total != 1 || !pg.Data[0].Archived {
			t.Fatalf("archived list: %+v", pg)
		}
		body := newPatient("Bình", "Trần", "1975-07-07", "female", "")
		body["version"] = 2
		if r := c.Do("PUT", path, body); r.Status != http.StatusConflict {
			t.Fatalf("editing an archived patient: %d", r.Status)
		}
		if r := c.Do("POST", path+"/restore", nil); r.Status != 200 {
			t.Fatalf("restore: %d", r.Status)
		}
		c.Do("GET", "/api/patients", nil).JSON(t, &pg)
		if pg.Meta.Total != 1 {
			t.Fatalf("after restore total %d", pg.Meta.Total)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action IN ('patient.archive', 'patient.restore')`); n != 2 {
			t.Errorf("archive/restore audit events = %d", n)
		}
	})
}

var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

func upload(c *apitest.Client, method, path, name string, data []byte) apitest.Response {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", name)
	fw.Write(data)
	w.Close()
	c.Header.Set("Content-Type", w.FormDataContentType())
	defer c.Header.Del("Content-Type")
	return c.Do(method, path, buf.Bytes())
}

func TestPhotoAndAttachments(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		env, c := setup(t, db)
		p := create(t, c, newPatient("Lan", "Phạm", "1999-09-09", "female", ""))
		base := fmt.Sprintf("/api/patients/%d", p.ID)

		// The type is decided by content: a script named .png is refused.
		if r := upload(c, "PUT", base+"/photo", "face.png", []byte("<script>alert(1)</script>")); r.Status != 422 {
			t.Fatalf("fake png: %d", r.Status)
		}
		if r := upload(c, "PUT", base+"/photo", "face.png", pngBytes); r.Status != 201 {
			t.Fatalf("photo: %d %s", r.Status, r.Body)
		}
		r := c.Do("GET", base+"/photo", nil)
		if r.Status != 200 || r.Header.Get("Content-Type") != "image/png" || r.Header.Get("X-Content-Type-Options") != "nosniff" || !bytes.Equal(r.Body, pngBytes) {
			t.Fatalf("photo download: %d %v", r.Status, r.Header)
		}

		pdf := []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF")
		r = upload(c, "POST", base+"/files", "résultats \"lab\".pdf", pdf)
		if r.Status != 201 {
			t.Fatalf("attachment: %d %s", r.Status, r.Body)
		}
		var f struct {
			ID          int64  `json:"id"`
			ContentType string `json:"content_type"`
		}
		r.JSON(t, &f)
		if f.ContentType != "application/pdf" {
			t.Fatalf("type %s", f.ContentType)
		}
		r = c.Do("GET", fmt.Sprintf("%s/files/%d", base, f.ID), nil)
		if cd := r.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, "filename*=utf-8''r%C3%A9sultats%20%22lab%22.pdf") {
			t.Fatalf("disposition %q", cd)
		}
		if r := upload(c, "POST", base+"/files", "big.pdf", append(pdf, make([]byte, 21<<20)...)); r.Status != 422 {
			t.Fatalf("21 MB attachment: %d", r.Status)
		}

		// A nurse may look but not change.
		nurse := env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
		if r := nurse.Do("GET", fmt.Sprintf("%s/files/%d", base, f.ID), nil); r.Status != 200 {
			t.Fatalf("nurse download: %d", r.Status)
		}
		if r := nurse.Do("DELETE", fmt.Sprintf("%s/files/%d", base, f.ID), nil); r.Status != 403 {
			t.Fatalf("nurse delete: %d", r.Status)
		}
		if r := c.Do("DELETE", fmt.Sprintf("%s/files/%d", base, f.ID), nil); r.Status != 204 {
			t.Fatalf("delete: %d", r.Status)
		}
		var list struct{ Data []any }
		c.Do("GET", base+"/files", nil).JSON(t, &list)
		if len(list.Data) != 0 {
			t.Fatalf("deleted file still listed")
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM patient_files WHERE deleted_at IS NOT NULL`); n != 1 {
			t.Fatalf("the deleted file is not kept: %d", n)
		}
		if n := dbtest.Count(t, db, `SELECT COUNT(*) FROM audit_events WHERE action = 'patient.file.download'`); n != 3 {
			t.Errorf("download audit events = %d", n)
		}
	})
}

func TestSeededPatientsAreSearchable(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		create(t, c, newPatient("First", "Before", "1990-01-01", "male", ""))
		store := &pt.Store{DB: db}
		in := []pt.Input{{FirstName: "Ngọc", LastName: "Huỳnh", Sex: "female", BirthDate: "1980-01-01"}}
		for i := range 1200 {
			in = append(in, pt.Input{FirstName: fmt.Sprint("Bulk", i), LastName: "Seeded", Sex: "male", BirthDate: "1970-01-01"})
		}
		if err := store.BulkInsert(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		after := create(t, c, newPatient("Last", "After", "1990-01-01", "male", ""))
		if !strings.HasSuffix(after.MRN, "-001203") {
			t.Fatalf("the number after the bulk insert is %s", after.MRN)
		}
		var pg page
		c.Do("GET", "/api/patients?q=huynh+ngoc", nil).JSON(t, &pg)
		if len(pg.Data) != 1 || pg.Data[0].LastName != "Huỳnh" {
			t.Fatalf("search: %+v", pg.Data)
		}
		c.Do("GET", "/api/patients?q=seeded&per_page=50&page=2", nil).JSON(t, &pg)
		if pg.Meta.Total != pt.CountCap || pg.Meta.TotalExact || len(pg.Data) != 50 {
			t.Fatalf("capped count: %+v, %d rows", pg.Meta, len(pg.Data))
		}
		c.Do("GET", "/api/patients", nil).JSON(t, &pg)
		if pg.Meta.Total != 1203 {
			t.Fatalf("total %d", pg.Meta.Total)
		}
	})
}

func TestPossibleDuplicateNeedsConfirmation(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		p := create(t, c, newPatient("Bình", "Trần", "1975-07-07", "female", "0912 000 111"))
		// The server refuses a possible duplicate until the registrar confirms a different
		// person from each one seen; the confirmation is audited.
		twin := newPatient("binh", "TRAN", "1975-07-07", "female", "")
		r := c.Do("POST", "/api/patients", twin)
		if _, code, _ := r.Error(t); r.Status != http.StatusConflict || code != "patient.possible_duplicate" {
			t.Fatalf("a possible duplicate: %d %s", r.Status, r.Body)
		}
		twin["distinct_from"] = []int64{p.ID}
		if r := c.Do("POST", "/api/patients", twin); r.Status != http.StatusCreated {
			t.Fatalf("confirmed a different person: %d %s", r.Status, r.Body)
		}
		var detail string
		_ = db.QueryRowContext(context.Background(), `SELECT detail FROM audit_events WHERE action = 'patient.create' AND detail <> '' `).Scan(&detail)
		if got := audit.DetailIn("en", detail); got != fmt.Sprintf("registered as a different person from patients %d", p.ID) {
			t.Errorf("confirmation audited as %q", got)
		}
	})
}

// TestAllergyStatusIsRecordedNotAssumed: an empty list is "not yet asked" unless someone says
// "no known allergies"; contradictions are refused and change nothing; a record from before
// the status existed reads as its list says.
func TestAllergyStatusIsRecordedNotAssumed(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, rec := setup(t, db)
		type history struct {
			AllergyStatus     string `json:"allergy_status"`
			AllergyRecordedBy string `json:"allergy_recorded_by"`
			AllergyRecordedAt string `json:"allergy_recorded_at"`
		}
		status := func(body map[string]any) history {
			t.Helper()
			r := rec.Do("POST", "/api/patients", body)
			if r.Status != http.StatusCreated {
				t.Fatalf("create: %d %s", r.Status, r.Body)
			}
			var p struct{ History history }
			r.JSON(t, &p)
			return p.History
		}
		if h := status(newPatient("Never", "Asked", "1990-01-01", "female", "")); h.AllergyStatus != "unknown" || h.AllergyRecordedBy != "" {
			t.Errorf("nothing said: %+v", h)
		}
		nka := newPatient("No", "Allergies", "1990-01-02", "female", "")
		nka["history"] = map[string]any{"allergy_status": "none"}
		if h := status(nka); h.AllergyStatus != "none" || h.AllergyRecordedBy != "rec" || h.AllergyRecordedAt == "" {
			t.Errorf("NKA: %+v", h)
		}
		listed := newPatient("Has", "Allergies", "1990-01-03", "male", "")
		listed["history"] = map[string]any{"allergies": []any{map[string]any{"substance": "Latex"}}}
		if h := status(listed); h.AllergyStatus != "present" {
			t.Errorf("listed: %+v", h)
		}

		before := dbtest.Count(t, db, "SELECT COUNT(*) FROM patients")
		for body, want := range map[string]string{
			`{"allergy_status": "none", "allergies": [{"substance": "Latex"}]}`: "patient cannot also have no known allergies",
			`{"allergy_status": "present", "allergies": []}`:                    "List at least one allergy",
			`{"allergy_status": "maybe"}`:                                       "",
		} {
			p := newPatient("Bad", "Status", "1990-01-04", "male", "")
			var h map[string]any
			if err := json.Unmarshal([]byte(body), &h); err != nil {
				t.Fatal(err)
			}
			p["history"] = h
			r := rec.Do("POST", "/api/patients", p)
			_, _, fields := r.Error(t)
			if r.Status != http.StatusUnprocessableEntity || len(fields["history.allergy_status"]) == 0 || !strings.Contains(fields["history.allergy_status"][0], want) {
				t.Errorf("%s: %d %v", body, r.Status, fields)
			}
		}
		if n := dbtest.Count(t, db, "SELECT COUNT(*) FROM patients"); n != before {
			t.Errorf("refused patients were stored: %d, not %d", n, before)
		}

		// Records from before the status: a list means listed, none means not asked.
		dbtest.Tamper(t, db, `UPDATE patients SET history = '{"allergies":[{"substance":"Iodine","reaction":"","severity":""}]}' WHERE first_name = 'Has'`)
		dbtest.Tamper(t, db, `UPDATE patients SET history = '{"allergies":[]}' WHERE first_name = 'No'`)
		var list struct {
			Data []struct {
				FirstName string `json:"first_name"`
				ID        int64  `json:"id"`
			}
		}
		rec.Do("GET", "/api/patients?q=Allergies", nil).JSON(t, &list)
		for _, row := range list.Data {
			var p struct{ History history }
			rec.Do("GET", fmt.Sprintf("/api/patients/%d", row.ID), nil).JSON(t, &p)
			if want := map[string]string{"Has": "present", "No": "unknown"}[row.FirstName]; p.History.AllergyStatus != want {
				t.Errorf("%s from before: %q, want %q", row.FirstName, p.History.AllergyStatus, want)
			}
		}
		if len(list.Data) != 2 {
			t.Errorf("found %d", len(list.Data))
		}
	})
}

// A one-word search reads the name index in batches and leaves out repeats (a patient with
// two name parts in the range) and archived patients in Go; when a batch is all repeats and
// archived patients, it reads on. The pages must be the active patients, each once, in order.
func TestOneWordSearchSkipsRepeatsAndArchivedAcrossBatches(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		// 110 archived patients with four name parts in the range "wal" come first in the
		// index (440 rows: the first batch holds only them), then 120 active ones with two.
		var active []int64
		for i := range 230 {
			body := newPatient("Walba", "Walbb", fmt.Sprintf("19%02d-%02d-%02d", 20+i/28, 1+i%12, 1+i%28), "female", "")
			if i < 110 {
				body = newPatient("Walaa Walab", "Walae", fmt.Sprintf("19%02d-%02d-%02d", 20+i/28, 1+i%12, 1+i%28), "female", "")
				body["middle_name"] = "Walad"
			}
			p := create(t, c, body)
			if i < 110 {
				if r := c.Do("POST", fmt.Sprintf("/api/patients/%d/archive", p.ID), map[string]string{"reason": "moved away"}); r.Status != 200 {
					t.Fatalf("archive: %d %s", r.Status, r.Body)
				}
			} else {
				active = append(active, p.ID)
			}
		}
		for _, q := range []string{"wal", "walb+wal"} { // one word: the name index; two: the full-text index
			var got []int64
			for n := 1; n <= 3; n++ {
				var pg page
				c.Do("GET", fmt.Sprintf("/api/patients?q=%s&per_page=50&page=%d", q, n), nil).JSON(t, &pg)
				if pg.Meta.Total != len(active) || !pg.Meta.TotalExact {
					t.Fatalf("%s, page %d: total %d (exact %v), want %d", q, n, pg.Meta.Total, pg.Meta.TotalExact, len(active))
				}
				for _, p := range pg.Data {
					got = append(got, p.ID)
				}
			}
			if !slices.Equal(got, active) {
				t.Fatalf("%s: pages list %v,\nwant the active patients in order %v", q, got, active)
			}
		}
		var none page
		c.Do("GET", "/api/patients?q=walaa+walad", nil).JSON(t, &none)
		if none.Meta.Total != 0 || len(none.Data) != 0 {
			t.Fatalf("archived patients found by two words: %+v", none)
		}
		var pg page
		c.Do("GET", "/api/patients?q=wal&archived=1&per_page=50", nil).JSON(t, &pg)
		if pg.Meta.Total != 110 || len(pg.Data) != 50 || !pg.Data[0].Archived {
			t.Fatalf("archived search: total %d, %d rows", pg.Meta.Total, len(pg.Data))
		}
	})
}

// TestDuplicateCheckReadsABoundedNumberOfRows: on PostgreSQL with the statistics of an empty
// table (as at install, autovacuum off) and then 20,000 patients who all gave the clinic's own
// phone number (a placeholder front desks use), the possible-duplicate check reads a bounded
// number of rows through the name and phone indexes: it neither scans the table nor gathers
// every patient with that phone to sort them, as the one-query OR did.
func TestDuplicateCheckReadsABoundedNumberOfRows(t *testing.T) {
	url := dbtest.PostgresURL(t)
	db := dbtest.Open(t, url)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `ANALYZE patients`); err != nil {
		t.Fatal(err)
	}
	in := make([]pt.Input, 20000)
	for i := range in {
		in[i] = pt.Input{FirstName: fmt.Sprint("Plan", i), LastName: "Stale", Sex: []string{"male", "female"}[i%2], BirthDate: fmt.Sprintf("19%02d-0%d-1%d", 40+i%60, 1+i%9, i%10),
			Phone: "+84 28 3822 0000"}
	}
	if err := (&pt.Store{DB: db}).BulkInsert(ctx, in); err != nil {
		t.Fatal(err)
	}
	var plan string
	if err := db.QueryRowContext(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+pt.DuplicatesQuery, int64(0), pt.NameKey("Plan7", "", "Stale"), "1947-08-17", "male", "842838220000").Scan(&plan); err != nil {
		t.Fatal(err)
	}
	var nodes []struct{ Plan planNode }
	if err := json.Unmarshal([]byte(plan), &nodes); err != nil || len(nodes) != 1 {
		t.Fatalf("%v: %s", err, plan)
	}
	read := 0
	var walk func(n planNode)
	walk = func(n planNode) {
		if n.Relation == "patients" {
			read += n.ActualRows * max(n.ActualLoops, 1)
			if n.NodeType == "Seq Scan" {
				t.Errorf("the table is scanned: %s", plan)
			}
		}
		for _, c := range n.Plans {
			walk(c)
		}
	}
	walk(nodes[0].Plan)
	if read > 200 {
		t.Errorf("the check read %d rows of patients to answer 10:\n%s", read, plan)
	}
	// The last registered, with the same name and birth date, comes first, whoever shares the phone.
	last := in[len(in)-1]
	dups, err := (&pt.Store{DB: db}).Duplicates(ctx, last, 0)
	if err != nil || len(dups) != 10 || dups[0].FirstName != last.FirstName {
		t.Errorf("the same name and birth date among 20,000 with one phone: %v %+v", err, dups)
	}
}

// planNode is a node of PostgreSQL's EXPLAIN (FORMAT JSON).
type planNode struct {
	NodeType    string     `json:"Node Type"`
	Relation    string     `json:"Relation Name"`
	ActualRows  int        `json:"Actual Rows"`
	ActualLoops int        `json:"Actual Loops"`
	Plans       []planNode `json:"Plans"`
}

// TestPageByNameWalksEveryWay: the programs' name search (Page) lists every match once, in
// id order either way, page after page, whichever way it reads the index — a word starting
// one or a few distinct name parts (one walk per part, merged; a patient with two of the
// parts comes once), a word starting more than eight, and two words.
func TestPageByNameWalksEveryWay(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		_, c := setup(t, db)
		store := &pt.Store{DB: db}
		names := map[int64][]string{}
		for i := range 40 {
			first := []string{"Mara", "Marek", "Marta", "Zoe"}[i%4]
			last := fmt.Sprintf("Mar%c%c", 'a'+i%10, 'a'+i%3) // up to 30 distinct parts starting "mar"
			if i%5 == 0 {
				last = "Mara" // a second part in the range: "mara" and "mara"
			}
			p := create(t, c, newPatient(first, last, fmt.Sprintf("19%02d-01-%02d", 50+i, 1+i%28), "female", ""))
			names[p.ID] = []string{strings.ToLower(first), strings.ToLower(last)}
		}
		want := func(words ...string) []int64 {
			var out []int64
			for id, parts := range names {
				ok := true
				for _, w := range words {
					ok = ok && slices.ContainsFunc(parts, func(p string) bool { return strings.HasPrefix(p, w) })
				}
				if ok {
					out = append(out, id)
				}
			}
			slices.Sort(out)
			return out
		}
		for _, words := range [][]string{{"mara"}, {"mare"}, {"marta"}, {"mar"}, {"marta", "mara"}, {"zoe", "marb"}, {"nobody"}} {
			for _, desc := range []bool{false, true} {
				var got []int64
				after := int64(0)
				for range 50 {
					list, _, err := store.Page(context.Background(), pt.Filter{Words: words, After: after, Descending: desc, Limit: 3})
					if err != nil {
						t.Fatal(err)
					}
					for _, p := range list {
						got = append(got, p.ID)
					}
					if len(list) < 3 {
						break
					}
					after = list[len(list)-1].ID
				}
				w := want(words...)
				if desc {
					slices.Reverse(w)
				}
				if !slices.Equal(got, w) {
					t.Errorf("%v (descending %v): %v, want %v", words, desc, got, w)
				}
			}
		}
	})
}
