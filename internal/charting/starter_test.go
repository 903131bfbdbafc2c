package charting_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"emr/internal/database"
	"emr/internal/database/dbtest"
)

// starterLine is what a starter set's prescription line must say, in every language.
type starterLine struct {
	medicine string            // the English label's beginning
	dose     map[string]string // by language
	duration map[string]string // by language
	quantity string            // "" for none
}

// starterCase is what a starter order set must hold, in every language, and where it comes
// from. The sets are examples a clinic reviews before use; these are the facts they must not
// lose in a translation or an edit of the code.
type starterCase struct {
	names    map[string]string // the set's name in each language, its age scope in it
	codes    []string          // diagnoses, the first primary
	tests    []string
	lines    []starterLine
	checks   int    // questions the doctor ticks; none is ticked in the set
	followUp int    // days
	planHas  string // in English
	source   string
}

func langs(en, ru, zh, vi string) map[string]string {
	return map[string]string{"en": en, "ru": ru, "zh": zh, "vi": vi}
}

var starterCases = []starterCase{
	{langs("Hypertension — follow-up (adult)", "Артериальная гипертензия — контрольный визит (взрослые)", "高血压复诊（成人）", "Tăng huyết áp — tái khám (người lớn)"),
		[]string{"I10"}, []string{"BMP", "LIPID", "UACR"}, nil, 2, 28, "from 80 years, below 150/90",
		"ESH 2023 (target below 130/80 if tolerated; a two-drug single-pill combination when one medicine does not reach it); NICE NG136 (below 150/90 from 80 years; urine ACR, electrolytes, creatinine, lipids and a 12-lead ECG); stroke signs for return as in the translations review S4. No line: a follow-up continues the patient's current medicines rather than restarting one"},
	{langs("Type 2 diabetes — review (adult)", "Сахарный диабет 2 типа — плановый осмотр (взрослые)", "2型糖尿病复查（成人）", "Đái tháo đường típ 2 — tái khám (người lớn)"),
		[]string{"E11.9"}, []string{"HBA1C", "CREA", "UACR", "LIPID"}, nil, 5, 90, "present doses",
		"ADA Standards of Care 2025 §6 (HbA1c), §9 (metformin: B12 on long-term use), §10 (statin at 40–75 years), §11 and KDIGO 2022 (UACR and eGFR yearly), §12 (feet, eyes); FDA 2016 and KDIGO 2022 (metformin not started at eGFR 30–44, stopped below 30). No metformin line: a review continues the current dose, decided by the doctor"},
	{langs("Upper respiratory infection (adult)", "Острая инфекция верхних дыхательных путей (взрослые)", "上呼吸道感染（成人）", "Nhiễm trùng hô hấp trên (người lớn)"),
		[]string{"J06.9"}, nil, []starterLine{{"Paracetamol 500 mg", langs("1–2 tablets", "1–2 таблетки", "1–2片", "1–2 viên"), langs("5 days", "5 дней", "5天", "5 ngày"), "20"}}, 0, 0, "no antibiotic",
		"NICE NG120/CG69: self-limiting respiratory infections need no antibiotic; paracetamol 0.5–1 g every 4–6 hours, at most 4 g in 24 hours (BNF)"},
	{langs("Upper respiratory infection (child)", "Острая инфекция верхних дыхательных путей (дети)", "上呼吸道感染（儿童）", "Nhiễm trùng hô hấp trên (trẻ em)"),
		[]string{"J06.9"}, nil, []starterLine{{"Paracetamol 120 mg/5 mL", langs("15 mg/kg (max 1000 mg)", "15 мг/кг (не более 1000 мг)", "15 mg/kg（最多1000 mg）", "15 mg/kg (tối đa 1000 mg)"), langs("3 days", "3 дня", "3天", "3 ngày"), "100"}}, 3, 0, "no antibiotic",
		"BNFc and WHO Pocket Book of Hospital Care for Children 2013: paracetamol 15 mg/kg a dose every 6 hours, at most 4 doses (60 mg/kg) in 24 hours; WHO IMCI 2014 general danger signs; NICE NG143 (fever under 3 months is assessed, not treated at home)"},
	{langs("Acute cystitis, non-pregnant woman under 65 (adult)", "Острый цистит у небеременной женщины до 65 лет (взрослые)", "非妊娠女性急性膀胱炎，65岁以下（成人）", "Viêm bàng quang cấp ở phụ nữ không mang thai dưới 65 tuổi (người lớn)"),
		[]string{"N30.0"}, []string{"UA"}, []starterLine{{"Nitrofurantoin 100 mg modified-release capsule", langs("1 capsule", "1 капсула", "1粒", "1 viên"), langs("3 days", "3 дня", "3天", "3 ngày"), "6"}}, 3, 0, "urine culture is then sent",
		"NICE NG109 (2018): nitrofurantoin 100 mg modified-release twice daily for 3 days in non-pregnant women, if eGFR 45 or more; urine culture only over 65, in pregnancy, in men, on recurrence or treatment failure; ICD-10 N30.0 acute cystitis"},
	{langs("Gastroenteritis with mild dehydration (adult)", "Гастроэнтерит с лёгким обезвоживанием (взрослые)", "胃肠炎伴轻度脱水（成人）", "Viêm dạ dày ruột kèm mất nước nhẹ (người lớn)"),
		[]string{"A09", "E86"}, nil, []starterLine{{"Oral rehydration salts", langs("200–400 mL", "200–400 мл", "200–400 mL", "200–400 ml"), langs("3 days", "3 дня", "3天", "3 ngày"), ""}}, 0, 0, "Oral rehydration",
		"BNF oral rehydration salts (adult: 200–400 mL after every loose stool), a volume because sachets make 200 mL to 1 L by country (translations review S1); WHO, The treatment of diarrhoea (2005): danger signs for return"},
	{langs("Acute diarrhoea without dehydration, WHO plan A (child)", "Острая диарея без обезвоживания, план А ВОЗ (дети)", "急性腹泻无脱水，WHO方案A（儿童）", "Tiêu chảy cấp không mất nước, phác đồ A của WHO (trẻ em)"),
		[]string{"A09"}, nil, []starterLine{
			{"Oral rehydration salts", langs("under 2 years: 50–100 mL; 2–10 years: 100–200 mL; older: as much as wanted", "до 2 лет — 50–100 мл; 2–10 лет — 100–200 мл; старше — сколько захочет", "2岁以下50–100 mL；2–10岁100–200 mL；更大儿童按需饮用", "dưới 2 tuổi: 50–100 ml; 2–10 tuổi: 100–200 ml; lớn hơn: uống theo nhu cầu"),
				langs("until the diarrhoea stops", "до прекращения диареи", "至腹泻停止", "đến khi hết tiêu chảy"), ""},
			{"Zinc sulfate 20 mg dispersible tablet", langs("under 6 months: ½ tablet (10 mg); 6 months and older: 1 tablet (20 mg)", "до 6 месяцев — ½ таблетки (10 мг); с 6 месяцев — 1 таблетка (20 мг)", "6个月以下半片（10 mg）；6个月及以上1片（20 mg）", "dưới 6 tháng: ½ viên (10 mg); từ 6 tháng: 1 viên (20 mg)"),
				langs("10 days", "10 дней", "10天", "10 ngày"), "10"}},
		2, 0, "zinc for 10 days",
		"WHO, The treatment of diarrhoea (2005), plan A: ORS after each loose stool, 50–100 mL under 2 years, 100–200 mL at 2–10 years, as much as wanted when older; WHO/UNICEF joint statement 2004: zinc 10 mg a day under 6 months, 20 mg from 6 months, for 10–14 days"},
}

// findings are the words of a finding written as if made; a set's plan must hold none (the
// translations review S3, results review M12).
var findings = []string{"checked", "examined", "reviewed", "проверено", "осмотр стоп", "обсуждены", "已确认", "已检查", "已复核", "đã kiểm tra", "đã khám", "đã xem lại"}

// TestStarterSetsHoldTheirCases: each starter set, in each of the four languages, is named
// with its age scope and holds the diagnoses, tests, lines (dose, duration, quantity),
// unticked checks, follow-up and plan its case names (table above, each with its source); no
// plan records a finding, and each is marked as an example.
func TestStarterSetsHoldTheirCases(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		var tests struct{ Data []struct{ Code string } }
		c.doctor.Do("GET", "/api/lab-tests", nil).JSON(t, &tests)
		hasUACR := slices.ContainsFunc(tests.Data, func(x struct{ Code string }) bool { return x.Code == "UACR" })
		for _, lang := range []string{"en", "ru", "zh", "vi"} {
			c.doctor.SetCookie("language", lang)
			var list struct{ Data []set }
			if r := c.doctor.Do("GET", "/api/order-sets", nil); r.Status != http.StatusOK {
				t.Fatalf("%s: %d", lang, r.Status)
			} else {
				r.JSON(t, &list)
			}
			if len(list.Data) != len(starterCases) {
				t.Fatalf("%s: %d starter sets, want %d", lang, len(list.Data), len(starterCases))
			}
			for _, want := range starterCases {
				name := want.names[lang]
				j := slices.IndexFunc(list.Data, func(s set) bool { return s.Name == name })
				if j < 0 {
					t.Errorf("%s: no starter set %q (%s)", lang, name, want.source)
					continue
				}
				got := list.Data[j]
				wantTests := want.tests
				if !hasUACR { // the urine albumin-to-creatinine ratio joins the catalogue with its own change
					wantTests = slices.DeleteFunc(slices.Clone(wantTests), func(code string) bool { return code == "UACR" })
				}
				var codes, orders []string
				for i, d := range got.Content.Diagnoses {
					codes = append(codes, d.Code)
					if d.Primary != (i == 0) {
						t.Errorf("%s %s: primary diagnosis %+v", lang, name, got.Content.Diagnoses)
					}
				}
				for _, o := range got.Content.Orders {
					orders = append(orders, o.Code)
				}
				if !got.Example || got.Scope != "clinic" {
					t.Errorf("%s %s: not the clinic's example", lang, name)
				}
				if !slices.Equal(codes, want.codes) || !slices.Equal(orders, wantTests) || got.Content.Days != want.followUp {
					t.Errorf("%s %s: diagnoses %v tests %v follow-up %d; want %v %v %d (%s)", lang, name, codes, orders, got.Content.Days, want.codes, wantTests, want.followUp, want.source)
				}
				if len(got.Content.Checks) != want.checks || slices.ContainsFunc(got.Content.Checks, func(ch check) bool { return ch.Done || ch.Text == "" }) {
					t.Errorf("%s %s: checks %+v, want %d unticked", lang, name, got.Content.Checks, want.checks)
				}
				if len(got.Content.Items) != len(want.lines) {
					t.Errorf("%s %s: lines %v, want %d", lang, name, got.Content.Items, len(want.lines))
					continue
				}
				for i, l := range want.lines {
					it := got.Content.Items[i]
					q, _ := it["quantity"].(string)
					if it["medicine_id"] == nil || it["dose"] != l.dose[lang] || it["duration"] != l.duration[lang] || q != l.quantity {
						t.Errorf("%s %s: line %v, want %+v (%s)", lang, name, it, l, want.source)
					}
					if lang == "en" && !strings.HasPrefix(it["medicine"].(string), l.medicine) {
						t.Errorf("%s: medicine %v, want %s", name, it["medicine"], l.medicine)
					}
				}
				plan := strings.ToLower(got.Content.Plan)
				if lang == "en" && !strings.Contains(plan, strings.ToLower(want.planHas)) {
					t.Errorf("%s: plan %q lacks %q (%s)", name, got.Content.Plan, want.planHas, want.source)
				}
				if i := slices.IndexFunc(findings, func(f string) bool { return strings.Contains(plan, f) }); i >= 0 {
					t.Errorf("%s %s: the plan records a finding (%q): %q", lang, name, findings[i], got.Content.Plan)
				}
			}
		}
	})
}

// TestSetChecksAreRecordedOnlyWhenTicked: applying the cystitis set with no check ticked
// writes none of them; ticking one records exactly that one, as the doctor's confirmation
// (translations review S3; results review M12). A set saved with a ticked check keeps it
// as a question.
func TestSetChecksAreRecordedOnlyWhenTicked(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		uti := c.starter(t, c.doctor, "Acute cystitis")
		uti.Content.Items = nil // the lines are another story
		appt := c.openVisit(t)
		r := apply(c.doctor, appt, uti, 0)
		var got applied
		r.JSON(t, &got)
		if r.Status != http.StatusOK || got.Visit.Plan != uti.Content.Plan || strings.Contains(got.Visit.Plan, "Pregnancy") {
			t.Fatalf("nothing ticked: %d %q", r.Status, got.Visit.Plan)
		}
		uti.Content.Checks[0].Done = true
		r = apply(c.doctor, appt, uti, got.Visit.Version)
		r.JSON(t, &got)
		if want := uti.Content.Plan + "\nConfirmed at this visit: Pregnancy excluded."; r.Status != http.StatusOK || got.Visit.Plan != want {
			t.Fatalf("one ticked: %d %q, want %q", r.Status, got.Visit.Plan, want)
		}

		mine := map[string]any{"name": "Mine", "scope": "personal", "content": map[string]any{"checks": []map[string]any{{"text": " Feet  examined ", "done": true}}}}
		var s set
		r = c.doctor.Do("POST", "/api/order-sets", mine)
		r.JSON(t, &s)
		if r.Status != http.StatusCreated || len(s.Content.Checks) != 1 || s.Content.Checks[0].Done || s.Content.Checks[0].Text != "Feet examined" {
			t.Fatalf("a set with a check: %d %s", r.Status, r.Body)
		}
		long := strings.Repeat("x", 301)
		for field, checks := range map[string][]map[string]any{"content.checks.0.text": {{"text": " "}}, "content.checks.1.text": {{"text": "ok"}, {"text": long}}} {
			r := c.doctor.Do("POST", "/api/order-sets", map[string]any{"name": "Bad", "scope": "personal", "content": map[string]any{"checks": checks}})
			if _, _, fields := r.Error(t); r.Status != http.StatusUnprocessableEntity || len(fields[field]) == 0 {
				t.Errorf("bad check %s: %d %s", field, r.Status, r.Body)
			}
		}
	})
}

// TestSetMarksTestsDoneToday: a test the patient had ordered (or resulted) at a morning visit
// is listed for the afternoon's set and not ordered again unless the doctor asks for it
// (clinic-day review m8).
func TestSetMarksTestsDoneToday(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		if time.Now().Add(time.Hour).Day() != time.Now().Day() {
			t.Skip("the two visits of one day would straddle midnight")
		}
		c := newClinic(t, db)
		morning := c.openVisitIn(t, time.Minute)
		if r := c.doctor.Do("PUT", fmt.Sprintf("/api/appointments/%d/visit", morning), map[string]any{"version": 0,
			"diagnoses": []map[string]any{{"code": "I10", "primary": true}}, "orders": []map[string]any{{"code": "BMP"}, {"code": "LIPID"}}}); r.Status != http.StatusOK {
			t.Fatalf("morning visit: %d %s", r.Status, r.Body)
		}
		afternoon := c.openVisitIn(t, 30*time.Minute)
		var today struct {
			Data []struct{ Code, State string }
		}
		r := c.doctor.Do("GET", fmt.Sprintf("/api/appointments/%d/tests-today", afternoon), nil)
		r.JSON(t, &today)
		if r.Status != http.StatusOK || len(today.Data) != 2 || today.Data[0].Code != "BMP" || today.Data[0].State != "ordered" {
			t.Fatalf("tests today: %d %s", r.Status, r.Body)
		}
		if r := c.doctor.Do("GET", fmt.Sprintf("/api/appointments/%d/tests-today", morning), nil); !strings.Contains(string(r.Body), `"data":[]`) {
			t.Errorf("the morning visit's own tests are its own: %s", r.Body)
		}
		if r := c.nurse.Do("GET", fmt.Sprintf("/api/appointments/%d/tests-today", afternoon), nil); r.Status != http.StatusForbidden {
			t.Errorf("a nurse reads the set's tests: %d", r.Status)
		}

		htn := c.starter(t, c.doctor, "Hypertension")
		htn.Content.Items = nil
		var got applied
		r = c.doctor.Do("POST", fmt.Sprintf("/api/appointments/%d/order-set", afternoon), map[string]any{"set_id": htn.ID, "version": 0, "content": htn.Content, "repeat": []string{"LIPID"}})
		r.JSON(t, &got)
		var orders []string
		for _, o := range got.Visit.Orders {
			orders = append(orders, o.Code)
		}
		if r.Status != http.StatusOK || slices.Contains(orders, "BMP") || !slices.Contains(orders, "LIPID") || !slices.Equal(got.Skipped.Today, []string{"BMP"}) {
			t.Fatalf("apply: %d orders %v skipped %+v %s", r.Status, orders, got.Skipped, r.Body)
		}
	})
}

// TestStarterUpgradeLeavesTheClinicsEdits: a database whose starter sets were installed by
// an earlier version takes the corrected content where the clinic left the set as shipped,
// keeps a set the clinic edited as it is, and gains the new sets.
func TestStarterUpgradeLeavesTheClinicsEdits(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *database.DB) {
		c := newClinic(t, db)
		c.starter(t, c.doctor, "Hypertension") // installs
		ctx := t.Context()
		old := `{"diagnoses":[{"code":"N39.0","primary":true}],"orders":[{"code":"UCULT"}],"items":[],"plan":"Checked: not pregnant.","follow_up_days":0}`
		for _, q := range []string{
			`UPDATE order_sets SET name = 'Cystitis, non-pregnant woman', content = $1 WHERE starter = 'urinary-tract-infection'`,
			`UPDATE order_sets SET content = $1, example = FALSE WHERE starter = 'type2-diabetes' AND language = 'en'`,
		} {
			if _, err := db.ExecContext(ctx, q, old); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.ExecContext(ctx, `DELETE FROM order_sets WHERE starter = 'gastroenteritis-child'`); err != nil {
			t.Fatal(err)
		}
		if err := database.SetCounter(ctx, db, "charting:starter", 1); err != nil {
			t.Fatal(err)
		}
		uti := c.starter(t, c.doctor, "Acute cystitis")
		if uti.Content.Plan == "" || strings.Contains(uti.Content.Plan, "Checked") || uti.Content.Diagnoses[0].Code != "N30.0" || len(uti.Content.Checks) != 3 {
			t.Errorf("the shipped set was not corrected: %+v", uti)
		}
		var list struct{ Data []set }
		c.doctor.Do("GET", "/api/order-sets", nil).JSON(t, &list)
		if !slices.ContainsFunc(list.Data, func(s set) bool { return strings.HasPrefix(s.Name, "Acute diarrhoea") }) {
			t.Error("a new starter set was not added")
		}
		if !slices.ContainsFunc(list.Data, func(s set) bool {
			return strings.HasPrefix(s.Name, "Type 2") && s.Content.Plan == "Checked: not pregnant."
		}) {
			t.Error("the clinic's edited set was overwritten")
		}
	})
}
