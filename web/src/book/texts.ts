/** The booking page's words in the four languages (its own, so that the page loads no catalogue). */
export type Lang = 'en' | 'ru' | 'zh' | 'vi'
export const LANGS: { code: Lang; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'ru', name: 'Русский' },
  { code: 'zh', name: '中文' },
  { code: 'vi', name: 'Tiếng Việt' },
]

export interface Texts {
  title: string
  language: string
  loading: string
  closed: string
  failed: string
  throttled: string
  stepOf: (n: number, of: number) => string
  doctorStep: string
  anyDoctor: string
  anyDoctorHint: string
  visitType: string
  types: Record<string, string>
  next: string
  back: string
  dayStep: string
  noDays: string
  moreDays: string
  slotStep: string
  slotsOn: (day: string) => string
  detailsStep: string
  firstName: string
  lastName: string
  birthDate: string
  birthDateHint: string
  sendBy: string
  email: string
  phone: string
  emailAddress: string
  phoneNumber: string
  emailHint: string
  phoneHint: string
  required: string
  sendCode: string
  codeStep: string
  codeSent: (channel: string) => string
  code: string
  codeHint: string
  confirmCode: string
  startOver: string
  doneStep: string
  requested: string
  booked: string
  summary: string
  with: (doctor: string) => string
  slotGone: string
}

export const TEXTS: Record<Lang, Texts> = {
  en: {
    title: 'Book an appointment',
    language: 'Language',
    loading: 'Loading…',
    closed: 'Online booking is not open at the moment. Please call the clinic.',
    failed: 'That did not work. Please try again, or call the clinic.',
    throttled: 'Too many tries from this connection. Please wait a few minutes.',
    stepOf: (n, of) => `Step ${n} of ${of}`,
    doctorStep: 'Choose a doctor',
    anyDoctor: 'Any doctor',
    anyDoctorHint: 'The first free time with any doctor',
    visitType: 'Type of visit',
    types: { new: 'First visit', 'follow-up': 'Follow-up visit' },
    next: 'Next',
    back: 'Back',
    dayStep: 'Choose a day',
    noDays: 'No free times in these days.',
    moreDays: 'Later days',
    slotStep: 'Choose a time',
    slotsOn: (d) => `Free times on ${d}`,
    detailsStep: 'Your details',
    firstName: 'First name',
    lastName: 'Last name',
    birthDate: 'Date of birth',
    birthDateHint: 'So that the clinic finds your record.',
    sendBy: 'Send me a code by',
    email: 'E-mail',
    phone: 'Text message (SMS)',
    emailAddress: 'Your e-mail address',
    phoneNumber: 'Your mobile number',
    emailHint: 'For example name@example.com',
    phoneHint: 'For example +84 912 345 678',
    required: 'Please fill this in.',
    sendCode: 'Send me a code',
    codeStep: 'Enter your code',
    codeSent: (c) => `We sent a 6-digit code to ${c}. It works for 10 minutes; your time is held until then.`,
    code: 'Code',
    codeHint: '6 digits',
    confirmCode: 'Confirm the booking',
    startOver: 'Start again',
    doneStep: 'Thank you',
    requested: 'Your request has reached the clinic. The clinic will confirm it with a message to you.',
    booked: 'Your appointment is booked. You will receive a confirmation.',
    summary: 'Your appointment',
    with: (d) => `with ${d}`,
    slotGone: 'Someone has just taken this time. Please choose another.',
  },
  ru: {
    title: 'Запись на приём',
    language: 'Язык',
    loading: 'Загрузка…',
    closed: 'Онлайн-запись сейчас закрыта. Позвоните, пожалуйста, в клинику.',
    failed: 'Не получилось. Попробуйте ещё раз или позвоните в клинику.',
    throttled: 'Слишком много попыток с этого подключения. Подождите несколько минут.',
    stepOf: (n, of) => `Шаг ${n} из ${of}`,
    doctorStep: 'Выберите врача',
    anyDoctor: 'Любой врач',
    anyDoctorHint: 'Ближайшее свободное время у любого врача',
    visitType: 'Вид приёма',
    types: { new: 'Первичный приём', 'follow-up': 'Повторный приём' },
    next: 'Далее',
    back: 'Назад',
    dayStep: 'Выберите день',
    noDays: 'В эти дни свободного времени нет.',
    moreDays: 'Следующие дни',
    slotStep: 'Выберите время',
    slotsOn: (d) => `Свободное время: ${d}`,
    detailsStep: 'Ваши данные',
    firstName: 'Имя',
    lastName: 'Фамилия',
    birthDate: 'Дата рождения',
    birthDateHint: 'Чтобы клиника нашла вашу карту.',
    sendBy: 'Прислать код',
    email: 'По электронной почте',
    phone: 'В SMS',
    emailAddress: 'Ваш адрес электронной почты',
    phoneNumber: 'Номер вашего мобильного',
    emailHint: 'Например, name@example.com',
    phoneHint: 'Например, +7 912 345-67-89',
    required: 'Заполните, пожалуйста, это поле.',
    sendCode: 'Прислать код',
    codeStep: 'Введите код',
    codeSent: (c) => `Мы отправили 6-значный код на ${c}. Он действует 10 минут, и всё это время выбранное время закреплено за вами.`,
    code: 'Код',
    codeHint: '6 цифр',
    confirmCode: 'Подтвердить запись',
    startOver: 'Начать заново',
    doneStep: 'Спасибо',
    requested: 'Ваша заявка получена клиникой. Клиника подтвердит запись сообщением.',
    booked: 'Вы записаны на приём. Вам придёт подтверждение.',
    summary: 'Ваш приём',
    with: (d) => `врач: ${d}`,
    slotGone: 'Это время только что заняли. Выберите, пожалуйста, другое.',
  },
  zh: {
    title: '预约挂号',
    language: '语言',
    loading: '加载中…',
    closed: '目前暂不开放在线预约，请致电诊所。',
    failed: '操作未成功，请重试或致电诊所。',
    throttled: '此网络尝试次数过多，请稍等几分钟。',
    stepOf: (n, of) => `第 ${n} 步，共 ${of} 步`,
    doctorStep: '选择医生',
    anyDoctor: '任意医生',
    anyDoctorHint: '任意医生最早的空闲时间',
    visitType: '就诊类型',
    types: { new: '初诊', 'follow-up': '复诊' },
    next: '下一步',
    back: '返回',
    dayStep: '选择日期',
    noDays: '这些日期没有空闲时间。',
    moreDays: '更晚的日期',
    slotStep: '选择时间',
    slotsOn: (d) => `${d} 的空闲时间`,
    detailsStep: '您的信息',
    firstName: '名',
    lastName: '姓',
    birthDate: '出生日期',
    birthDateHint: '以便诊所找到您的病历。',
    sendBy: '验证码发送方式',
    email: '电子邮件',
    phone: '短信',
    emailAddress: '您的电子邮件地址',
    phoneNumber: '您的手机号码',
    emailHint: '例如 name@example.com',
    phoneHint: '例如 +86 138 0013 8000',
    required: '请填写此项。',
    sendCode: '发送验证码',
    codeStep: '输入验证码',
    codeSent: (c) => `我们已将 6 位验证码发送至 ${c}。验证码 10 分钟内有效，在此之前为您保留该时间。`,
    code: '验证码',
    codeHint: '6 位数字',
    confirmCode: '确认预约',
    startOver: '重新开始',
    doneStep: '谢谢',
    requested: '诊所已收到您的预约申请，诊所将发送消息确认。',
    booked: '您的预约已成功，稍后将收到确认消息。',
    summary: '您的预约',
    with: (d) => `医生：${d}`,
    slotGone: '该时间刚刚被预约，请选择其他时间。',
  },
  vi: {
    title: 'Đặt lịch khám',
    language: 'Ngôn ngữ',
    loading: 'Đang tải…',
    closed: 'Hiện chưa mở đặt lịch trực tuyến. Vui lòng gọi cho phòng khám.',
    failed: 'Không thực hiện được. Vui lòng thử lại hoặc gọi cho phòng khám.',
    throttled: 'Quá nhiều lần thử từ kết nối này. Vui lòng chờ vài phút.',
    stepOf: (n, of) => `Bước ${n}/${of}`,
    doctorStep: 'Chọn bác sĩ',
    anyDoctor: 'Bác sĩ bất kỳ',
    anyDoctorHint: 'Giờ trống sớm nhất với bất kỳ bác sĩ nào',
    visitType: 'Loại khám',
    types: { new: 'Khám lần đầu', 'follow-up': 'Tái khám' },
    next: 'Tiếp',
    back: 'Quay lại',
    dayStep: 'Chọn ngày',
    noDays: 'Không còn giờ trống trong những ngày này.',
    moreDays: 'Các ngày sau',
    slotStep: 'Chọn giờ',
    slotsOn: (d) => `Giờ trống ngày ${d}`,
    detailsStep: 'Thông tin của bạn',
    firstName: 'Tên',
    lastName: 'Họ',
    birthDate: 'Ngày sinh',
    birthDateHint: 'Để phòng khám tìm hồ sơ của bạn.',
    sendBy: 'Gửi mã cho tôi qua',
    email: 'E-mail',
    phone: 'Tin nhắn SMS',
    emailAddress: 'Địa chỉ e-mail của bạn',
    phoneNumber: 'Số di động của bạn',
    emailHint: 'Ví dụ name@example.com',
    phoneHint: 'Ví dụ +84 912 345 678',
    required: 'Vui lòng điền mục này.',
    sendCode: 'Gửi mã cho tôi',
    codeStep: 'Nhập mã',
    codeSent: (c) => `Chúng tôi đã gửi mã 6 chữ số tới ${c}. Mã có hiệu lực 10 phút; giờ khám được giữ cho bạn đến lúc đó.`,
    code: 'Mã',
    codeHint: '6 chữ số',
    confirmCode: 'Xác nhận đặt lịch',
    startOver: 'Bắt đầu lại',
    doneStep: 'Cảm ơn bạn',
    requested: 'Phòng khám đã nhận yêu cầu của bạn. Phòng khám sẽ nhắn tin xác nhận.',
    booked: 'Bạn đã đặt lịch thành công. Bạn sẽ nhận được tin xác nhận.',
    summary: 'Lịch khám của bạn',
    with: (d) => `với ${d}`,
    slotGone: 'Giờ này vừa có người đặt. Vui lòng chọn giờ khác.',
  },
}

const LOCALES: Record<Lang, string> = { en: 'en-GB', ru: 'ru-RU', zh: 'zh-CN', vi: 'vi-VN' }

/** A day (YYYY-MM-DD) as the language writes it, with its weekday. */
export function formatDay(lang: Lang, iso: string): string {
  const [y, m, d] = iso.split('-').map(Number)
  if (!y || !m || !d) return iso
  return new Intl.DateTimeFormat(LOCALES[lang], { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)))
}
