/** The link page's words in the four languages (its own, so that the page loads no catalogue). */
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
  when: string
  confirm: string
  cancel: string
  optOut: string
  optOutTitle: string
  optOutText: string
  confirmed: string
  cancelled: string
  optedOut: string
  alreadyConfirmed: string
  notBooked: string
  tooLate: (hours: number) => string
  used: string
  expired: string
  invalid: string
  failed: string
  throttled: string
  cancelAsk: string
  cancelYes: string
  keep: string
}

export const TEXTS: Record<Lang, Texts> = {
  en: {
    title: 'Your appointment',
    language: 'Language',
    loading: 'Loading…',
    when: 'Date and time',
    confirm: 'Confirm I will come',
    cancel: 'Cancel the appointment',
    optOut: 'Stop messages from the clinic',
    optOutTitle: 'Stop messages',
    optOutText: 'You will receive no more appointment messages from the clinic.',
    confirmed: 'Thank you: your appointment is confirmed.',
    cancelled: 'Your appointment is cancelled.',
    optedOut: 'Done: you will receive no more messages from us.',
    alreadyConfirmed: 'You have confirmed this appointment.',
    notBooked: 'This appointment can no longer be changed here.',
    tooLate: (h) => `It is too late to cancel here (less than ${h} h before): please call the clinic.`,
    used: 'This link has already been used. Each link works once.',
    expired: 'This link has expired.',
    invalid: 'This link is not valid. Check that it was copied in full.',
    failed: 'That did not work. Please try again, or call the clinic.',
    throttled: 'Too many tries from this connection. Please wait a few minutes.',
    cancelAsk: 'Cancel this appointment?',
    cancelYes: 'Yes, cancel it',
    keep: 'No, keep it',
  },
  ru: {
    title: 'Ваш приём',
    language: 'Язык',
    loading: 'Загрузка…',
    when: 'Дата и время',
    confirm: 'Подтверждаю, приду',
    cancel: 'Отменить приём',
    optOut: 'Не присылать сообщения клиники',
    optOutTitle: 'Отписаться',
    optOutText: 'Вы больше не будете получать сообщения клиники о приёмах.',
    confirmed: 'Спасибо: ваш приём подтверждён.',
    cancelled: 'Ваш приём отменён.',
    optedOut: 'Готово: мы больше не будем присылать вам сообщения.',
    alreadyConfirmed: 'Вы подтвердили этот приём.',
    notBooked: 'Этот приём здесь изменить уже нельзя.',
    tooLate: (h) => `Отменить здесь уже нельзя (меньше чем за ${h} ч): позвоните, пожалуйста, в клинику.`,
    used: 'Эта ссылка уже использована. Каждая ссылка действует один раз.',
    expired: 'Срок действия ссылки истёк.',
    invalid: 'Ссылка недействительна. Проверьте, что она скопирована полностью.',
    failed: 'Не получилось. Попробуйте ещё раз или позвоните в клинику.',
    throttled: 'Слишком много попыток с этого подключения. Подождите несколько минут.',
    cancelAsk: 'Отменить этот приём?',
    cancelYes: 'Да, отменить',
    keep: 'Нет, оставить',
  },
  zh: {
    title: '您的预约',
    language: '语言',
    loading: '正在加载…',
    when: '日期和时间',
    confirm: '确认我会到',
    cancel: '取消预约',
    optOut: '不再接收诊所的消息',
    optOutTitle: '退订',
    optOutText: '您将不再收到诊所的预约消息。',
    confirmed: '谢谢：您的预约已确认。',
    cancelled: '您的预约已取消。',
    optedOut: '已完成：我们将不再向您发送消息。',
    alreadyConfirmed: '您已确认此预约。',
    notBooked: '此预约已无法在此更改。',
    tooLate: (h) => `已无法在此取消（距预约不足 ${h} 小时），请致电诊所。`,
    used: '此链接已被使用。每个链接只能使用一次。',
    expired: '此链接已过期。',
    invalid: '此链接无效。请检查是否完整复制。',
    failed: '操作未成功。请重试，或致电诊所。',
    throttled: '此连接尝试次数过多。请等几分钟。',
    cancelAsk: '要取消此预约吗？',
    cancelYes: '是，取消',
    keep: '否，保留',
  },
  vi: {
    title: 'Lịch hẹn của bạn',
    language: 'Ngôn ngữ',
    loading: 'Đang tải…',
    when: 'Ngày và giờ',
    confirm: 'Xác nhận tôi sẽ đến',
    cancel: 'Hủy lịch hẹn',
    optOut: 'Ngừng nhận tin nhắn của phòng khám',
    optOutTitle: 'Ngừng nhận tin',
    optOutText: 'Bạn sẽ không nhận tin nhắn về lịch hẹn từ phòng khám nữa.',
    confirmed: 'Cảm ơn bạn: lịch hẹn đã được xác nhận.',
    cancelled: 'Lịch hẹn của bạn đã được hủy.',
    optedOut: 'Xong: chúng tôi sẽ không gửi tin nhắn cho bạn nữa.',
    alreadyConfirmed: 'Bạn đã xác nhận lịch hẹn này.',
    notBooked: 'Lịch hẹn này không thể thay đổi tại đây nữa.',
    tooLate: (h) => `Đã quá hạn hủy tại đây (còn dưới ${h} giờ): vui lòng gọi cho phòng khám.`,
    used: 'Liên kết này đã được dùng. Mỗi liên kết chỉ dùng được một lần.',
    expired: 'Liên kết này đã hết hạn.',
    invalid: 'Liên kết này không hợp lệ. Vui lòng kiểm tra đã sao chép đầy đủ.',
    failed: 'Không thực hiện được. Vui lòng thử lại hoặc gọi cho phòng khám.',
    throttled: 'Có quá nhiều lần thử từ kết nối này. Vui lòng đợi vài phút.',
    cancelAsk: 'Hủy lịch hẹn này?',
    cancelYes: 'Có, hủy lịch',
    keep: 'Không, giữ lịch',
  },
}

/** The date as the language writes it, from YYYY-MM-DD (the clinic's date, no time zone games). */
export function formatDate(lang: Lang, iso: string): string {
  const [y, m, d] = iso.split('-').map(Number)
  if (!y || !m || !d) return iso
  const date = new Date(Date.UTC(y, m - 1, d))
  const locale = { en: 'en-GB', ru: 'ru-RU', zh: 'zh-CN', vi: 'vi-VN' }[lang]
  return new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date)
}
