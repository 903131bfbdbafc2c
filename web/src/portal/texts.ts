/** The portal's words in the four languages (its own, so that the page loads no catalogue). */
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
  signInTitle: string
  byCode: string
  byAccess: string
  sendBy: string
  email: string
  sms: string
  emailAddress: string
  phoneNumber: string
  sendCode: string
  codeSent: string
  code: string
  signIn: string
  otherAddress: string
  accessCode: string
  accessHint: string
  birthDate: string
  signOut: string
  signedOut: string
  whose: string
  childRecord: string
  appointments: string
  bills: string
  contact: string
  upcoming: string
  past: string
  noUpcoming: string
  noPast: string
  doctor: string
  status: Record<string, string>
  confirmed: string
  cancel: string
  cancelAsk: string
  cancelYes: string
  keep: string
  cancelled: string
  tooLate: (hours: number) => string
  move: string
  moveTitle: string
  moveDay: string
  dayBefore: string
  dayAfter: string
  freeTimes: (day: string) => string
  noTimes: string
  moveTo: (day: string, time: string) => string
  chooseTime: string
  keepTime: string
  moved: (day: string, time: string) => string
  nothingOwed: string
  owed: (amount: string) => string
  noBills: string
  newestShown: (shown: number, all: number) => string
  bill: string
  issued: string
  toPay: string
  settled: string
  lineDiscount: (amount: string) => string
  subtotal: string
  discount: string
  total: string
  credited: string
  paidNet: string
  balanceDue: string
  voided: string
  voidNote: string
  receipts: string
  paymentReceipt: string
  refundSlip: string
  received: string
  refundCredited: (credit: string) => string
  creditNote: (credit: string) => string
  refundStillOwed: string
  notTaxInvoice: string
  phone: string
  notGiven: string
  contactAtDesk: string
  contactGuardian: string
  reminders: string
  remindersBy: Record<'email' | 'sms' | 'none', string>
  messageLanguage: string
  clinicLanguage: string
  save: string
  saved: string
  sessionsTitle: string
  thisDevice: string
  byCodeTo: (address: string) => string
  byAccessCode: string
  signedInAt: (when: string) => string
  lastUsed: (when: string) => string
  endOthers: string
  endedOthers: (n: number) => string
  stale: string
  failed: string
}

export const TEXTS: Record<Lang, Texts> = {
  en: {
    title: 'Patient portal',
    language: 'Language',
    loading: 'Loading…',
    signInTitle: 'Sign in',
    byCode: 'Code by e-mail or text',
    byAccess: 'Access code',
    sendBy: 'Send me a code by',
    email: 'E-mail',
    sms: 'Text message',
    emailAddress: 'E-mail address',
    phoneNumber: 'Phone number',
    sendCode: 'Send the code',
    codeSent: 'If this address is on file at the clinic, a 6-digit code is on its way. It is valid for 10 minutes.',
    code: '6-digit code',
    signIn: 'Sign in',
    otherAddress: 'Use another address',
    accessCode: 'Access code',
    accessHint: 'Printed on your visit summary or invitation, for example ABCD-EFGH-JKMN.',
    birthDate: 'Date of birth',
    signOut: 'Sign out',
    signedOut: 'You are signed out. Sign in again to continue.',
    whose: 'Record',
    childRecord: '(as guardian)',
    appointments: 'Appointments',
    bills: 'Bills and payments',
    contact: 'Contact and reminders',
    upcoming: 'Upcoming',
    past: 'Past',
    noUpcoming: 'No upcoming appointments.',
    noPast: 'No past appointments.',
    doctor: 'Doctor',
    status: { booked: 'Booked', arrived: 'Arrived', in_progress: 'In progress', completed: 'Completed', cancelled: 'Cancelled', no_show: 'Missed' },
    confirmed: 'Confirmed',
    cancel: 'Cancel this appointment',
    cancelAsk: 'Cancel this appointment?',
    cancelYes: 'Yes, cancel it',
    keep: 'Keep it',
    cancelled: 'The appointment is cancelled.',
    tooLate: (h) => `Cancelling online ends ${h} hours before the appointment: please call the clinic.`,
    move: 'Change time',
    moveTitle: 'Choose a new time',
    moveDay: 'Day',
    dayBefore: 'Day before',
    dayAfter: 'Day after',
    freeTimes: (day) => `Free times on ${day}`,
    noTimes: 'No free times on this day. Try another day, or call the clinic.',
    moveTo: (day, time) => `Move to ${day}, ${time}`,
    chooseTime: 'Choose a time',
    keepTime: 'Keep the current time',
    moved: (day, time) => `The appointment is moved to ${day}, ${time}.`,
    nothingOwed: 'You owe nothing.',
    owed: (a) => `Balance to pay on all bills: ${a}`,
    noBills: 'No bills yet.',
    newestShown: (n, all) => `The newest ${n} of ${all} bills are shown; the balance counts them all.`,
    bill: 'Bill',
    issued: 'Issued',
    toPay: 'To pay',
    settled: 'Nothing to pay',
    lineDiscount: (a) => `after a discount of ${a}`,
    subtotal: 'Subtotal',
    discount: 'Discount',
    total: 'Total',
    credited: 'Credited (services not given)',
    paidNet: 'Paid (less money given back)',
    balanceDue: 'Balance to pay',
    voided: 'Withdrawn',
    voidNote: 'This bill was withdrawn: there is nothing to pay on it.',
    receipts: 'Payments and refunds',
    paymentReceipt: 'Payment receipt',
    refundSlip: 'Refund slip',
    received: 'Payment received',
    refundCredited: (c) => `Refund for a service not given: ${c} taken off the bill`,
    creditNote: (c) => `Credit for a service not given: ${c} taken off the bill, no money given back`,
    refundStillOwed: 'Money given back, still owed: to be paid another way',
    notTaxInvoice: 'These are the clinic’s bills and payment records, not tax invoices; ask at the desk for a tax document.',
    phone: 'Phone',
    notGiven: 'None',
    contactAtDesk: 'Your phone number and e-mail are how you sign in: they are changed at the clinic’s front desk.',
    contactGuardian: 'A guardian cannot change a child’s contact details or reminders here: the clinic’s front desk can.',
    reminders: 'Appointment reminders',
    remindersBy: { email: 'By e-mail', sms: 'By text message', none: 'No reminders' },
    messageLanguage: 'Language of messages',
    clinicLanguage: "The clinic's",
    save: 'Save',
    saved: 'Saved.',
    sessionsTitle: 'Where you are signed in',
    thisDevice: 'This device',
    byCodeTo: (a) => `Code sent to ${a}`,
    byAccessCode: 'Access code',
    signedInAt: (w) => `Signed in ${w}`,
    lastUsed: (w) => `last used ${w}`,
    endOthers: 'Sign out everywhere else',
    endedOthers: (n) => (n === 0 ? 'You were signed in only here.' : n === 1 ? 'Signed out on 1 other device.' : `Signed out on ${n} other devices.`),
    stale: 'Your details were changed meanwhile: they are shown again. Check them and save again.',
    failed: 'Something went wrong. Please try again.',
  },
  ru: {
    title: 'Портал пациента',
    language: 'Язык',
    loading: 'Загрузка…',
    signInTitle: 'Вход',
    byCode: 'Код по эл. почте или SMS',
    byAccess: 'Код доступа',
    sendBy: 'Прислать код',
    email: 'По эл. почте',
    sms: 'По SMS',
    emailAddress: 'Адрес эл. почты',
    phoneNumber: 'Номер телефона',
    sendCode: 'Прислать код',
    codeSent: 'Если этот адрес есть в клинике, на него отправлен 6-значный код. Он действует 10 минут.',
    code: 'Код из 6 цифр',
    signIn: 'Войти',
    otherAddress: 'Другой адрес',
    accessCode: 'Код доступа',
    accessHint: 'Напечатан в выписке о приёме или в приглашении, например ABCD-EFGH-JKMN.',
    birthDate: 'Дата рождения',
    signOut: 'Выйти',
    signedOut: 'Вы вышли из портала. Войдите снова, чтобы продолжить.',
    whose: 'Карта',
    childRecord: '(как представитель)',
    appointments: 'Приёмы',
    bills: 'Счета и оплаты',
    contact: 'Контакты и напоминания',
    upcoming: 'Предстоящие',
    past: 'Прошедшие',
    noUpcoming: 'Предстоящих приёмов нет.',
    noPast: 'Прошедших приёмов нет.',
    doctor: 'Врач',
    status: { booked: 'Записан', arrived: 'Пришёл', in_progress: 'Идёт приём', completed: 'Завершён', cancelled: 'Отменён', no_show: 'Неявка' },
    confirmed: 'Подтверждён',
    cancel: 'Отменить запись',
    cancelAsk: 'Отменить эту запись?',
    cancelYes: 'Да, отменить',
    keep: 'Оставить',
    cancelled: 'Запись отменена.',
    tooLate: (h) => `Отменить запись онлайн можно не позднее чем за ${h} ч до приёма: позвоните в клинику.`,
    move: 'Перенести запись',
    moveTitle: 'Выберите новое время',
    moveDay: 'Дата',
    dayBefore: 'Предыдущий день',
    dayAfter: 'Следующий день',
    freeTimes: (day) => `Доступное время на ${day}`,
    noTimes: 'На этот день нет свободного времени для записи. Выберите другой день или позвоните в клинику.',
    moveTo: (day, time) => `Перенести на ${day}, ${time}`,
    chooseTime: 'Выберите время',
    keepTime: 'Оставить прежнее время',
    moved: (day, time) => `Запись перенесена на ${day}, ${time}.`,
    nothingOwed: 'Задолженности нет.',
    owed: (a) => `Остаток к оплате по всем счетам: ${a}`,
    noBills: 'Счетов пока нет.',
    newestShown: (n, all) => `Показаны последние счета: ${n} из ${all}. Остаток к оплате учитывает все.`,
    bill: 'Счёт',
    issued: 'Выставлен',
    toPay: 'К оплате',
    settled: 'Оплачивать нечего',
    lineDiscount: (a) => `со скидкой ${a}`,
    subtotal: 'Итого по услугам',
    discount: 'Скидка',
    total: 'Итого',
    credited: 'Уменьшение счёта (услуги не оказаны)',
    paidNet: 'Оплачено (за вычетом возвратов)',
    balanceDue: 'Остаток к оплате',
    voided: 'Аннулирован',
    voidNote: 'Счёт аннулирован: оплачивать по нему ничего не нужно.',
    receipts: 'Оплаты и возвраты',
    paymentReceipt: 'Квитанция об оплате',
    refundSlip: 'Квитанция о возврате',
    received: 'Оплата получена',
    refundCredited: (c) => `Возврат за неоказанную услугу: счёт уменьшен на ${c}`,
    creditNote: (c) => `Уменьшение счёта за неоказанную услугу на ${c}, деньги не возвращались`,
    refundStillOwed: 'Деньги возвращены, сумма снова к оплате: оплатить другим способом',
    notTaxInvoice: 'Это счета клиники и сведения об оплате, а не кассовый чек; справку об оплате медицинских услуг выдают в регистратуре.',
    phone: 'Телефон',
    notGiven: 'Не указан',
    contactAtDesk: 'По телефону и адресу эл. почты вы входите в кабинет, поэтому их меняют в регистратуре клиники.',
    contactGuardian: 'Родитель или представитель не может изменить здесь контакты и напоминания ребёнка — это делают в регистратуре клиники.',
    reminders: 'Напоминания о приёмах',
    remindersBy: { email: 'По эл. почте', sms: 'По SMS', none: 'Не присылать' },
    messageLanguage: 'Язык сообщений',
    clinicLanguage: 'Язык клиники',
    save: 'Сохранить',
    saved: 'Сохранено.',
    sessionsTitle: 'Где выполнен вход',
    thisDevice: 'Это устройство',
    byCodeTo: (a) => `Вход по коду на ${a}`,
    byAccessCode: 'Вход по коду доступа',
    signedInAt: (w) => `Вход: ${w}`,
    lastUsed: (w) => `последнее действие: ${w}`,
    endOthers: 'Выйти на всех других устройствах',
    endedOthers: (n) =>
      n === 0 ? 'Вход выполнен только на этом устройстве.' : `Выход выполнен на ${n} ${n % 10 === 1 && n % 100 !== 11 ? 'другом устройстве' : 'других устройствах'}.`,
    stale: 'Ваши данные тем временем изменились и показаны заново. Проверьте их и сохраните ещё раз.',
    failed: 'Что-то пошло не так. Попробуйте ещё раз.',
  },
  zh: {
    title: '患者门户',
    language: '语言',
    loading: '加载中…',
    signInTitle: '登录',
    byCode: '通过电子邮件或短信获取验证码',
    byAccess: '访问码',
    sendBy: '验证码发送方式',
    email: '电子邮件',
    sms: '短信',
    emailAddress: '电子邮件地址',
    phoneNumber: '手机号码',
    sendCode: '发送验证码',
    codeSent: '如果诊所登记了此地址，6 位验证码已发出，10 分钟内有效。',
    code: '6 位验证码',
    signIn: '登录',
    otherAddress: '使用其他地址',
    accessCode: '访问码',
    accessHint: '印在您的就诊小结或邀请函上，例如 ABCD-EFGH-JKMN。',
    birthDate: '出生日期',
    signOut: '退出',
    signedOut: '您已退出登录。请重新登录以继续。',
    whose: '病历',
    childRecord: '（监护人）',
    appointments: '预约',
    bills: '账单和付款',
    contact: '联系方式和提醒',
    upcoming: '即将到来',
    past: '过去的',
    noUpcoming: '没有即将到来的预约。',
    noPast: '没有过去的预约。',
    doctor: '医生',
    status: { booked: '已预约', arrived: '已到诊', in_progress: '就诊中', completed: '已完成', cancelled: '已取消', no_show: '未到诊' },
    confirmed: '已确认',
    cancel: '取消此预约',
    cancelAsk: '确定取消此预约？',
    cancelYes: '是，取消',
    keep: '保留',
    cancelled: '预约已取消。',
    tooLate: (h) => `在线取消须在预约前 ${h} 小时之前：请致电诊所。`,
    move: '更改时间',
    moveTitle: '选择新的时间',
    moveDay: '日期',
    dayBefore: '前一天',
    dayAfter: '后一天',
    freeTimes: (day) => `${day}可预约的时间`,
    noTimes: '当天已无可预约时间。请选择其他日期，或致电诊所。',
    moveTo: (day, time) => `改为 ${day} ${time}`,
    chooseTime: '请选择时间',
    keepTime: '保留原时间',
    moved: (day, time) => `预约已改为 ${day} ${time}。`,
    nothingOwed: '您没有欠款。',
    owed: (a) => `全部账单待付金额：${a}`,
    noBills: '暂无账单。',
    newestShown: (n, all) => `显示最近的 ${n} 张账单（共 ${all} 张）；待付金额包含全部账单。`,
    bill: '账单',
    issued: '开具日期',
    toPay: '待付',
    settled: '无需支付',
    lineDiscount: (a) => `已优惠 ${a}`,
    subtotal: '小计',
    discount: '折扣',
    total: '合计',
    credited: '冲减（未提供的服务）',
    paidNet: '已付（扣除退还款项）',
    balanceDue: '待付金额',
    voided: '已作废',
    voidNote: '此账单已作废，无需支付。',
    receipts: '付款和退款',
    paymentReceipt: '付款收据',
    refundSlip: '退款单',
    received: '已收款',
    refundCredited: (c) => `未提供服务的退款：账单冲减 ${c}`,
    creditNote: (c) => `未提供服务的冲减：账单冲减 ${c}，未退还款项`,
    refundStillOwed: '款项已退还，仍需支付：请以其他方式支付',
    notTaxInvoice: '以上为诊所账单和付款记录，不是发票或医疗收费票据；如需票据请到前台办理。',
    phone: '电话',
    notGiven: '未填写',
    contactAtDesk: '电话号码和电子邮件地址用于登录，需在诊所前台更改。',
    contactGuardian: '监护人无法在此更改孩子的联系方式或提醒设置，请到诊所前台办理。',
    reminders: '预约提醒',
    remindersBy: { email: '通过电子邮件', sms: '通过短信', none: '不提醒' },
    messageLanguage: '消息语言',
    clinicLanguage: '诊所默认',
    save: '保存',
    saved: '已保存。',
    sessionsTitle: '登录设备',
    thisDevice: '本设备',
    byCodeTo: (a) => `通过发送至 ${a} 的验证码登录`,
    byAccessCode: '通过访问码登录',
    signedInAt: (w) => `登录于 ${w}`,
    lastUsed: (w) => `最近使用 ${w}`,
    endOthers: '在其他所有设备上退出',
    endedOthers: (n) => (n === 0 ? '您仅在本设备上登录。' : `已在 ${n} 台其他设备上退出。`),
    stale: '您的信息在此期间已被更改，现已重新显示。请核对后再次保存。',
    failed: '出错了。请重试。',
  },
  vi: {
    title: 'Cổng bệnh nhân',
    language: 'Ngôn ngữ',
    loading: 'Đang tải…',
    signInTitle: 'Đăng nhập',
    byCode: 'Mã qua email hoặc tin nhắn',
    byAccess: 'Mã truy cập',
    sendBy: 'Gửi mã cho tôi qua',
    email: 'Email',
    sms: 'Tin nhắn SMS',
    emailAddress: 'Địa chỉ email',
    phoneNumber: 'Số điện thoại',
    sendCode: 'Gửi mã',
    codeSent: 'Nếu địa chỉ này có trong hồ sơ của phòng khám, mã 6 chữ số đang được gửi đến. Mã có hiệu lực trong 10 phút.',
    code: 'Mã 6 chữ số',
    signIn: 'Đăng nhập',
    otherAddress: 'Dùng địa chỉ khác',
    accessCode: 'Mã truy cập',
    accessHint: 'In trên bản tóm tắt khám bệnh hoặc thư mời, ví dụ ABCD-EFGH-JKMN.',
    birthDate: 'Ngày sinh',
    signOut: 'Đăng xuất',
    signedOut: 'Bạn đã đăng xuất. Vui lòng đăng nhập lại để tiếp tục.',
    whose: 'Hồ sơ',
    childRecord: '(người giám hộ)',
    appointments: 'Lịch hẹn',
    bills: 'Phiếu thanh toán',
    contact: 'Liên hệ và nhắc lịch',
    upcoming: 'Sắp tới',
    past: 'Đã qua',
    noUpcoming: 'Không có lịch hẹn sắp tới.',
    noPast: 'Không có lịch hẹn đã qua.',
    doctor: 'Bác sĩ',
    status: { booked: 'Đã đặt', arrived: 'Đã đến', in_progress: 'Đang khám', completed: 'Đã khám', cancelled: 'Đã hủy', no_show: 'Không đến' },
    confirmed: 'Đã xác nhận',
    cancel: 'Hủy lịch hẹn này',
    cancelAsk: 'Hủy lịch hẹn này?',
    cancelYes: 'Có, hủy lịch',
    keep: 'Giữ lại',
    cancelled: 'Lịch hẹn đã được hủy.',
    tooLate: (h) => `Chỉ có thể hủy trực tuyến trước giờ hẹn ${h} giờ: vui lòng gọi cho phòng khám.`,
    move: 'Đổi giờ',
    moveTitle: 'Chọn giờ mới',
    moveDay: 'Ngày',
    dayBefore: 'Ngày hôm trước',
    dayAfter: 'Ngày hôm sau',
    freeTimes: (day) => `Giờ còn trống vào ${day}`,
    noTimes: 'Ngày này không còn giờ trống. Vui lòng chọn ngày khác hoặc gọi cho phòng khám.',
    moveTo: (day, time) => `Đổi sang ${time}, ${day}`,
    chooseTime: 'Vui lòng chọn giờ',
    keepTime: 'Giữ giờ hiện tại',
    moved: (day, time) => `Lịch hẹn đã được đổi sang ${time}, ${day}.`,
    nothingOwed: 'Bạn không còn phải trả khoản nào.',
    owed: (a) => `Còn phải trả trên tất cả phiếu thanh toán: ${a}`,
    noBills: 'Chưa có phiếu thanh toán.',
    newestShown: (n, all) => `Đang hiển thị ${n} phiếu thanh toán gần nhất trong tổng số ${all}; số tiền còn phải trả tính cả những phiếu không hiển thị.`,
    bill: 'Phiếu thanh toán',
    issued: 'Ngày lập',
    toPay: 'Còn phải trả',
    settled: 'Không còn phải trả',
    lineDiscount: (a) => `đã giảm giá ${a}`,
    subtotal: 'Tạm tính',
    discount: 'Giảm giá',
    total: 'Tổng cộng',
    credited: 'Ghi giảm (dịch vụ không thực hiện)',
    paidNet: 'Đã trả (trừ tiền đã hoàn)',
    balanceDue: 'Còn phải trả',
    voided: 'Đã hủy',
    voidNote: 'Phiếu thanh toán này đã hủy: không phải trả khoản nào.',
    receipts: 'Thanh toán và hoàn tiền',
    paymentReceipt: 'Biên lai thu tiền',
    refundSlip: 'Phiếu chi hoàn tiền',
    received: 'Đã thu tiền',
    refundCredited: (c) => `Hoàn tiền cho dịch vụ không thực hiện: ghi giảm ${c} trên phiếu`,
    creditNote: (c) => `Ghi giảm cho dịch vụ không thực hiện: ghi giảm ${c} trên phiếu, không hoàn tiền`,
    refundStillOwed: 'Đã hoàn tiền, vẫn phải trả: vui lòng thanh toán bằng cách khác',
    notTaxInvoice: 'Đây là phiếu thanh toán và chứng từ ghi nhận thanh toán của phòng khám, không phải hóa đơn; vui lòng hỏi quầy tiếp đón nếu cần hóa đơn.',
    phone: 'Điện thoại',
    notGiven: 'Chưa có',
    contactAtDesk: 'Số điện thoại và email dùng để đăng nhập, vì vậy chỉ được thay đổi tại quầy lễ tân của phòng khám.',
    contactGuardian: 'Người giám hộ không thể thay đổi thông tin liên hệ hay nhắc lịch của trẻ tại đây. Vui lòng liên hệ quầy lễ tân của phòng khám.',
    reminders: 'Nhắc lịch hẹn',
    remindersBy: { email: 'Qua email', sms: 'Qua tin nhắn SMS', none: 'Không nhắc' },
    messageLanguage: 'Ngôn ngữ tin nhắn',
    clinicLanguage: 'Theo phòng khám',
    save: 'Lưu',
    saved: 'Đã lưu.',
    sessionsTitle: 'Nơi bạn đang đăng nhập',
    thisDevice: 'Thiết bị này',
    byCodeTo: (a) => `Đăng nhập bằng mã gửi tới ${a}`,
    byAccessCode: 'Đăng nhập bằng mã truy cập',
    signedInAt: (w) => `Đăng nhập lúc ${w}`,
    lastUsed: (w) => `lần dùng gần nhất lúc ${w}`,
    endOthers: 'Đăng xuất ở mọi nơi khác',
    endedOthers: (n) => (n === 0 ? 'Bạn chỉ đăng nhập ở đây.' : `Đã đăng xuất trên ${n} thiết bị khác.`),
    stale: 'Thông tin của bạn vừa được thay đổi và đã hiển thị lại. Vui lòng kiểm tra và lưu lại.',
    failed: 'Đã có lỗi. Vui lòng thử lại.',
  },
}

const LOCALES: Record<Lang, string> = { en: 'en-GB', ru: 'ru-RU', zh: 'zh-CN', vi: 'vi-VN' }

/** A clinic's day (YYYY-MM-DD) written out in lang. */
export function formatDate(lang: Lang, iso: string): string {
  const [y, m, d] = iso.split('-').map(Number)
  if (!y || !m || !d) return iso
  return new Intl.DateTimeFormat(LOCALES[lang], { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, d)))
}

/** A moment's date and time in lang (a session's sign-in). */
export function formatMoment(lang: Lang, at: string): string {
  const d = new Date(at)
  return Number.isNaN(d.getTime()) ? at : new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium', timeStyle: 'short' }).format(d)
}

/** A moment's day in lang. */
export function formatDay(lang: Lang, at: string): string {
  const d = new Date(at)
  return Number.isNaN(d.getTime()) ? at : new Intl.DateTimeFormat(LOCALES[lang], { day: 'numeric', month: 'short', year: 'numeric' }).format(d)
}

/** An amount in minor units, in the clinic's currency, as lang writes money. */
export function formatMoney(lang: Lang, amount: number, currency: string, minor: number): string {
  try {
    return new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency, minimumFractionDigits: minor, maximumFractionDigits: minor }).format(amount / 10 ** minor)
  } catch {
    return `${(amount / 10 ** minor).toFixed(minor)} ${currency}`
  }
}

/** The words of the Results and Documents sections (released results and documents, ADR 44). */
export interface ReleasedTexts {
  results: string
  documents: string
  noResults: string
  noDocuments: string
  limited: string
  /** In the adolescent's view: no prescription is listed (given in person). */
  limitedRx: string
  showValues: string
  hideValues: string
  test: string
  value: string
  range: string
  corrected: string
  prescription: string
  document: string
  open: string
  back: string
  print: string
  printHint: string
  issued: string
  rxNumber: (n: number) => string
  patient: string
  diagnoses: string
  prescriber: string
  licence: string
  quantity: string
  refills: string
}

export const RELEASED_TEXTS: Record<Lang, ReleasedTexts> = {
  en: {
    results: 'Results',
    documents: 'Documents',
    noResults: 'No results to show. A result appears here once your doctor has reviewed it.',
    noDocuments: 'No documents to show.',
    limited: 'Some results and documents of a young person aged 12 to 17 are given in person at the clinic and are not shown here.',
    limitedRx: 'Prescriptions of a young person aged 12 to 17 are not shown here: they are given in person at the clinic.',
    showValues: 'Show the values',
    hideValues: 'Hide the values',
    test: 'Test',
    value: 'Result',
    range: 'Usual range',
    corrected: 'Corrected',
    prescription: 'Prescription',
    document: 'Document',
    open: 'Open',
    back: 'Back to the list',
    print: 'Print',
    printHint: 'To keep a PDF, press Print and choose “Save as PDF” as the printer.',
    issued: 'Issued',
    rxNumber: (n) => `Prescription no. ${n}`,
    patient: 'Patient',
    diagnoses: 'Diagnosis',
    prescriber: 'Prescribed by',
    licence: 'Licence',
    quantity: 'Quantity',
    refills: 'Refills',
  },
  ru: {
    results: 'Результаты',
    documents: 'Документы',
    noResults: 'Результатов пока нет. Результат появляется здесь после того, как его посмотрит врач.',
    noDocuments: 'Документов пока нет.',
    limited: 'Некоторые результаты и документы подростка от 12 до 17 лет сообщают лично в клинике, здесь они не показываются.',
    limitedRx: 'Рецепты подростка от 12 до 17 лет здесь не показываются: их выдают лично в клинике.',
    showValues: 'Показать значения',
    hideValues: 'Скрыть значения',
    test: 'Показатель',
    value: 'Результат',
    range: 'Норма',
    corrected: 'Исправлено',
    prescription: 'Рецепт',
    document: 'Документ',
    open: 'Открыть',
    back: 'Назад к списку',
    print: 'Распечатать',
    printHint: 'Чтобы сохранить PDF, нажмите «Распечатать» и выберите принтер «Сохранить как PDF».',
    issued: 'Дата выдачи',
    rxNumber: (n) => `Рецепт № ${n}`,
    patient: 'Пациент',
    diagnoses: 'Диагноз',
    prescriber: 'Врач',
    licence: 'Свидетельство об аккредитации',
    quantity: 'Кол-во',
    refills: 'Повторная выдача',
  },
  zh: {
    results: '检验结果',
    documents: '文书',
    noResults: '暂无可查看的结果。医生审阅后，结果会显示在这里。',
    noDocuments: '暂无可查看的文书。',
    limited: '12至17岁青少年的部分结果和文书由诊所当面告知，不在此显示。',
    limitedRx: '12至17岁青少年的处方不在此显示，由诊所当面开具。',
    showValues: '显示数值',
    hideValues: '隐藏数值',
    test: '项目',
    value: '结果',
    range: '正常范围',
    corrected: '已更正',
    prescription: '处方',
    document: '文书',
    open: '打开',
    back: '返回列表',
    print: '打印',
    printHint: '如需保存为 PDF，请点击“打印”，并选择“另存为 PDF”作为打印机。',
    issued: '开具日期',
    rxNumber: (n) => `处方号 ${n}`,
    patient: '患者',
    diagnoses: '诊断',
    prescriber: '开具医师',
    licence: '执业证书',
    quantity: '数量',
    refills: '可重复调配次数',
  },
  vi: {
    results: 'Kết quả',
    documents: 'Giấy tờ',
    noResults: 'Chưa có kết quả để hiển thị. Kết quả sẽ hiện ở đây sau khi bác sĩ đã xem.',
    noDocuments: 'Chưa có giấy tờ để hiển thị.',
    limited: 'Một số kết quả và giấy tờ của trẻ vị thành niên từ 12 đến 17 tuổi được phòng khám trao đổi trực tiếp và không hiển thị ở đây.',
    limitedRx: 'Đơn thuốc của trẻ vị thành niên từ 12 đến 17 tuổi không hiển thị ở đây: phòng khám trao trực tiếp.',
    showValues: 'Xem các chỉ số',
    hideValues: 'Ẩn các chỉ số',
    test: 'Xét nghiệm',
    value: 'Kết quả',
    range: 'Giới hạn bình thường',
    corrected: 'Đã sửa',
    prescription: 'Đơn thuốc',
    document: 'Giấy tờ',
    open: 'Mở',
    back: 'Quay lại danh sách',
    print: 'In',
    printHint: 'Để lưu bản PDF, vui lòng bấm In và chọn máy in “Lưu dưới dạng PDF”.',
    issued: 'Ngày cấp',
    rxNumber: (n) => `Đơn thuốc số ${n}`,
    patient: 'Bệnh nhân',
    diagnoses: 'Chẩn đoán',
    prescriber: 'Bác sĩ kê đơn',
    licence: 'Giấy phép hành nghề',
    quantity: 'Số lượng',
    refills: 'Số lần lĩnh lại thuốc',
  },
}
