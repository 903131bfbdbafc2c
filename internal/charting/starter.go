package charting

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"emr/internal/appointment"
	"emr/internal/catalogue"
	"emr/internal/database"
	"emr/internal/i18n"
	"emr/internal/prescription"
)

// words is one text in each interface language.
type words map[string]string

func tr(en, ru, zh, vi string) words { return words{"en": en, "ru": ru, "zh": zh, "vi": vi} }

// starterLine is a prescription line of a starter set, naming its medicine as the starter
// catalogue does (resolved to the clinic's entry when the set is installed).
type starterLine struct {
	generic, strength, form   string
	dose, frequency, duration words
	quantity                  string
	instructions              words
}

// starterSet is one of the order sets a clinic begins with, in every language: examples,
// marked so, for the commonest outpatient problems. Each is a starting point a clinic
// reviews against its own guidelines and formulary before use.
type starterSet struct {
	key          string
	name         words
	diagnoses    []appointment.Diagnosis
	orders       []string
	lines        []starterLine
	plan         words
	followUpDays int
}

var (
	oneTablet = tr("1 tablet", "1 таблетка", "1片", "1 viên")
	onceDaily = tr("once daily", "1 раз в день", "每日1次", "ngày 1 lần")
	twiceDay  = tr("twice daily", "2 раза в день", "每日2次", "ngày 2 lần")
	days      = func(n string) words { return tr(n+" days", n+" дней", n+"天", n+" ngày") }
)

func starterSets() []starterSet {
	return []starterSet{
		{
			key:       "hypertension",
			name:      tr("Hypertension — follow-up", "Артериальная гипертензия — контрольный визит", "高血压复诊", "Tăng huyết áp — tái khám"),
			diagnoses: []appointment.Diagnosis{{Code: "I10", Primary: true}},
			orders:    []string{"BMP", "LIPID"},
			lines: []starterLine{{generic: "Amlodipine", strength: "5 mg", form: "tablet", dose: oneTablet, frequency: onceDaily,
				duration: days("30"), quantity: "30"}},
			plan: tr("Home blood pressure diary; target below 130/80 mmHg. Less salt, regular exercise, limit alcohol. Come back sooner if BP is above 180/110 mmHg or with chest pain, severe headache or weakness.",
				"Дневник АД дома; цель — ниже 130/80 мм рт. ст. Меньше соли, регулярная физическая активность, ограничить алкоголь. Обратиться раньше, если АД выше 180/110 мм рт. ст., при боли в груди, сильной головной боли или слабости.",
				"在家记录血压；目标低于130/80 mmHg。低盐饮食，规律运动，限制饮酒。如血压高于180/110 mmHg，或出现胸痛、剧烈头痛、无力，请提前复诊。",
				"Ghi nhật ký huyết áp tại nhà; mục tiêu dưới 130/80 mmHg. Ăn nhạt, vận động đều đặn, hạn chế rượu bia. Tái khám sớm nếu huyết áp trên 180/110 mmHg, đau ngực, đau đầu dữ dội hoặc yếu người."),
			followUpDays: 28,
		},
		{
			key:       "type2-diabetes",
			name:      tr("Type 2 diabetes — review", "Сахарный диабет 2 типа — плановый осмотр", "2型糖尿病复查", "Đái tháo đường típ 2 — tái khám"),
			diagnoses: []appointment.Diagnosis{{Code: "E11.9", Primary: true}},
			orders:    []string{"HBA1C", "CREA", "LIPID", "UA"},
			lines: []starterLine{{generic: "Metformin", strength: "500 mg", form: "tablet", dose: oneTablet, frequency: twiceDay,
				duration: days("30"), quantity: "60",
				instructions: tr("With meals.", "Во время еды.", "随餐服用。", "Uống trong bữa ăn.")}},
			plan: tr("Diet and activity reviewed; feet examined; eye examination once a year. Stop metformin and seek care if vomiting or unable to drink.",
				"Обсуждены питание и физическая активность; осмотр стоп; осмотр глазного дна раз в год. При рвоте или невозможности пить — прекратить метформин и обратиться к врачу.",
				"已复核饮食与运动；已检查双足；每年眼底检查一次。如呕吐或无法饮水，停用二甲双胍并就医。",
				"Đã xem lại chế độ ăn và vận động; đã khám bàn chân; khám mắt mỗi năm một lần. Ngừng metformin và đi khám nếu nôn hoặc không uống được."),
			followUpDays: 90,
		},
		{
			key:       "upper-respiratory-infection",
			name:      tr("Upper respiratory infection", "Острая инфекция верхних дыхательных путей", "上呼吸道感染", "Nhiễm trùng hô hấp trên"),
			diagnoses: []appointment.Diagnosis{{Code: "J06.9", Primary: true}},
			lines: []starterLine{{generic: "Paracetamol", strength: "500 mg", form: "tablet",
				dose:      tr("1–2 tablets", "1–2 таблетки", "1–2片", "1–2 viên"),
				frequency: tr("every 6 hours if needed", "каждые 6 часов при необходимости", "必要时每6小时1次", "mỗi 6 giờ khi cần"),
				duration:  days("5"), quantity: "20",
				instructions: tr("For fever or pain. No more than 8 tablets (4 g) in 24 hours.", "При температуре или боли. Не более 8 таблеток (4 г) за 24 часа.",
					"用于发热或疼痛。24小时内不超过8片（4 g）。", "Khi sốt hoặc đau. Không quá 8 viên (4 g) trong 24 giờ.")}},
			plan: tr("Viral infection: no antibiotic needed. Fluids and rest. Come back if breathing is difficult, fever lasts more than 3 days, or it gets worse.",
				"Вирусная инфекция: антибиотик не нужен. Обильное питьё и покой. Обратиться повторно при затруднённом дыхании, температуре дольше 3 дней или ухудшении.",
				"病毒感染：无需抗生素。多饮水，注意休息。如呼吸困难、发热超过3天或病情加重，请复诊。",
				"Nhiễm virus: không cần kháng sinh. Uống nhiều nước và nghỉ ngơi. Tái khám nếu khó thở, sốt quá 3 ngày hoặc nặng hơn."),
		},
		{
			key:       "urinary-tract-infection",
			name:      tr("Cystitis, non-pregnant woman", "Цистит у небеременной женщины", "非妊娠女性膀胱炎", "Viêm bàng quang ở phụ nữ không mang thai"),
			diagnoses: []appointment.Diagnosis{{Code: "N39.0", Primary: true}},
			orders:    []string{"UA", "UCULT"},
			lines: []starterLine{{generic: "Nitrofurantoin", strength: "100 mg", form: "capsule",
				dose: tr("1 capsule", "1 капсула", "1粒", "1 viên"), frequency: twiceDay, duration: days("5"), quantity: "10",
				instructions: tr("With food.", "Во время еды.", "随餐服用。", "Uống cùng bữa ăn.")}},
			plan: tr("Checked: not pregnant; kidney function adequate for nitrofurantoin (eGFR 30 or more); twice daily is the modified-release capsule's dose (the plain capsule is taken four times a day). Plenty of fluids. Come back if fever, flank pain, or not better in 48 hours.",
				"Проверено: беременности нет; функция почек позволяет нитрофурантоин (рСКФ 30 и выше); два раза в день — доза капсул с модифицированным высвобождением (обычные капсулы — четыре раза в день). Обильное питьё. Обратиться повторно при температуре, боли в пояснице или без улучшения через 48 часов.",
				"已确认：未妊娠；肾功能适合使用呋喃妥因（eGFR ≥ 30）；每日2次为缓释胶囊的用法（普通胶囊每日4次）。多饮水。如发热、腰痛或48小时内无好转，请复诊。",
				"Đã kiểm tra: không mang thai; chức năng thận phù hợp với nitrofurantoin (eGFR từ 30 trở lên); ngày 2 lần là liều của viên nang phóng thích kéo dài (viên nang thường uống ngày 4 lần). Uống nhiều nước. Tái khám nếu sốt, đau hông lưng hoặc không đỡ sau 48 giờ."),
		},
		{
			key:       "gastroenteritis-dehydration",
			name:      tr("Gastroenteritis with mild dehydration", "Гастроэнтерит с лёгким обезвоживанием", "胃肠炎伴轻度脱水", "Viêm dạ dày ruột kèm mất nước nhẹ"),
			diagnoses: []appointment.Diagnosis{{Code: "A09", Primary: true}, {Code: "E86"}},
			lines: []starterLine{{generic: "Oral rehydration salts", form: "powder",
				dose:      tr("1 sachet", "1 пакетик", "1袋", "1 gói"),
				frequency: tr("after each loose stool", "после каждого жидкого стула", "每次稀便后", "sau mỗi lần đi ngoài phân lỏng"),
				duration:  days("3"), quantity: "10",
				instructions: tr("Dissolve in the volume of clean water the packet states; drink in small, frequent sips.",
					"Растворить в том объёме чистой воды, который указан на пакетике; пить часто, небольшими глотками.",
					"按包装说明的水量用清洁饮用水溶解；少量多次饮用。",
					"Pha với lượng nước sạch ghi trên gói; uống từng ngụm nhỏ, nhiều lần.")}},
			plan: tr("Oral rehydration; keep eating. Come back at once if unable to drink, vomiting everything, blood in the stool, passing very little urine, or drowsy.",
				"Пероральная регидратация; продолжать питание. Обратиться немедленно, если не может пить, рвота после каждого приёма, кровь в стуле, очень мало мочи или сонливость.",
				"口服补液；继续进食。如无法饮水、饮后即吐、便中带血、尿量很少或嗜睡，请立即就诊。",
				"Bù nước đường uống; tiếp tục ăn. Đến khám ngay nếu không uống được, nôn hết, phân có máu, tiểu rất ít hoặc lơ mơ."),
		},
	}
}

// starterSnippet is one of the snippets a clinic begins with.
type starterSnippet struct {
	key, section string
	shortcut     words
	body         words
}

func starterSnippets() []starterSnippet {
	return []starterSnippet{
		{"normal-exam", "examination", tr(";ntd", ";ntd", ";ntd", ";ntd"), tr(
			"General condition satisfactory. Heart sounds regular, no murmurs. Lungs clear. Abdomen soft, non-tender. BP {{vitals.bp}} mmHg.",
			"Общее состояние удовлетворительное. Тоны сердца ритмичные, шумов нет. Дыхание везикулярное, хрипов нет. Живот мягкий, безболезненный. АД {{vitals.bp}} мм рт. ст.",
			"一般情况良好。心律齐，未闻及杂音。双肺呼吸音清。腹软，无压痛。血压 {{vitals.bp}} mmHg。",
			"Tổng trạng ổn. Tim đều, không có tiếng thổi. Phổi trong. Bụng mềm, không đau. Huyết áp {{vitals.bp}} mmHg.")},
		{"patient-line", "complaint", tr(";pt", ";pt", ";pt", ";pt"), tr(
			"{{age}}, {{sex}}. Allergies: {{allergies}}.",
			"{{age}}, {{sex}}. Аллергии: {{allergies}}.",
			"{{age}}，{{sex}}。过敏史：{{allergies}}。",
			"{{age}}, {{sex}}. Dị ứng: {{allergies}}.")},
		{"hypertension-history", "history", tr(";htn", ";htn", ";htn", ";htn"), tr(
			"Known hypertension, takes medication regularly. No chest pain, headache, shortness of breath or swelling of the legs.",
			"Гипертоническая болезнь в анамнезе, лекарства принимает регулярно. Боли в груди, головной боли, одышки и отёков ног нет.",
			"既往高血压，规律服药。无胸痛、头痛、气促及下肢水肿。",
			"Tiền sử tăng huyết áp, uống thuốc đều. Không đau ngực, đau đầu, khó thở hay phù chân.")},
		{"diabetes-plan", "plan", tr(";dm", ";dm", ";dm", ";dm"), tr(
			"Last HbA1c: {{last.HbA1c}}. Diet, activity and foot care reviewed.",
			"Последний HbA1c: {{last.HbA1c}}. Обсуждены питание, физическая активность и уход за стопами.",
			"最近一次 HbA1c：{{last.HbA1c}}。已复核饮食、运动及足部护理。",
			"HbA1c gần nhất: {{last.HbA1c}}. Đã xem lại chế độ ăn, vận động và chăm sóc bàn chân.")},
	}
}

const starterCounter = "charting:starter"

// starterOnce installs the starter sets and snippets the first time anyone lists them.
func (s *Store) starterOnce(ctx context.Context) error {
	if n, err := database.Counter(ctx, s.DB, starterCounter); err != nil || n > 0 {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if n, err := database.Counter(ctx, tx, starterCounter); err != nil || n > 0 {
			return err
		}
		if err := installStarter(ctx, tx, s.now()); err != nil {
			return err
		}
		return database.SetCounter(ctx, tx, starterCounter, 1)
	})
}

// installStarter adds the clinic's starter sets and snippets in every language, each marked
// as an example. A line whose medicine the clinic's catalogue lacks is left out of its set.
func installStarter(ctx context.Context, tx *sql.Tx, now any) error {
	for _, st := range starterSets() {
		for _, lang := range i18n.Languages {
			c := SetContent{Diagnoses: st.diagnoses, Orders: []appointment.Order{}, Items: []prescription.Item{}, Plan: st.plan[lang], FollowUpDays: st.followUpDays}
			for _, code := range st.orders {
				if ok, err := catalogue.LabTestExists(ctx, tx, code); err != nil {
					return err
				} else if ok {
					c.Orders = append(c.Orders, appointment.Order{Code: code})
				}
			}
			for _, l := range st.lines {
				m, ok, err := catalogue.FindMedicine(ctx, tx, l.generic, l.strength, l.form)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				m.Localise(lang)
				q := prescription.Amount(l.quantity)
				c.Items = append(c.Items, prescription.Item{MedicineID: &m.ID, Medicine: m.Label, Dose: l.dose[lang], Route: "oral",
					Frequency: l.frequency[lang], Duration: l.duration[lang], Quantity: &q, Unit: m.UnitLabel, Instructions: l.instructions[lang],
					Overrides: []string{}})
			}
			body, _ := json.Marshal(c)
			if _, err := tx.ExecContext(ctx, `INSERT INTO order_sets (name, language, content, example, starter, created_at, updated_at)
				VALUES ($1, $2, $3, TRUE, $4, $5, $5) ON CONFLICT (starter, language) WHERE starter <> '' DO NOTHING`,
				st.name[lang], lang, string(body), st.key, now); err != nil {
				return fmt.Errorf("insert starter set: %w", err)
			}
		}
	}
	for _, sn := range starterSnippets() {
		for _, lang := range i18n.Languages {
			if _, err := tx.ExecContext(ctx, `INSERT INTO snippets (section, shortcut, language, body, example, starter, created_at, updated_at)
				VALUES ($1, $2, $3, $4, TRUE, $5, $6, $6) ON CONFLICT (starter, language) WHERE starter <> '' DO NOTHING`,
				sn.section, sn.shortcut[lang], lang, sn.body[lang], sn.key, now); err != nil {
				return fmt.Errorf("insert starter snippet: %w", err)
			}
		}
	}
	return nil
}
