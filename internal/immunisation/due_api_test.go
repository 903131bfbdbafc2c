package immunisation_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"io"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/config"
	"emr/internal/database"
	"emr/internal/database/dbtest"
	"emr/internal/immunisation"
	"emr/internal/mail"
	"emr/internal/mail/mailtest"
)

type dueItem struct {
	PatientID      int64   `json:"patient_id"`
	Name           string  `json:"name"`
	AgeBand        string  `json:"age_band"`
	Antigen        string  `json:"antigen"`
	DoseNumber     int     `json:"dose_number"`
	DueOn          string  `json:"due_on"`
	Status         string  `json:"status"`
	LastRemindedAt *string `json:"last_reminded_at"`
	Contact        struct {
		Phone string `json:"phone"`
		Email string `json:"email"`
	} `json:"contact"`
}

type duePage struct {
	Items  []dueItem `json:"items"`
	Next   *string   `json:"next"`
	Counts *struct {
		Due     int `json:"due"`
		Overdue int `json:"overdue"`
	} `json:"counts"`
}

type remindResult struct {
	Queued  int `json:"queued"`
	Skipped []struct {
		PatientID int64  `json:"patient_id"`
		Reason    string `json:"reason"`
	} `json:"skipped"`
}

// withSenders is the test configuration with a mail server and an SMS gateway configured (the
// test sends through its own outbox, to its own sinks).
func dueSenders() config.Config {
	cfg := apitest.Config()
	cfg.SMTPURL, cfg.SMTPFrom = "smtp://127.0.0.1:1", "emr@clinic.test"
	cfg.SMSURL = "http://127.0.0.1:1/sms"
	return cfg
}

// day is today moved by days, as the list reads dates.
func dueDay(days int) string { return time.Now().UTC().AddDate(0, 0, days).Format(time.DateOnly) }

func bornAgo(years, days int) string {
	return time.Now().UTC().AddDate(-years, 0, -days).Format(time.DateOnly)
}

// fixture is a clinic with a desk, a nurse and children whose due rows are set by the test
// (the rows the forecast writes; the forecast's own cases are the catalogue's).
type dueFixture struct {
	env   *apitest.Env
	admin *apitest.Client
	rec   *apitest.Client
	nurse *apitest.Client
	doc   *apitest.Client
}

func newDueFixture(t *testing.T, db *database.DB) *dueFixture {
	env := apitest.NewWith(t, db, dueSenders())
	f := &dueFixture{env: env}
	f.admin = env.LoggedIn("admin", env.CreateUser("admin", "admin"))
	f.rec = env.LoggedIn("rec", env.CreateUser("rec", "receptionist"))
	f.nurse = env.LoggedIn("nurse", env.CreateUser("nurse", "nurse"))
	f.doc = env.LoggedIn("doc", env.CreateUser("doc", "doctor"))
	if r := f.admin.Do("PUT", "/api/settings/clinic", map[string]any{"name": "Sunrise Clinic", "phone": "+7 495 000-00-00", "version": 0}); r.Status != http.StatusOK {
		t.Fatalf("clinic: %d %s", r.Status, r.Body)
	}
	return f
}

func (f *dueFixture) child(t *testing.T, first, birth string, fields map[string]any) int64 {
	t.Helper()
	body := map[string]any{"first_name": first, "last_name": "Child", "birth_date": birth, "sex": "female"}
	for k, v := range fields {
		body[k] = v
	}
	var p struct{ ID int64 }
	r := f.rec.Do("POST", "/api/patients", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("patient %s: %d %s", first, r.Status, r.Body)
	}
	r.JSON(t, &p)
	return p.ID
}

// due sets a child's due rows: antigen, dose, due day and overdue day.
func (f *dueFixture) due(t *testing.T, id int64, rows ...[4]any) {
	t.Helper()
	ctx := context.Background()
	if _, err := f.env.DB.ExecContext(ctx, `DELETE FROM immunisation_due WHERE patient_id = $1`, id); err != nil {
		t.Fatal(err)
	}
	var birth string
	var archived bool
	if err := f.env.DB.QueryRowContext(ctx, `SELECT birth_date, archived_at IS NOT NULL FROM patients WHERE id = $1`, id).Scan(&birth, &archived); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if _, err := f.env.DB.ExecContext(ctx, `INSERT INTO immunisation_due (patient_id, antigen, dose_number, schedule, earliest_on, due_on, overdue_on, birth_date, archived)
			VALUES ($1, $2, $3, 'who', $4, $4, $5, $6, $7)`, id, r[0], r[1], r[2], r[3], birth, archived); err != nil {
			t.Fatal(err)
		}
	}
}

func (f *dueFixture) list(t *testing.T, c *apitest.Client, query string) duePage {
	t.Helper()
	return apitest.Do[duePage](t, c, http.StatusOK, "GET", "/api/immunisation/due?"+query, nil)
}

func saveDueSettings(t *testing.T, db *database.DB, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, `DELETE FROM settings WHERE key = 'immunisation'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at, version) VALUES ('immunisation', $1, $2, 1)`, string(b), time.Now().UTC()); err != nil {
		t.Fatal(err)
	}
}

// TestDueList: the clinic's due list by status, antigen and age band, in pages by key, with
// the counts; archived patients and adults left out; bad filters refused in words.
func TestDueList(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		f := newDueFixture(t, db)
		baby := f.child(t, "Baby", bornAgo(0, 100), map[string]any{"phone": "+7 916 000-00-01"})
		toddler := f.child(t, "Toddler", bornAgo(1, 30), nil)
		school := f.child(t, "School", bornAgo(7, 0), map[string]any{"email": "parent@example.test"})
		gone := f.child(t, "Gone", bornAgo(0, 200), nil)
		adult := f.child(t, "Adult", bornAgo(30, 0), nil)
		f.due(t, baby, [4]any{"measles", 1, dueDay(-3), dueDay(20)}, [4]any{"polio", 3, dueDay(-40), dueDay(-10)}, [4]any{"hepb", 3, dueDay(30), dueDay(60)})
		f.due(t, toddler, [4]any{"measles", 2, dueDay(-1), dueDay(29)})
		f.due(t, school, [4]any{"diphtheria", 4, dueDay(-400), dueDay(-300)})
		f.due(t, gone, [4]any{"measles", 1, dueDay(-5), dueDay(25)})
		f.due(t, adult, [4]any{"diphtheria", 5, dueDay(-5), dueDay(25)})
		if r := f.rec.Do("POST", "/api/patients/"+dueItoa(gone)+"/archive", map[string]any{"reason": "Deceased"}); r.Status != http.StatusOK {
			t.Fatalf("archive: %d %s", r.Status, r.Body)
		}

		all := f.list(t, f.nurse, "status=all")
		var got []string
		for _, it := range all.Items {
			got = append(got, it.Antigen+"@"+it.Name)
		}
		want := []string{"diphtheria@School Child", "polio@Baby Child", "measles@Baby Child", "measles@Toddler Child"}
		if !slices.Equal(got, want) || all.Counts.Due != 2 || all.Counts.Overdue != 2 || all.Next != nil {
			t.Fatalf("all: %v counts %+v", got, all.Counts)
		}
		if it := all.Items[0]; it.Status != "overdue" || it.AgeBand != "6-18y" || it.Contact.Email != "parent@example.test" || it.LastRemindedAt != nil {
			t.Fatalf("school child: %+v", it)
		}
		if it := all.Items[2]; it.Status != "due" || it.AgeBand != "0-1y" || it.DoseNumber != 1 || it.Contact.Phone == "" {
			t.Fatalf("baby: %+v", it)
		}
		for _, c := range []struct {
			query string
			want  int
		}{
			{"status=due", 2},
			{"status=overdue", 2},
			{"status=all&antigen=measles", 2},
			{"status=all&band=0-1y", 2},
			{"status=all&band=1-2y", 1},
			{"status=all&band=2-6y", 0},
			{"status=due&band=6-18y", 0},
			{"status=all&before=" + dueDay(35), 5}, // and what falls due within 35 days
		} {
			if p := f.list(t, f.rec, c.query); len(p.Items) != c.want {
				t.Errorf("%s: %d rows, want %d (%+v)", c.query, len(p.Items), c.want, p.Items)
			}
		}
		// Pages by key: two, then two, then none left.
		first := f.list(t, f.nurse, "limit=2")
		if len(first.Items) != 2 || first.Next == nil {
			t.Fatalf("first page: %+v", first)
		}
		second := f.list(t, f.nurse, "limit=2&after_id="+url.QueryEscape(*first.Next))
		if len(second.Items) != 2 || second.Next != nil || second.Counts != nil || second.Items[0].Antigen != "measles" || second.Items[1].Name != "Toddler Child" {
			t.Fatalf("second page: %+v", second)
		}

		for _, c := range []struct{ query, field string }{
			{"status=soon", "status"}, {"band=3-4y", "band"}, {"before=tomorrow", "before"}, {"limit=1000", "limit"}, {"after_id=x", "after_id"},
		} {
			r := f.nurse.Do("GET", "/api/immunisation/due?"+c.query, nil)
			msg, _, fields := r.Error(t)
			if r.Status != http.StatusUnprocessableEntity || fields[c.field] == nil || msg == "" {
				t.Errorf("%s: %d %s", c.query, r.Status, r.Body)
			}
		}
		// Russian for a Russian reader.
		ru := f.env.Client()
		ru.Header.Set("Accept-Language", "ru")
		ru.Login("nurse", "lantern orchard 7 glacier 5")
		r := ru.Do("GET", "/api/immunisation/due?status=soon", nil)
		if msg, _, _ := r.Error(t); !strings.ContainsAny(msg, "абвгдеёжзийклмнопрстуфхцчшщыэюя") {
			t.Errorf("in Russian: %s", r.Body)
		}
	})
}

func dueItoa(id int64) string { b, _ := json.Marshal(id); return string(b) }

// smsSink is a local SMS gateway that records the texts it got.
type dueSMSSink struct {
	mu    sync.Mutex
	texts []map[string]string
}

func (s *dueSMSSink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body map[string]string
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &body)
	s.mu.Lock()
	s.texts = append(s.texts, body)
	s.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
}

func (s *dueSMSSink) got() []map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]string(nil), s.texts...)
}

func dueDecodeQP(data string) string {
	_, body, _ := strings.Cut(strings.ReplaceAll(data, "\r\n", "\n"), "\n\n")
	b, err := io.ReadAll(quotedprintable.NewReader(strings.NewReader(body)))
	if err != nil {
		return data
	}
	return string(b)
}

// TestDueReminders: the desk reminds the families of the children it selected, by each
// family's channel and language (the child's record, else a guardian on the portal), through
// a real SMTP server and a local SMS gateway; a dose is never reminded of twice, by hand or by
// the daily pass; a mail server that is down loses nothing.
func TestDueReminders(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		f := newDueFixture(t, db)
		byMail := f.child(t, "Mila", bornAgo(1, 10), map[string]any{"email": "mila.parent@example.test", "message_language": "ru"})
		bySMS := f.child(t, "Tam", bornAgo(0, 120), map[string]any{"phone": "+7 916 555-12-34", "reminders": "sms"})
		guarded := f.child(t, "Guard", bornAgo(2, 0), nil)
		nobody := f.child(t, "Nobody", bornAgo(3, 0), nil)
		later := f.child(t, "Later", bornAgo(0, 50), map[string]any{"email": "later@example.test"})
		f.due(t, byMail, [4]any{"measles", 2, dueDay(-2), dueDay(28)}, [4]any{"mumps", 2, dueDay(-2), dueDay(28)})
		f.due(t, bySMS, [4]any{"polio", 2, dueDay(-30), dueDay(-1)})
		f.due(t, guarded, [4]any{"diphtheria", 4, dueDay(-1), dueDay(29)})
		f.due(t, nobody, [4]any{"diphtheria", 4, dueDay(-1), dueDay(29)})
		f.due(t, later, [4]any{"hepb", 3, dueDay(3), dueDay(30)}) // within the 7 days before
		if _, err := db.ExecContext(ctx, `INSERT INTO portal_guardians (patient_id, channel, address, created_at) VALUES ($1, 'email', 'guardian@example.test', $2)`,
			guarded, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}

		// The clinic reminds by SMS and e-mail (the automatic pass off for now).
		saveDueSettings(t, db, map[string]any{"schedules": []string{"who"}, "stocked": []string{}, "reminders": map[string]any{"on": false, "days_before": 7, "channels": []string{"sms", "email"}}})
		// The nurse may not send messages; the desk may.
		if r := f.nurse.Do("POST", "/api/immunisation/due/remind", map[string]any{"patient_ids": []int64{byMail}}); r.Status != http.StatusForbidden {
			t.Fatalf("nurse: %d", r.Status)
		}
		if r := f.rec.Do("POST", "/api/immunisation/due/remind", map[string]any{"patient_ids": []int64{}}); r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("none selected: %d", r.Status)
		}
		res := apitest.Do[remindResult](t, f.rec, http.StatusOK, "POST", "/api/immunisation/due/remind",
			map[string]any{"patient_ids": []int64{byMail, bySMS, guarded, nobody, later, 999999}})
		reasons := map[int64]string{}
		for _, s := range res.Skipped {
			reasons[s.PatientID] = s.Reason
		}
		if res.Queued != 4 || reasons[nobody] != immunisation.SkipNoContact || reasons[999999] != immunisation.SkipNotFound || len(reasons) != 2 {
			t.Fatalf("remind: %+v", res)
		}
		// A family that chose no messages on a record it could be reached at is not written to,
		// nor are the child's guardians (attacker's review: the guardian's link went around it).
		optedOut := f.child(t, "Quiet", bornAgo(2, 0), map[string]any{"email": "quiet.parent@example.test", "reminders": "none"})
		f.due(t, optedOut, [4]any{"diphtheria", 4, dueDay(-1), dueDay(29)})
		if _, err := db.ExecContext(ctx, `INSERT INTO portal_guardians (patient_id, channel, address, created_at) VALUES ($1, 'email', 'quiet.guardian@example.test', $2)`,
			optedOut, time.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		quiet := apitest.Do[remindResult](t, f.rec, http.StatusOK, "POST", "/api/immunisation/due/remind", map[string]any{"patient_ids": []int64{optedOut}})
		if quiet.Queued != 0 || len(quiet.Skipped) != 1 || quiet.Skipped[0].Reason != immunisation.SkipNoContact {
			t.Fatalf("a family that chose no messages: %+v", quiet)
		}
		again := apitest.Do[remindResult](t, f.rec, http.StatusOK, "POST", "/api/immunisation/due/remind", map[string]any{"patient_ids": []int64{byMail, bySMS}})
		if again.Queued != 0 || len(again.Skipped) != 2 || again.Skipped[0].Reason != immunisation.SkipAlreadyReminded {
			t.Fatalf("again: %+v", again)
		}
		if p := f.list(t, f.rec, "status=all&antigen=measles"); len(p.Items) != 1 || p.Items[0].LastRemindedAt == nil {
			t.Fatalf("last reminded: %+v", p.Items)
		}

		// The mail server is down at first: nothing is lost, and it goes once it is up.
		smtp := mailtest.Reserve(t)
		sink := &dueSMSSink{}
		gatewaySrv := httptest.NewServer(sink)
		defer gatewaySrv.Close()
		gateway, _ := mail.ParseSMS(gatewaySrv.URL)
		clock := time.Now()
		box := &mail.Outbox{DB: db, Server: smtp.Client(mailtest.Password), SMS: gateway, Domain: "clinic.test", Now: func() time.Time { return clock }}
		if n, _ := box.SendDue(ctx); n != 1 { // the text goes; the e-mails wait
			t.Fatalf("sent %d with the mail server down", n)
		}
		smtp.Up()
		clock = clock.Add(mail.MaxRetry)
		if n, err := box.SendDue(ctx); n != 3 || err != nil {
			t.Fatalf("sent %d once up: %v", n, err)
		}
		if n, _ := box.SendDue(ctx); n != 0 {
			t.Fatalf("sent %d again", n)
		}
		texts := sink.got()
		if len(texts) != 1 || !strings.Contains(texts[0]["text"], "Tam") {
			t.Fatalf("texts: %+v", texts)
		}
		mails := map[string]string{}
		for _, m := range smtp.Messages() {
			mails[m.To[0]] = dueDecodeQP(m.Data)
		}
		if len(mails) != 3 || mails["guardian@example.test"] == "" {
			t.Fatalf("mails to %v", slices.Collect(func(yield func(string) bool) {
				for k := range mails {
					if !yield(k) {
						return
					}
				}
			}))
		}
		ru := mails["mila.parent@example.test"]
		if !strings.Contains(ru, "Mila") || !strings.Contains(ru, "ребёнку (Mila) пора сделать прививки") || !strings.Contains(ru, "+7 495 000-00-00") || !strings.Contains(ru, "Sunrise Clinic") {
			t.Fatalf("Russian reminder: %s", ru)
		}

		// The daily pass: on, it writes what is due and not yet reminded of, once.
		f.due(t, nobody, [4]any{"diphtheria", 4, dueDay(-1), dueDay(29)})
		newcomer := f.child(t, "New", bornAgo(0, 70), map[string]any{"email": "new@example.test"})
		f.due(t, newcomer, [4]any{"rotavirus", 2, dueDay(-1), dueDay(29)}, [4]any{"polio", 2, dueDay(40), dueDay(70)})
		reminders := &immunisation.DueService{DB: db, Loc: time.UTC}
		if n, err := reminders.Pass(ctx); n != 0 || err != nil {
			t.Fatalf("pass while off: %d %v", n, err)
		}
		saveDueSettings(t, db, map[string]any{"schedules": []string{"who"}, "stocked": []string{}, "reminders": map[string]any{"on": true, "days_before": 7, "channels": []string{"sms", "email"}}})
		dueQuietFree(t, f)
		if n, err := reminders.Pass(ctx); n != 1 || err != nil {
			t.Fatalf("pass: %d %v", n, err)
		}
		if n, err := reminders.Pass(ctx); n != 0 || err != nil {
			t.Fatalf("second pass: %d %v", n, err)
		}
		var count int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM mail_outbox WHERE topic = $1`, immunisation.TopicDue).Scan(&count); err != nil || count != 5 {
			t.Fatalf("outbox: %d %v", count, err)
		}
	})
}

// quietFree sets the clinic's quiet hours to none, so that the pass runs at any hour.
func dueQuietFree(t *testing.T, f *dueFixture) {
	t.Helper()
	var set map[string]any
	f.admin.Do("GET", "/api/settings/patient-messages", nil).JSON(t, &set)
	set["quiet_start"], set["quiet_end"] = "00:00", "00:00"
	if r := f.admin.Do("PUT", "/api/settings/patient-messages", set); r.Status != http.StatusOK {
		t.Fatalf("quiet hours: %d %s", r.Status, r.Body)
	}
}

// TestRefreshDue: a child's due rows are the forecast's first open recommendation per
// antigen, rebuilt on registration, on a new birth date, and for everyone when asked.
func TestRefreshDue(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		f := newDueFixture(t, db)
		id := f.child(t, "Forecast", bornAgo(0, 75), nil)
		check := func(birth string) {
			t.Helper()
			fc := immunisation.Default().Forecast(immunisation.DefaultSettings().Schedules, immunisation.Child{BirthDate: birth, Sex: "female"}, []immunisation.Dose{}, []immunisation.Exclusion{}, dueDay(0))
			want := map[string]string{}
			for _, r := range fc.Recommendations {
				if _, seen := want[r.Antigen]; !seen && r.DueOn != "" && (r.Status == "upcoming" || r.Status == "due" || r.Status == "overdue") {
					want[r.Antigen] = r.DueOn
				}
			}
			rows, err := db.QueryContext(ctx, `SELECT antigen, due_on FROM immunisation_due WHERE patient_id = $1`, id)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			got := map[string]string{}
			for rows.Next() {
				var a, d string
				if err := rows.Scan(&a, &d); err != nil {
					t.Fatal(err)
				}
				got[a] = d
			}
			if len(got) != len(want) {
				t.Fatalf("due rows %v, the forecast says %v", got, want)
			}
			for a, d := range want {
				if got[a] != d {
					t.Fatalf("due rows %v, the forecast says %v", got, want)
				}
			}
		}
		check(bornAgo(0, 75))
		var p map[string]any
		f.rec.Do("GET", "/api/patients/"+dueItoa(id), nil).JSON(t, &p)
		p["birth_date"] = bornAgo(1, 0)
		if r := f.rec.Do("PUT", "/api/patients/"+dueItoa(id), p); r.Status != http.StatusOK {
			t.Fatalf("new birth date: %d %s", r.Status, r.Body)
		}
		check(bornAgo(1, 0))

		// A stale row, then a rebuild of everyone: the forecast's rows again, the request gone.
		f.due(t, id, [4]any{"stale", 1, dueDay(0), dueDay(1)})
		if err := db.Tx(ctx, func(tx *sql.Tx) error { return immunisation.RequestRefreshAll(ctx, tx, time.Now()) }); err != nil {
			t.Fatal(err)
		}
		if n, err := immunisation.RefreshAll(ctx, db); err != nil || n < 1 {
			t.Fatalf("rebuild: %d %v", n, err)
		}
		check(bornAgo(1, 0))
		var pending int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM immunisation_due_rebuild`).Scan(&pending); err != nil || pending != 0 {
			t.Fatalf("rebuild left: %d %v", pending, err)
		}
		if n, err := immunisation.RefreshAll(ctx, db); err != nil || n != 0 {
			t.Fatalf("nothing asked: %d %v", n, err)
		}

		// The rows carry what the list filters on: the birth date, and whether archived —
		// following an archiving and a restoring.
		flags := func(want bool) {
			t.Helper()
			var n int
			if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM immunisation_due WHERE patient_id = $1 AND birth_date = $2 AND archived = $3`,
				id, bornAgo(1, 0), want).Scan(&n); err != nil || n == 0 {
				t.Fatalf("rows archived %v with the birth date: %d %v", want, n, err)
			}
			if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM immunisation_due WHERE patient_id = $1 AND (birth_date <> $2 OR archived <> $3)`,
				id, bornAgo(1, 0), want).Scan(&n); err != nil || n != 0 {
				t.Fatalf("rows not following: %d %v", n, err)
			}
		}
		flags(false)
		if r := f.rec.Do("POST", "/api/patients/"+dueItoa(id)+"/archive", map[string]any{"reason": "Moved away"}); r.Status != http.StatusOK {
			t.Fatalf("archive: %d %s", r.Status, r.Body)
		}
		flags(true)
		if r := f.rec.Do("POST", "/api/patients/"+dueItoa(id)+"/restore", nil); r.Status != http.StatusOK {
			t.Fatalf("restore: %d %s", r.Status, r.Body)
		}
		flags(false)
		check(bornAgo(1, 0))
	})
}

// TestScheduleChangeRebuildsEveryChild: a change of the clinic's schedules rebuilds the due
// rows of every child, also of one who had none (not only of those who had rows).
func TestScheduleChangeRebuildsEveryChild(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		f := newDueFixture(t, db)
		id := f.child(t, "Rowless", bornAgo(0, 75), nil)
		if _, err := db.ExecContext(ctx, `DELETE FROM immunisation_due WHERE patient_id = $1`, id); err != nil {
			t.Fatal(err)
		}
		var set map[string]any
		f.admin.Do("GET", "/api/immunisation/settings", nil).JSON(t, &set)
		set["schedules"] = []string{"ru_nc"}
		if r := f.admin.Do("PUT", "/api/immunisation/settings", set); r.Status != http.StatusOK {
			t.Fatalf("save: %d %s", r.Status, r.Body)
		}
		// The save answers at once; the rebuild goes on after it, in the background: wait for
		// it to end (the request row gone), then for the child's rows.
		var n int
		for deadline := time.Now().Add(time.Minute); ; {
			if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM immunisation_due_rebuild`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the rebuild has not ended in a minute")
			}
			time.Sleep(20 * time.Millisecond) // polling the condition
		}
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM immunisation_due WHERE patient_id = $1 AND schedule = 'ru_nc'`, id).Scan(&n); err != nil || n == 0 {
			t.Fatalf("the child's rows under the new schedule: %d %v", n, err)
		}
	})
}
