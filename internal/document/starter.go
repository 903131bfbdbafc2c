package document

// starter is one of the templates a clinic begins with, in every language.
type starter struct {
	Name, Kind, Language, Paper, Body string
	Fields                            []Field
}

func text(key, label string, required bool) Field {
	return Field{Key: key, Label: label, Type: "text", Required: required}
}
func long(key, label string, required bool) Field {
	return Field{Key: key, Label: label, Type: "long_text", Required: required}
}
func date(key, label string) Field {
	return Field{Key: key, Label: label, Type: "date", Required: true}
}
func count(key, label string) Field {
	return Field{Key: key, Label: label, Type: "number", Required: true}
}

// starterTemplates are the medical certificate, fitness to work, referral letter,
// laboratory and imaging requests, results report, visit summary and immunisation card (A6 and A5) in English, Russian, Chinese and
// Vietnamese.
func starterTemplates() []starter {
	return []starter{
		{"Medical certificate", "medical_certificate", "en", "a5-portrait", `# Medical certificate
This is to certify that **{{patient.name}}**, {{patient.age}}, {{patient.sex}}, born {{patient.birth_date}} (patient no. {{patient.mrn}}), was examined at {{clinic.name}} on {{visit.date}}.

## Diagnosis
- {{visit.diagnoses}}

Rest advised — days: **{{field.rest_days}}**, from {{field.rest_from}} to {{field.rest_until}} inclusive.
{{field.remarks}}

Issued on {{today}}, no. {{document.number}}.`, []Field{count("rest_days", "Rest days"), date("rest_from", "Rest from"), long("remarks", "Remarks", false)}},
		{"Fitness to work", "fitness_to_work", "en", "a5-portrait", `# Fitness to work
This is to certify that **{{patient.name}}**, born {{patient.birth_date}}, was examined on {{visit.date}} and is fit to return to work from **{{field.fit_from}}**.
Restrictions: {{field.restrictions}}

Issued on {{today}}, no. {{document.number}}.`, []Field{date("fit_from", "Fit to work from"), long("restrictions", "Restrictions", false)}},
		{"Referral letter", "referral", "en", "a4-portrait", `# Referral letter
To: **{{field.referred_to}}**

Dear colleague,
I am referring **{{patient.name}}**, {{patient.age}}, {{patient.sex}}, born {{patient.birth_date}} (patient no. {{patient.mrn}}), seen on {{visit.date}}.

## Reason for referral
{{field.reason}}

## Findings
| Chief complaint | {{visit.chief_complaint}} |
| Vital signs | {{visit.vitals}} |
| Examination | {{visit.examination}} |

## Diagnosis
- {{visit.diagnoses}}

## Allergies
- {{patient.allergies}}

## Current medicines
- {{patient.medicines}}

Thank you for seeing this patient.`, []Field{text("referred_to", "Referred to", true), long("reason", "Reason for referral", true)}},
		{"Laboratory request", "lab_request", "en", "a4-portrait", `# Laboratory request
| Patient | {{patient.name}} |
| Born | {{patient.birth_date}} ({{patient.age}}) |
| Sex | {{patient.sex}} |
| Patient no. | {{patient.mrn}} |
| Date | {{visit.date}} |

## Tests requested
- {{visit.lab_orders}}

## Diagnosis
- {{visit.diagnoses}}

Clinical notes: {{field.clinical_notes}}`, []Field{long("clinical_notes", "Clinical notes", false)}},
		{"Imaging and functional tests request", "imaging_request", "en", "a4-portrait", `# Imaging and functional tests request
| Patient | {{patient.name}} |
| Born | {{patient.birth_date}} ({{patient.age}}) |
| Sex | {{patient.sex}} |
| Patient no. | {{patient.mrn}} |
| Date | {{visit.date}} |

## Examinations requested
- {{visit.imaging_orders}}

## Diagnosis
- {{visit.diagnoses}}

Clinical notes: {{field.clinical_notes}}`, []Field{long("clinical_notes", "Clinical notes", false)}},
		{"Results report", "results_report", "en", "a4-portrait", `# Laboratory and imaging results
| Patient | {{patient.name}} |
| Born | {{patient.birth_date}} ({{patient.age}}) |
| Sex | {{patient.sex}} |
| Patient no. | {{patient.mrn}} |
| Visit | {{visit.date}} |
| Doctor | {{doctor.name}} |

## Results
- {{visit.results}}

Flags and reference ranges are those that applied when each result was recorded.
Issued on {{today}}, no. {{document.number}}.`, nil},
		{"Visit summary", "visit_summary", "en", "a4-portrait", `# Visit summary
| Patient | {{patient.name}} |
| Born | {{patient.birth_date}} ({{patient.age}}) |
| Patient no. | {{patient.mrn}} |
| Visit | {{visit.date}} |

## Chief complaint
{{visit.chief_complaint}}
## History of present illness
{{visit.present_illness}}
## Vital signs
{{visit.vitals}}
## Examination
{{visit.examination}}
## Diagnosis
- {{visit.diagnoses}}

## Allergies
- {{patient.allergies}}

## Current medicines
- {{patient.medicines}}
## Stopped at this visit
- {{visit.medicines_stopped}}
## Orders
- {{visit.orders}}
## Results
- {{visit.results}}
## Plan
{{visit.plan}}

Follow-up: {{visit.follow_up}}
## Amendments
- {{visit.amendments}}`, nil},

		{"Медицинская справка", "medical_certificate", "ru", "a5-portrait", `# Медицинская справка
Настоящим удостоверяется, что **{{patient.name}}**, {{patient.age}}, пол: {{patient.sex}}, дата рождения {{patient.birth_date}} (карта № {{patient.mrn}}), осмотрен(а) {{visit.date}}.

## Диагноз
- {{visit.diagnoses}}

Рекомендован домашний режим **{{field.rest_days}} дн.** с {{field.rest_from}} по {{field.rest_until}} включительно.
{{field.remarks}}

Справка не является листком нетрудоспособности.

Выдана {{today}}, № {{document.number}}.`, []Field{count("rest_days", "Дней домашнего режима"), date("rest_from", "Домашний режим с"), long("remarks", "Примечания", false)}},
		{"Справка о допуске к работе", "fitness_to_work", "ru", "a5-portrait", `# Справка о допуске к работе
Настоящим удостоверяется, что **{{patient.name}}**, дата рождения {{patient.birth_date}}, осмотрен(а) {{visit.date}} и может приступить к работе с **{{field.fit_from}}**.
Ограничения: {{field.restrictions}}

Выдана {{today}}, № {{document.number}}.`, []Field{date("fit_from", "Может приступить к работе с"), long("restrictions", "Ограничения", false)}},
		{"Направление к специалисту", "referral", "ru", "a4-portrait", `# Направление к специалисту
Кому: **{{field.referred_to}}**

Уважаемый коллега!
Направляю к вам пациента **{{patient.name}}**, {{patient.age}}, пол: {{patient.sex}}, дата рождения {{patient.birth_date}} (карта № {{patient.mrn}}), осмотренного {{visit.date}}.

## Причина направления
{{field.reason}}

## Данные осмотра
| Жалобы | {{visit.chief_complaint}} |
| Витальные показатели | {{visit.vitals}} |
| Осмотр | {{visit.examination}} |

## Диагноз
- {{visit.diagnoses}}

## Аллергии
- {{patient.allergies}}

## Принимаемые препараты
- {{patient.medicines}}

Благодарю за консультацию.`, []Field{text("referred_to", "Кому", true), long("reason", "Причина направления", true)}},
		{"Направление на анализы", "lab_request", "ru", "a4-portrait", `# Направление на лабораторные исследования
| Пациент | {{patient.name}} |
| Дата рождения | {{patient.birth_date}} ({{patient.age}}) |
| Пол | {{patient.sex}} |
| Карта № | {{patient.mrn}} |
| Дата | {{visit.date}} |

## Назначенные исследования
- {{visit.lab_orders}}

## Диагноз
- {{visit.diagnoses}}

Клинические данные: {{field.clinical_notes}}`, []Field{long("clinical_notes", "Клинические данные", false)}},
		{"Направление на инструментальное исследование", "imaging_request", "ru", "a4-portrait", `# Направление на инструментальное исследование
| Пациент | {{patient.name}} |
| Дата рождения | {{patient.birth_date}} ({{patient.age}}) |
| Пол | {{patient.sex}} |
| Карта № | {{patient.mrn}} |
| Дата | {{visit.date}} |

## Назначенные исследования
- {{visit.imaging_orders}}

## Диагноз
- {{visit.diagnoses}}

Клинические данные: {{field.clinical_notes}}`, []Field{long("clinical_notes", "Клинические данные", false)}},
		{"Результаты исследований", "results_report", "ru", "a4-portrait", `# Результаты лабораторных и инструментальных исследований
| Пациент | {{patient.name}} |
| Дата рождения | {{patient.birth_date}} ({{patient.age}}) |
| Пол | {{patient.sex}} |
| Карта № | {{patient.mrn}} |
| Дата приёма | {{visit.date}} |
| Врач | {{doctor.name}} |

## Результаты
- {{visit.results}}

Отметки и референсные интервалы указаны те, что действовали при внесении каждого результата.
Выдано {{today}}, № {{document.number}}.`, nil},
		{"Выписка из медицинской карты", "visit_summary", "ru", "a4-portrait", `# Выписка из медицинской карты (консультативное заключение)
| Пациент | {{patient.name}} |
| Дата рождения | {{patient.birth_date}} ({{patient.age}}) |
| Карта № | {{patient.mrn}} |
| Приём | {{visit.date}} |

## Жалобы
{{visit.chief_complaint}}
## Анамнез заболевания
{{visit.present_illness}}
## Витальные показатели
{{visit.vitals}}
## Осмотр
{{visit.examination}}
## Диагноз
- {{visit.diagnoses}}

## Аллергии
- {{patient.allergies}}

## Принимаемые препараты
- {{patient.medicines}}
## Отменено на этом приёме
- {{visit.medicines_stopped}}
## Назначенные исследования
- {{visit.orders}}
## Результаты исследований
- {{visit.results}}
## Рекомендации
{{visit.plan}}

Повторный приём: {{visit.follow_up}}
## Исправления
- {{visit.amendments}}`, nil},

		{"诊断证明书", "medical_certificate", "zh", "a5-portrait", `# 诊断证明书
兹证明 **{{patient.name}}**，{{patient.age}}，性别：{{patient.sex}}，出生日期 {{patient.birth_date}}（病历号 {{patient.mrn}}），于 {{visit.date}} 在{{clinic.name}}{{field.department}}就诊。

## 诊断
- {{visit.diagnoses}}

建议自 {{field.rest_from}} 起至 {{field.rest_until}} 止休息 **{{field.rest_days}} 天**。
{{field.remarks}}

本证明仅证明就诊及诊断情况，不作为病假证明。

（本证明加盖医疗机构公章后有效）

开具日期 {{today}}，编号 {{document.number}}。`, []Field{text("department", "科别", false), count("rest_days", "休息天数"), date("rest_from", "休息开始日期"), long("remarks", "备注", false)}},
		{"复工证明", "fitness_to_work", "zh", "a5-portrait", `# 复工证明
兹证明 **{{patient.name}}**，出生日期 {{patient.birth_date}}，于 {{visit.date}} 经检查，可自 **{{field.fit_from}}** 起恢复工作。
工作限制：{{field.restrictions}}

开具日期 {{today}}，编号 {{document.number}}。`, []Field{date("fit_from", "可复工日期"), long("restrictions", "工作限制", false)}},
		{"转诊单", "referral", "zh", "a4-portrait", `# 转诊单
致：**{{field.referred_to}}**

尊敬的医师：
现转诊患者 **{{patient.name}}**，{{patient.age}}，性别：{{patient.sex}}，出生日期 {{patient.birth_date}}（病历号 {{patient.mrn}}），就诊日期 {{visit.date}}。

## 转诊原因
{{field.reason}}

## 检查所见
| 主诉 | {{visit.chief_complaint}} |
| 生命体征 | {{visit.vitals}} |
| 体格检查 | {{visit.examination}} |

## 诊断
- {{visit.diagnoses}}

## 过敏史
- {{patient.allergies}}

## 目前用药
- {{patient.medicines}}

感谢您的诊治。`, []Field{text("referred_to", "转诊至", true), long("reason", "转诊原因", true)}},
		{"检验申请单", "lab_request", "zh", "a4-portrait", `# 检验申请单
| 患者 | {{patient.name}} |
| 出生日期 | {{patient.birth_date}}（{{patient.age}}） |
| 性别 | {{patient.sex}} |
| 病历号 | {{patient.mrn}} |
| 日期 | {{visit.date}} |

## 申请项目
- {{visit.lab_orders}}

## 诊断
- {{visit.diagnoses}}

临床资料：{{field.clinical_notes}}`, []Field{long("clinical_notes", "临床资料", false)}},
		{"影像及功能检查申请单", "imaging_request", "zh", "a4-portrait", `# 影像及功能检查申请单
| 患者 | {{patient.name}} |
| 出生日期 | {{patient.birth_date}}（{{patient.age}}） |
| 性别 | {{patient.sex}} |
| 病历号 | {{patient.mrn}} |
| 日期 | {{visit.date}} |

## 申请检查
- {{visit.imaging_orders}}

## 诊断
- {{visit.diagnoses}}

临床资料：{{field.clinical_notes}}`, []Field{long("clinical_notes", "临床资料", false)}},
		{"检验检查结果报告", "results_report", "zh", "a4-portrait", `# 检验与检查结果报告
| 患者 | {{patient.name}} |
| 出生日期 | {{patient.birth_date}}（{{patient.age}}） |
| 性别 | {{patient.sex}} |
| 病历号 | {{patient.mrn}} |
| 就诊日期 | {{visit.date}} |
| 医生 | {{doctor.name}} |

## 结果
- {{visit.results}}

标记与参考范围均为录入各项结果时所适用者。
出具日期：{{today}}，编号 {{document.number}}。`, nil},
		{"门诊病历摘要", "visit_summary", "zh", "a4-portrait", `# 门诊病历摘要
| 患者 | {{patient.name}} |
| 出生日期 | {{patient.birth_date}}（{{patient.age}}） |
| 病历号 | {{patient.mrn}} |
| 就诊日期 | {{visit.date}} |

## 主诉
{{visit.chief_complaint}}
## 现病史
{{visit.present_illness}}
## 生命体征
{{visit.vitals}}
## 体格检查
{{visit.examination}}
## 诊断
- {{visit.diagnoses}}

## 过敏史
- {{patient.allergies}}

## 目前用药
- {{patient.medicines}}
## 本次就诊停用的药品
- {{visit.medicines_stopped}}
## 检查申请
- {{visit.orders}}
## 检验检查结果
- {{visit.results}}
## 治疗计划
{{visit.plan}}

复诊：{{visit.follow_up}}
## 修改记录
- {{visit.amendments}}`, nil},

		{"Giấy xác nhận khám bệnh", "medical_certificate", "vi", "a5-portrait", `# Giấy xác nhận khám bệnh
Họ và tên người bệnh: **{{patient.name}}**, {{patient.age}}, giới tính: {{patient.sex}}, ngày sinh {{patient.birth_date}} (mã bệnh nhân {{patient.mrn}}), đã được khám tại {{clinic.name}} ngày {{visit.date}}.

## Chẩn đoán
- {{visit.diagnoses}}

Đề nghị cho nghỉ ngơi **{{field.rest_days}} ngày**, từ ngày {{field.rest_from}} đến hết ngày {{field.rest_until}}.
{{field.remarks}}

Giấy này không thay thế Giấy chứng nhận nghỉ việc hưởng bảo hiểm xã hội.

Cấp ngày {{today}}, số {{document.number}}.`, []Field{count("rest_days", "Số ngày nghỉ"), date("rest_from", "Nghỉ từ ngày"), long("remarks", "Ghi chú", false)}},
		{"Giấy xác nhận đủ sức khỏe đi làm trở lại", "fitness_to_work", "vi", "a5-portrait", `# Giấy xác nhận đủ sức khỏe đi làm trở lại
Họ và tên người bệnh: **{{patient.name}}**, ngày sinh {{patient.birth_date}}, đã được khám ngày {{visit.date}} và đủ sức khỏe trở lại làm việc từ ngày **{{field.fit_from}}**.
Hạn chế: {{field.restrictions}}

Cấp ngày {{today}}, số {{document.number}}.`, []Field{date("fit_from", "Đi làm lại từ ngày"), long("restrictions", "Hạn chế", false)}},
		{"Giấy giới thiệu chuyển khám", "referral", "vi", "a4-portrait", `# Giấy giới thiệu chuyển khám
Kính gửi: **{{field.referred_to}}**

Chúng tôi giới thiệu bệnh nhân **{{patient.name}}**, {{patient.age}}, giới tính: {{patient.sex}}, ngày sinh {{patient.birth_date}} (mã bệnh nhân {{patient.mrn}}), đã khám ngày {{visit.date}}.

## Lý do chuyển khám
{{field.reason}}

## Kết quả khám
| Lý do khám | {{visit.chief_complaint}} |
| Dấu hiệu sinh tồn | {{visit.vitals}} |
| Khám lâm sàng | {{visit.examination}} |

## Chẩn đoán
- {{visit.diagnoses}}

## Dị ứng
- {{patient.allergies}}

## Thuốc đang dùng
- {{patient.medicines}}

Xin trân trọng cảm ơn.`, []Field{text("referred_to", "Nơi chuyển đến", true), long("reason", "Lý do chuyển khám", true)}},
		{"Phiếu chỉ định xét nghiệm", "lab_request", "vi", "a4-portrait", `# Phiếu chỉ định xét nghiệm
| Bệnh nhân | {{patient.name}} |
| Ngày sinh | {{patient.birth_date}} ({{patient.age}}) |
| Giới tính | {{patient.sex}} |
| Mã bệnh nhân | {{patient.mrn}} |
| Ngày | {{visit.date}} |

## Xét nghiệm yêu cầu
- {{visit.lab_orders}}

## Chẩn đoán
- {{visit.diagnoses}}

Thông tin lâm sàng: {{field.clinical_notes}}`, []Field{long("clinical_notes", "Thông tin lâm sàng", false)}},
		{"Phiếu chỉ định chẩn đoán hình ảnh và thăm dò chức năng", "imaging_request", "vi", "a4-portrait", `# Phiếu chỉ định chẩn đoán hình ảnh và thăm dò chức năng
| Bệnh nhân | {{patient.name}} |
| Ngày sinh | {{patient.birth_date}} ({{patient.age}}) |
| Giới tính | {{patient.sex}} |
| Mã bệnh nhân | {{patient.mrn}} |
| Ngày | {{visit.date}} |

## Chỉ định
- {{visit.imaging_orders}}

## Chẩn đoán
- {{visit.diagnoses}}

Thông tin lâm sàng: {{field.clinical_notes}}`, []Field{long("clinical_notes", "Thông tin lâm sàng", false)}},
		{"Phiếu kết quả", "results_report", "vi", "a4-portrait", `# Phiếu kết quả xét nghiệm và chẩn đoán hình ảnh
| Bệnh nhân | {{patient.name}} |
| Ngày sinh | {{patient.birth_date}} ({{patient.age}}) |
| Giới tính | {{patient.sex}} |
| Mã bệnh nhân | {{patient.mrn}} |
| Ngày khám | {{visit.date}} |
| Bác sĩ | {{doctor.name}} |

## Kết quả
- {{visit.results}}

Cờ và khoảng tham chiếu là những giá trị áp dụng khi nhập từng kết quả.
Cấp ngày {{today}}, số {{document.number}}.`, nil},
		{"Tóm tắt lần khám", "visit_summary", "vi", "a4-portrait", `# Tóm tắt lần khám
| Bệnh nhân | {{patient.name}} |
| Ngày sinh | {{patient.birth_date}} ({{patient.age}}) |
| Mã bệnh nhân | {{patient.mrn}} |
| Ngày khám | {{visit.date}} |

## Lý do khám
{{visit.chief_complaint}}
## Bệnh sử
{{visit.present_illness}}
## Dấu hiệu sinh tồn
{{visit.vitals}}
## Khám lâm sàng
{{visit.examination}}
## Chẩn đoán
- {{visit.diagnoses}}

## Dị ứng
- {{patient.allergies}}

## Thuốc đang dùng
- {{patient.medicines}}
## Thuốc ngừng trong lần khám này
- {{visit.medicines_stopped}}
## Chỉ định cận lâm sàng
- {{visit.orders}}
## Kết quả cận lâm sàng
- {{visit.results}}
## Kế hoạch điều trị
{{visit.plan}}

Tái khám: {{visit.follow_up}}
## Chỉnh sửa bổ sung
- {{visit.amendments}}`, nil},
		{"Immunisation card (A6)", "immunisation_card", "en", "a6-portrait", `# Immunisation card
| Child | **{{patient.name}}** |
| Born | {{patient.birth_date}} |
| Sex | {{patient.sex}} |
| Patient no. | {{patient.mrn}} |

## Vaccinations
{{patient.immunisations}}

{{clinic.name}}, {{clinic.phone}}. Issued on {{today}}, no. {{document.number}}.`, nil},
		{"Immunisation card (A5)", "immunisation_card", "en", "a5-portrait", `# Immunisation card
| Child | **{{patient.name}}** |
| Born | {{patient.birth_date}} |
| Sex | {{patient.sex}} |
| Address | {{patient.address}} |
| Patient no. | {{patient.mrn}} |

## Vaccinations
{{patient.immunisations}}

{{clinic.name}}, {{clinic.phone}}. Issued on {{today}}, no. {{document.number}}.`, nil},
		{"Выписка о профилактических прививках (A6)", "immunisation_card", "ru", "a6-portrait", `# Выписка о профилактических прививках
| Ребёнок | **{{patient.name}}** |
| Дата рождения | {{patient.birth_date}} |
| Пол | {{patient.sex}} |
| № карты | {{patient.mrn}} |

## Прививки
{{patient.immunisations}}

{{clinic.name}}, тел. {{clinic.phone}}. Выдан {{today}}, № {{document.number}}.`, nil},
		{"Выписка о профилактических прививках (A5)", "immunisation_card", "ru", "a5-portrait", `# Выписка о профилактических прививках
| Ребёнок | **{{patient.name}}** |
| Дата рождения | {{patient.birth_date}} |
| Пол | {{patient.sex}} |
| Адрес | {{patient.address}} |
| № карты | {{patient.mrn}} |

## Прививки
{{patient.immunisations}}

{{clinic.name}}, тел. {{clinic.phone}}. Выдан {{today}}, № {{document.number}}.`, nil},
		{"预防接种记录 (A6)", "immunisation_card", "zh", "a6-portrait", `# 预防接种记录
| 儿童 | **{{patient.name}}** |
| 出生日期 | {{patient.birth_date}} |
| 性别 | {{patient.sex}} |
| 病历号 | {{patient.mrn}} |

## 接种记录
{{patient.immunisations}}

{{clinic.name}}，电话 {{clinic.phone}}。签发日期 {{today}}，编号 {{document.number}}。`, nil},
		{"预防接种记录 (A5)", "immunisation_card", "zh", "a5-portrait", `# 预防接种记录
| 儿童 | **{{patient.name}}** |
| 出生日期 | {{patient.birth_date}} |
| 性别 | {{patient.sex}} |
| 地址 | {{patient.address}} |
| 病历号 | {{patient.mrn}} |

## 接种记录
{{patient.immunisations}}

{{clinic.name}}，电话 {{clinic.phone}}。签发日期 {{today}}，编号 {{document.number}}。`, nil},
		{"Phiếu tiêm chủng (A6)", "immunisation_card", "vi", "a6-portrait", `# Phiếu tiêm chủng
| Trẻ | **{{patient.name}}** |
| Ngày sinh | {{patient.birth_date}} |
| Giới tính | {{patient.sex}} |
| Mã bệnh nhân | {{patient.mrn}} |

## Các mũi đã tiêm
{{patient.immunisations}}

{{clinic.name}}, ĐT {{clinic.phone}}. Cấp ngày {{today}}, số {{document.number}}.`, nil},
		{"Phiếu tiêm chủng (A5)", "immunisation_card", "vi", "a5-portrait", `# Phiếu tiêm chủng
| Trẻ | **{{patient.name}}** |
| Ngày sinh | {{patient.birth_date}} |
| Giới tính | {{patient.sex}} |
| Địa chỉ | {{patient.address}} |
| Mã bệnh nhân | {{patient.mrn}} |

## Các mũi đã tiêm
{{patient.immunisations}}

{{clinic.name}}, ĐT {{clinic.phone}}. Cấp ngày {{today}}, số {{document.number}}.`, nil},
	}
}
