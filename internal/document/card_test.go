package document_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"emr/internal/apitest"
	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// TestImmunisationCard: a child's card issued on A6 and A5 in each language lists the doses
// that count (given here, by whom; given elsewhere, where) and the next ones due, numbered IC,
// and verifies at /verify/{code}; a dose entered in error is not on it; a bad paper, a bad
// language and a role without either permission are refused.
func TestImmunisationCard(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		ctx := context.Background()
		s := newSetup(t, db)
		birth := time.Now().AddDate(-1, 0, -20)
		child := apitest.Do[struct{ ID int64 }](t, s.front, http.StatusCreated, "POST", "/api/patients", map[string]any{"first_name": "Mai", "last_name": "Lê",
			"birth_date": birth.Format(time.DateOnly), "sex": "female"}).ID
		nurseID := s.env.UserID("nurse")
		now := time.Now().UTC()
		for _, r := range []struct {
			kind, vaccine, on, lot, place, status string
			dose                                  int
			by                                    any
		}{
			{"given", "bcg", birth.AddDate(0, 0, 1).Format(time.DateOnly), "BCG-77A", "", "completed", 1, nurseID},
			{"elsewhere", "hepb_paed", birth.Format(time.DateOnly), "HB-1", "Bệnh viện Nhi Trung ương", "completed", 1, nil},
			{"given", "mmr", birth.AddDate(1, 0, 0).Format(time.DateOnly), "WRONG-LOT", "", "entered_in_error", 1, nurseID},
		} {
			if _, err := db.ExecContext(ctx, `INSERT INTO immunisations (patient_id, kind, status, vaccine, occurred_on, dose_number, lot, place, given_by, source, created_at, updated_at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`, child, r.kind, r.status, r.vaccine, r.on, r.dose, r.lot, r.place, r.by,
				map[bool]string{true: "card", false: ""}[r.kind == "elsewhere"], now); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.ExecContext(ctx, `DELETE FROM immunisation_due WHERE patient_id = $1`, child); err != nil {
			t.Fatal(err)
		}
		// The clinic follows Viet Nam's programme, then WHO's, and stocks the 5-in-1.
		if _, err := db.ExecContext(ctx, `INSERT INTO settings (key, value, updated_at, version) VALUES ('immunisation', $1, $2, 1)`,
			`{"schedules":["vn_epi","who"],"stocked":["dtwp_hepb_hib","ipv"]}`, now); err != nil {
			t.Fatal(err)
		}
		overdue := time.Now().AddDate(0, -1, 0).Format(time.DateOnly) // a dose due a month ago: "now", not a past day
		for _, d := range []struct{ antigen, schedule, due string }{
			{"polio", "vn_epi", overdue},
			{"measles", "who", "2027-01-01"}, {"diphtheria", "vn_epi", "2027-03-01"}, {"tetanus", "vn_epi", "2027-03-01"},
			{"pertussis", "vn_epi", "2027-03-01"}, {"hib", "vn_epi", "2027-03-01"}, {"hepb", "vn_epi", "2027-03-01"},
		} {
			if _, err := db.ExecContext(ctx, `INSERT INTO immunisation_due (patient_id, antigen, dose_number, schedule, earliest_on, due_on, overdue_on)
				VALUES ($1, $2, 2, $3, $4, $4, '2027-06-01')`, child, d.antigen, d.schedule, d.due); err != nil {
				t.Fatal(err)
			}
		}
		// A contraindication and a reaction after the BCG dose: a nurse elsewhere must see them.
		var bcg int64
		if err := db.QueryRowContext(ctx, `SELECT id FROM immunisations WHERE patient_id = $1 AND vaccine = 'bcg'`, child).Scan(&bcg); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO immunisations (patient_id, kind, status, antigen, occurred_on, reason, until_on, source, created_at, updated_at)
			VALUES ($1, 'contraindicated', 'completed', 'rotavirus', $2, 'Intussusception in the past', '', '', $3, $3)`, child, birth.AddDate(0, 2, 0).Format(time.DateOnly), now); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, `INSERT INTO immunisation_reactions (immunisation_id, patient_id, onset_on, reaction, severity, serious, description, created_at)
			VALUES ($1, $2, $3, 'fever', 'moderate', TRUE, '39.1 at night', $4)`, bcg, child, birth.AddDate(0, 0, 2).Format(time.DateOnly), now); err != nil {
			t.Fatal(err)
		}
		path := "/api/patients/" + strconv.FormatInt(child, 10) + "/immunisation-card"
		var first doc
		for i, c := range []struct {
			paper, lang, heading, nextDue string
			more                          []string
		}{
			{"a6-portrait", "en", "Immunisation card", "1\u00a0Jan\u00a02027", []string{"female", "now — due since", "outside the national programme (service vaccine)",
				"DTwP-HepB-Hib vaccine (pentavalent): Diphtheria", "Contraindication to", "Intussusception in the past", "permanent",
				"Reaction after immunisation", "Fever: 39.1 at night", "moderate, serious"}},
			{"a5-portrait", "ru", "Выписка о профилактических прививках", "01.01.2027", []string{"сейчас — срок с", "вне национального календаря", "Пентавалентная вакцина АКДС-ГепB-Hib: ", "Медотвод", "Повышение температуры"}},
			{"a6-portrait", "zh", "预防接种记录", "2027年1月1日", []string{"起应种", "非免疫规划疫苗（自费）", "接种禁忌", "发热"}},
			{"a6-portrait", "vi", "Phiếu tiêm chủng", "01/01/2027", []string{"đến hạn từ", "ngoài TCMR (tiêm dịch vụ)", "Vắc xin 5 trong 1 DPT-VGB-Hib: ", "Chống chỉ định", "Sốt"}},
		} {
			d := apitest.Do[doc](t, s.nurse, http.StatusCreated, "POST", path, map[string]any{"paper": c.paper, "language": c.lang})
			body := text(d.Content)
			if d.Kind != "immunisation_card" || !strings.HasPrefix(d.Number, "IC-") || !strings.HasSuffix(d.Number, strconv.Itoa(i+1)) {
				t.Fatalf("%s: %s %s", c.lang, d.Kind, d.Number)
			}
			for _, want := range append([]string{c.heading, "BCG-77A", "Test nurse", "HB-1", "Bệnh viện Nhi Trung ương", c.nextDue}, c.more...) {
				if !strings.Contains(body, want) {
					t.Errorf("%s card lacks %q:\n%s", c.lang, want, body)
				}
			}
			// The five antigens the 5-in-1 gives are one line, not five.
			if n := strings.Count(body, c.nextDue); n != 1 {
				t.Errorf("%s card: the next dose day %q %d times", c.lang, c.nextDue, n)
			}
			if strings.Contains(body, "WRONG-LOT") {
				t.Errorf("%s card lists a dose entered in error:\n%s", c.lang, body)
			}
			if i == 0 {
				first = d
			}
		}
		visitor := s.env.Client()
		page := visitor.Do("GET", "/verify/"+first.Code, nil)
		// A nurse issued it: the page says who issued it, not "Doctor".
		if html := string(page.Body); page.Status != http.StatusOK || !strings.Contains(html, first.Number) || !strings.Contains(html, first.ContentHash) || strings.Contains(html, "BCG-77A") ||
			!strings.Contains(html, "Issued by") || strings.Contains(html, ">Doctor<") {
			t.Fatalf("verify: %d %s", page.Status, html)
		}
		for _, c := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"paper": "a4-landscape", "language": "en"}, "paper"},
			{map[string]any{"paper": "a6-portrait", "language": "fr"}, "language"},
		} {
			r := s.nurse.Do("POST", path, c.body)
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || fields[c.field] == nil {
				t.Errorf("%v: %d %s", c.body, r.Status, r.Body)
			}
		}
		if r := s.front.Do("POST", path, map[string]any{"paper": "a6-portrait", "language": "en"}); r.Status != http.StatusForbidden {
			t.Errorf("the desk: %d", r.Status)
		}
	})
}
