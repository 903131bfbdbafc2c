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
// catalogue does (resolved to the clinic's entry when the set is installed). A line without
// a quantity leaves it to the duration (oral rehydration: sachets differ by country).
type starterLine struct {
	generic, strength, form   string
	dose, frequency, duration words
	quantity                  string
	instructions              words
}

// starterSet is one of the order sets a clinic begins with, in every language: examples,
// marked so, for the commonest outpatient problems, each named with whom it doses for (adult
// or child). Each is a starting point a clinic reviews against its own guidelines and
// formulary before use. Checks are questions the doctor ticks when applying the set: only
// those ticked are written into the visit, so that a set never records a finding nobody made.
type starterSet struct {
	key          string
	name         words
	diagnoses    []appointment.Diagnosis
	orders       []string
	lines        []starterLine
	checks       []words
	plan         words
	followUpDays int
}

var (
	onceDaily = tr("once daily", "1 раз в день", "每日1次", "ngày 1 lần")
	twiceDay  = tr("twice daily", "2 раза в день", "每日2次", "ngày 2 lần")
	sixHourly = tr("every 6 hours if needed", "каждые 6 часов при необходимости", "必要时每6小时1次", "mỗi 6 giờ khi cần")
	eachStool = tr("after each loose stool", "после каждого жидкого стула", "每次稀便后", "sau mỗi lần đi ngoài phân lỏng")
	makeUpORS = tr("Make up each sachet with exactly the volume of clean water the packet states; drink in small, frequent sips.",
		"Каждый пакетик растворять точно в том объёме чистой воды, который указан на упаковке; пить часто, небольшими глотками.",
		"每袋按包装标明的水量用清洁饮用水准确溶解；少量多次饮用。",
		"Pha mỗi gói với đúng lượng nước sạch ghi trên gói; uống từng ngụm nhỏ, nhiều lần.")
)

// days is a duration of n days in each language, with the Russian ending the number takes
// (1 день, 3 дня, 5 дней, 21 день).
func days(n int) words {
	ru := map[string]string{"one": "день", "few": "дня", "many": "дней"}[i18n.PluralForm("ru", n)]
	en := "days"
	if i18n.PluralForm("en", n) == "one" {
		en = "day"
	}
	return tr(fmt.Sprintf("%d %s", n, en), fmt.Sprintf("%d %s", n, ru), fmt.Sprintf("%d天", n), fmt.Sprintf("%d ngày", n))
}

func starterSets() []starterSet {
	return []starterSet{
		{
			key:       "hypertension",
			name:      tr("Hypertension — follow-up (adult)", "Артериальная гипертензия — контрольный визит (взрослые)", "高血压复诊（成人）", "Tăng huyết áp — tái khám (người lớn)"),
			diagnoses: []appointment.Diagnosis{{Code: "I10", Primary: true}},
			orders:    []string{"BMP", "LIPID", "UACR"},
			checks: []words{
				tr("Medicines and adherence reviewed; if above target on one medicine, stepped up to a two-drug single-pill combination",
					"Лечение и приверженность к нему оценены; при АД выше целевого на одном препарате назначена фиксированная комбинация двух препаратов в одной таблетке",
					"已评估用药及依从性；单药治疗血压未达标者已改为两药单片复方制剂",
					"Đã đánh giá thuốc đang dùng và sự tuân thủ; nếu chưa đạt mục tiêu với một thuốc, đã chuyển sang viên phối hợp cố định hai thuốc"),
				tr("12-lead ECG on record", "ЭКГ в 12 отведениях имеется", "已有12导联心电图", "Đã có điện tâm đồ 12 chuyển đạo"),
			},
			plan: tr("Home blood pressure diary. Target below 130/80 mmHg if tolerated; from 80 years, below 150/90 mmHg. Less salt, regular exercise, limit alcohol. Come back sooner if home BP is above 180/110 mmHg. Call an ambulance at once with chest pain, severe headache, weakness or numbness of the face, an arm or a leg, or difficulty speaking.",
				"Дневник АД дома. Цель — ниже 130/80 мм рт. ст. при хорошей переносимости; с 80 лет — ниже 150/90 мм рт. ст. Меньше соли, регулярная физическая активность, ограничить алкоголь. Обратиться раньше, если АД дома выше 180/110 мм рт. ст. Немедленно вызвать скорую помощь при боли в груди, сильной головной боли, слабости или онемении лица, руки или ноги, нарушении речи.",
				"在家记录血压。目标：可耐受者低于130/80 mmHg；80岁及以上低于150/90 mmHg。低盐饮食，规律运动，限制饮酒。如家庭血压高于180/110 mmHg，请提前复诊。如出现胸痛、剧烈头痛、一侧面部或肢体无力、麻木或言语不清，请立即呼叫急救。",
				"Ghi nhật ký huyết áp tại nhà. Mục tiêu dưới 130/80 mmHg nếu dung nạp được; từ 80 tuổi, dưới 150/90 mmHg. Ăn nhạt, vận động đều đặn, hạn chế rượu bia. Tái khám sớm nếu huyết áp tại nhà trên 180/110 mmHg. Gọi cấp cứu ngay nếu đau ngực, đau đầu dữ dội, yếu hoặc tê một bên mặt, tay, chân, hoặc nói khó."),
			followUpDays: 28,
		},
		{
			key:       "type2-diabetes",
			name:      tr("Type 2 diabetes — review (adult)", "Сахарный диабет 2 типа — плановый осмотр (взрослые)", "2型糖尿病复查（成人）", "Đái tháo đường típ 2 — tái khám (người lớn)"),
			diagnoses: []appointment.Diagnosis{{Code: "E11.9", Primary: true}},
			orders:    []string{"HBA1C", "CREA", "UACR", "LIPID"},
			checks: []words{
				tr("eGFR reviewed before metformin: not started at eGFR 30–44, stopped below 30",
					"рСКФ оценена перед назначением метформина: при рСКФ 30–44 не начинают, ниже 30 — отменяют",
					"使用二甲双胍前已核对eGFR：eGFR 30–44不起始，低于30停用",
					"Đã xem eGFR trước khi dùng metformin: không khởi trị khi eGFR 30–44, ngừng khi dưới 30"),
				tr("Statin considered (age 40–75)", "Рассмотрено назначение статина (возраст 40–75 лет)", "已考虑他汀治疗（40–75岁）", "Đã cân nhắc dùng statin (tuổi 40–75)"),
				tr("Vitamin B12 checked (long-term metformin)", "Уровень витамина B12 проверен (длительный приём метформина)", "已检查维生素B12（长期服用二甲双胍）", "Đã kiểm tra vitamin B12 (dùng metformin lâu dài)"),
				tr("Feet examined (sensation with a monofilament, pulses, skin)", "Стопы осмотрены (чувствительность монофиламентом, пульсация, кожа)", "已检查双足（单丝感觉检查、足背动脉搏动、皮肤）", "Đã khám bàn chân (cảm giác bằng monofilament, mạch, da)"),
				tr("Diet and physical activity discussed", "Обсуждены питание и физическая активность", "已讨论饮食与运动", "Đã trao đổi về chế độ ăn và vận động"),
			},
			plan: tr("Continue the current glucose-lowering medicines at their present doses unless changed today. Eye examination once a year. Stop metformin and seek care if vomiting or unable to drink.",
				"Продолжить текущую сахароснижающую терапию в прежних дозах, если сегодня она не изменена. Осмотр глазного дна раз в год. При рвоте или невозможности пить — прекратить метформин и обратиться к врачу.",
				"除今日调整者外，继续按原剂量使用现有降糖药物。每年眼底检查一次。如呕吐或无法饮水，停用二甲双胍并就医。",
				"Tiếp tục các thuốc hạ đường huyết đang dùng với liều hiện tại, trừ khi thay đổi hôm nay. Khám mắt mỗi năm một lần. Ngừng metformin và đi khám nếu nôn hoặc không uống được."),
			followUpDays: 90,
		},
		{
			key:       "upper-respiratory-infection",
			name:      tr("Upper respiratory infection (adult)", "Острая инфекция верхних дыхательных путей (взрослые)", "上呼吸道感染（成人）", "Nhiễm trùng hô hấp trên (người lớn)"),
			diagnoses: []appointment.Diagnosis{{Code: "J06.9", Primary: true}},
			lines: []starterLine{{generic: "Paracetamol", strength: "500 mg", form: "tablet",
				dose:      tr("1–2 tablets", "1–2 таблетки", "1–2片", "1–2 viên"),
				frequency: sixHourly, duration: days(5), quantity: "20",
				instructions: tr("For fever or pain. No more than 8 tablets (4 g) in 24 hours.", "При температуре или боли. Не более 8 таблеток (4 г) за 24 часа.",
					"用于发热或疼痛。24小时内不超过8片（4 g）。", "Khi sốt hoặc đau. Không quá 8 viên (4 g) trong 24 giờ.")}},
			plan: tr("Viral infection: no antibiotic needed. Fluids and rest. Come back if breathing is difficult, fever lasts more than 3 days, or it gets worse.",
				"Вирусная инфекция: антибиотик не нужен. Обильное питьё и покой. Обратиться повторно при затруднённом дыхании, температуре дольше 3 дней или ухудшении.",
				"病毒感染：无需抗生素。多饮水，注意休息。如呼吸困难、发热超过3天或病情加重，请复诊。",
				"Nhiễm virus: không cần kháng sinh. Uống nhiều nước và nghỉ ngơi. Tái khám nếu khó thở, sốt quá 3 ngày hoặc nặng hơn."),
		},
		{
			key:       "upper-respiratory-infection-child",
			name:      tr("Upper respiratory infection (child)", "Острая инфекция верхних дыхательных путей (дети)", "上呼吸道感染（儿童）", "Nhiễm trùng hô hấp trên (trẻ em)"),
			diagnoses: []appointment.Diagnosis{{Code: "J06.9", Primary: true}},
			lines: []starterLine{{generic: "Paracetamol", strength: "120 mg/5 mL", form: "syrup",
				dose:      tr("15 mg/kg (max 1000 mg)", "15 мг/кг (не более 1000 мг)", "15 mg/kg（最多1000 mg）", "15 mg/kg (tối đa 1000 mg)"),
				frequency: sixHourly, duration: days(3), quantity: "100",
				instructions: tr("For fever or pain. Dose by weight: 15 mg/kg is 0.625 mL/kg of the 120 mg/5 mL syrup. No more than 4 doses (60 mg/kg) in 24 hours. Measure with an oral syringe.",
					"При температуре или боли. Доза по массе тела: 15 мг/кг — это 0,625 мл/кг сиропа 120 мг/5 мл. Не более 4 доз (60 мг/кг) за 24 часа. Отмерять дозирующим шприцем.",
					"用于发热或疼痛。按体重给药：15 mg/kg即120 mg/5 mL糖浆0.625 mL/kg。24小时内不超过4次（60 mg/kg）。用口服给药注射器量取。",
					"Khi sốt hoặc đau. Liều theo cân nặng: 15 mg/kg là 0,625 ml/kg siro 120 mg/5 ml. Không quá 4 liều (60 mg/kg) trong 24 giờ. Đong bằng xi lanh uống thuốc.")}},
			checks: []words{
				tr("Age 3 months or more", "Возраст 3 месяца и старше", "年龄满3个月", "Trẻ từ 3 tháng tuổi trở lên"),
				tr("Weight measured today", "Масса тела измерена сегодня", "今日已测体重", "Đã cân trẻ hôm nay"),
				tr("No danger signs: drinks or breastfeeds, does not vomit everything, no convulsions, not lethargic, no fast breathing or chest indrawing",
					"Признаков опасности нет: пьёт или сосёт грудь, нет рвоты после любого питья и еды, судорог, вялости, учащённого дыхания и втяжения грудной клетки",
					"无危险征象：能饮水或吃奶，无饮后即吐、抽搐、嗜睡，无呼吸增快或胸凹陷",
					"Không có dấu hiệu nguy hiểm: uống được hoặc bú được, không nôn tất cả, không co giật, không li bì, không thở nhanh hoặc rút lõm lồng ngực"),
			},
			plan: tr("Viral infection: no antibiotic needed. Fluids and rest. Come back at once if breathing is fast or difficult, the child cannot drink or breastfeed, vomits everything or is unusually sleepy; come back if the fever lasts more than 3 days.",
				"Вирусная инфекция: антибиотик не нужен. Обильное питьё и покой. Обратиться немедленно, если дыхание частое или затруднённое, ребёнок не может пить или сосать грудь, рвота после каждого приёма или необычная сонливость; обратиться повторно, если температура держится дольше 3 дней.",
				"病毒感染：无需抗生素。多饮水，注意休息。如呼吸增快或困难、不能饮水或吃奶、饮后即吐或异常嗜睡，请立即就诊；如发热超过3天，请复诊。",
				"Nhiễm virus: không cần kháng sinh. Uống nhiều nước và nghỉ ngơi. Đưa trẻ đến khám ngay nếu thở nhanh hoặc khó thở, không uống được hoặc không bú được, nôn tất cả hoặc li bì bất thường; tái khám nếu sốt quá 3 ngày."),
		},
		{
			key:       "urinary-tract-infection",
			name:      tr("Acute cystitis, non-pregnant woman under 65 (adult)", "Острый цистит у небеременной женщины до 65 лет (взрослые)", "非妊娠女性急性膀胱炎，65岁以下（成人）", "Viêm bàng quang cấp ở phụ nữ không mang thai dưới 65 tuổi (người lớn)"),
			diagnoses: []appointment.Diagnosis{{Code: "N30.0", Primary: true}},
			orders:    []string{"UA"},
			lines: []starterLine{{generic: "Nitrofurantoin", strength: "100 mg", form: "modified-release capsule",
				dose: tr("1 capsule", "1 капсула", "1粒", "1 viên"), frequency: twiceDay, duration: days(3), quantity: "6",
				instructions: tr("With food.", "Во время еды.", "随餐服用。", "Uống cùng bữa ăn.")}},
			checks: []words{
				tr("Pregnancy excluded", "Беременность исключена", "已排除妊娠", "Đã loại trừ có thai"),
				tr("No known kidney disease, or eGFR 45 or more", "Нет известного заболевания почек, или рСКФ 45 и выше", "无已知肾脏疾病，或eGFR ≥ 45", "Không có bệnh thận đã biết, hoặc eGFR từ 45 trở lên"),
				tr("No fever, flank pain or vomiting (no sign of pyelonephritis)", "Нет температуры, боли в пояснице и рвоты (нет признаков пиелонефрита)",
					"无发热、腰痛或呕吐（无肾盂肾炎征象）", "Không sốt, không đau hông lưng, không nôn (không có dấu hiệu viêm thận bể thận)"),
			},
			plan: tr("Plenty of fluids; paracetamol or ibuprofen for pain. Come back if not better in 48 hours or if the symptoms return: a urine culture is then sent. Come back at once with fever, flank pain or vomiting.",
				"Обильное питьё; при боли — парацетамол или ибупрофен. Обратиться повторно, если нет улучшения через 48 часов или симптомы вернутся: тогда назначается посев мочи. Немедленно обратиться при температуре, боли в пояснице или рвоте.",
				"多饮水；疼痛时可用对乙酰氨基酚或布洛芬。如48小时内无好转或症状复发，请复诊，届时送尿培养。如出现发热、腰痛或呕吐，请立即就诊。",
				"Uống nhiều nước; giảm đau bằng paracetamol hoặc ibuprofen. Tái khám nếu không đỡ sau 48 giờ hoặc triệu chứng tái lại: khi đó sẽ cấy nước tiểu. Đến khám ngay nếu sốt, đau hông lưng hoặc nôn."),
		},
		{
			key:       "gastroenteritis-dehydration",
			name:      tr("Gastroenteritis with mild dehydration (adult)", "Гастроэнтерит с лёгким обезвоживанием (взрослые)", "胃肠炎伴轻度脱水（成人）", "Viêm dạ dày ruột kèm mất nước nhẹ (người lớn)"),
			diagnoses: []appointment.Diagnosis{{Code: "A09", Primary: true}, {Code: "E86"}},
			lines: []starterLine{{generic: "Oral rehydration salts", form: "powder",
				dose: tr("200–400 mL", "200–400 мл", "200–400 mL", "200–400 ml"), frequency: eachStool, duration: days(3), instructions: makeUpORS}},
			plan: tr("Oral rehydration; keep eating. Come back at once if unable to drink, vomiting everything, blood in the stool, passing very little urine, or drowsy.",
				"Пероральная регидратация; продолжать питание. Обратиться немедленно, если не может пить, рвота после каждого приёма, кровь в стуле, очень мало мочи или сонливость.",
				"口服补液；继续进食。如无法饮水、饮后即吐、便中带血、尿量很少或嗜睡，请立即就诊。",
				"Bù nước đường uống; tiếp tục ăn. Đến khám ngay nếu không uống được, nôn hết, phân có máu, tiểu rất ít hoặc lơ mơ."),
		},
		{
			key:       "gastroenteritis-child",
			name:      tr("Acute diarrhoea without dehydration, WHO plan A (child)", "Острая диарея без обезвоживания, план А ВОЗ (дети)", "急性腹泻无脱水，WHO方案A（儿童）", "Tiêu chảy cấp không mất nước, phác đồ A của WHO (trẻ em)"),
			diagnoses: []appointment.Diagnosis{{Code: "A09", Primary: true}},
			lines: []starterLine{
				{generic: "Oral rehydration salts", form: "powder",
					dose: tr("under 2 years: 50–100 mL; 2–10 years: 100–200 mL; older: as much as wanted",
						"до 2 лет — 50–100 мл; 2–10 лет — 100–200 мл; старше — сколько захочет",
						"2岁以下50–100 mL；2–10岁100–200 mL；更大儿童按需饮用",
						"dưới 2 tuổi: 50–100 ml; 2–10 tuổi: 100–200 ml; lớn hơn: uống theo nhu cầu"),
					frequency: eachStool, duration: tr("until the diarrhoea stops", "до прекращения диареи", "至腹泻停止", "đến khi hết tiêu chảy"), instructions: makeUpORS},
				{generic: "Zinc sulfate", strength: "20 mg", form: "dispersible tablet",
					dose: tr("under 6 months: ½ tablet (10 mg); 6 months and older: 1 tablet (20 mg)",
						"до 6 месяцев — ½ таблетки (10 мг); с 6 месяцев — 1 таблетка (20 мг)",
						"6个月以下半片（10 mg）；6个月及以上1片（20 mg）",
						"dưới 6 tháng: ½ viên (10 mg); từ 6 tháng: 1 viên (20 mg)"),
					frequency: onceDaily, duration: days(10), quantity: "10",
					instructions: tr("Dissolve in a spoonful of breast milk, ORS or clean water. Give all 10 days, even after the diarrhoea stops.",
						"Растворить в ложке грудного молока, раствора для регидратации или чистой воды. Давать все 10 дней, даже если диарея прекратилась.",
						"用一小勺母乳、口服补液盐溶液或清洁饮用水溶解。即使腹泻停止，也要服满10天。",
						"Hòa tan trong một thìa sữa mẹ, dung dịch Oresol hoặc nước sạch. Uống đủ 10 ngày, kể cả khi đã hết tiêu chảy.")},
			},
			checks: []words{
				tr("No signs of dehydration: alert, drinks normally, eyes not sunken, skin pinch goes back quickly",
					"Признаков обезвоживания нет: в сознании, пьёт как обычно, глаза не запавшие, кожная складка расправляется быстро",
					"无脱水征象：神志清楚，饮水正常，眼窝不凹陷，皮肤皱褶迅速回复",
					"Không có dấu hiệu mất nước: tỉnh táo, uống bình thường, mắt không trũng, nếp véo da mất nhanh"),
				tr("No blood in the stool", "Крови в стуле нет", "便中无血", "Phân không có máu"),
			},
			plan: tr("Give more fluid than usual and ORS after each loose stool; zinc for 10 days; keep feeding, and keep breastfeeding. Come back at once if the child becomes sicker, cannot drink or breastfeed, drinks poorly, has a fever or blood in the stool.",
				"Давать пить больше обычного и раствор для регидратации после каждого жидкого стула; цинк 10 дней; продолжать кормление и грудное вскармливание. Обратиться немедленно, если ребёнку стало хуже, он не может пить или сосать грудь, плохо пьёт, появилась температура или кровь в стуле.",
				"比平时多喝水，每次稀便后口服补液盐；补锌10天；继续喂养和母乳喂养。如病情加重、不能饮水或吃奶、饮水差、发热或便中带血，请立即就诊。",
				"Cho uống nhiều hơn bình thường và uống Oresol sau mỗi lần đi ngoài phân lỏng; bổ sung kẽm 10 ngày; tiếp tục cho ăn và cho bú mẹ. Đưa trẻ đến khám ngay nếu trẻ mệt hơn, không uống được hoặc không bú được, uống kém, sốt hoặc phân có máu."),
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

// starterVersion is raised when the shipped sets or snippets change: a clinic's starter sets
// it has not edited (still examples) nor deleted take the new content, new ones are added,
// and what the clinic changed stays its own. Version 2: checks the doctor ticks instead of
// findings in the plan, each set's age scope, children's doses, modified-release
// nitrofurantoin, the urine albumin-to-creatinine ratio.
const starterVersion = 2

// starterOnce installs or upgrades the starter sets and snippets the first time anyone lists
// them after a start.
func (s *Store) starterOnce(ctx context.Context) error {
	if n, err := database.Counter(ctx, s.DB, starterCounter); err != nil || n >= starterVersion {
		return err
	}
	return s.DB.Tx(ctx, func(tx *sql.Tx) error {
		if n, err := database.Counter(ctx, tx, starterCounter); err != nil || n >= starterVersion {
			return err
		}
		if err := installStarter(ctx, tx, s.now()); err != nil {
			return err
		}
		return database.SetCounter(ctx, tx, starterCounter, starterVersion)
	})
}

// starterContent is a starter set's content in lang, with the clinic's catalogue entries: a
// test or a medicine the catalogue lacks is left out.
func starterContent(ctx context.Context, tx *sql.Tx, st starterSet, lang string) (SetContent, error) {
	c := SetContent{Diagnoses: st.diagnoses, Orders: []appointment.Order{}, Items: []prescription.Item{}, Checks: []Check{}, Plan: st.plan[lang], FollowUpDays: st.followUpDays}
	for _, code := range st.orders {
		if ok, err := catalogue.LabTestExists(ctx, tx, code); err != nil {
			return c, err
		} else if ok {
			c.Orders = append(c.Orders, appointment.Order{Code: code})
		}
	}
	for _, l := range st.lines {
		m, ok, err := catalogue.FindMedicine(ctx, tx, l.generic, l.strength, l.form)
		if err != nil {
			return c, err
		}
		if !ok {
			continue
		}
		m.Localise(lang)
		var q *prescription.Amount
		if l.quantity != "" {
			a := prescription.Amount(l.quantity)
			q = &a
		}
		c.Items = append(c.Items, prescription.Item{MedicineID: &m.ID, Medicine: m.Label, Dose: l.dose[lang], Route: "oral",
			Frequency: l.frequency[lang], Duration: l.duration[lang], Quantity: q, Unit: m.UnitLabel, Instructions: l.instructions[lang],
			Overrides: []string{}})
	}
	for _, ch := range st.checks {
		c.Checks = append(c.Checks, Check{Text: ch[lang]})
	}
	return c, nil
}

// installStarter adds the clinic's starter sets and snippets in every language, each marked
// as an example, and brings the starter sets the clinic has neither edited nor deleted to
// the shipped content.
func installStarter(ctx context.Context, tx *sql.Tx, now any) error {
	for _, st := range starterSets() {
		for _, lang := range i18n.Languages {
			c, err := starterContent(ctx, tx, st, lang)
			if err != nil {
				return err
			}
			body, _ := json.Marshal(c)
			if _, err := tx.ExecContext(ctx, `INSERT INTO order_sets (name, language, content, example, starter, created_at, updated_at)
				VALUES ($1, $2, $3, TRUE, $4, $5, $5) ON CONFLICT (starter, language) WHERE starter <> ''
				DO UPDATE SET name = excluded.name, content = excluded.content, updated_at = excluded.updated_at, version = order_sets.version + 1
				WHERE order_sets.example AND order_sets.active AND order_sets.owner_id IS NULL
					AND (order_sets.name <> excluded.name OR order_sets.content <> excluded.content)`,
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
