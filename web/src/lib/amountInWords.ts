// An amount of money in words, as a receipt writes it beside the figures so that neither can
// be changed alone: "сумма прописью", 大写金额, "số tiền bằng chữ", and in English.

const EN_ONES = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen']
const EN_TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']
const EN_SCALES = ['', 'thousand', 'million', 'billion', 'trillion']

/** Splits n into groups of three digits, lowest first. */
function groups(n: number): number[] {
  const out: number[] = []
  do {
    out.push(n % 1000)
    n = Math.floor(n / 1000)
  } while (n > 0)
  return out
}

function en(n: number): string {
  if (n === 0) return 'zero'
  const three = (g: number) => {
    const parts: string[] = []
    if (g >= 100) parts.push(`${EN_ONES[Math.floor(g / 100)]} hundred`)
    const r = g % 100
    if (r >= 20) parts.push(EN_TENS[Math.floor(r / 10)] + (r % 10 ? `-${EN_ONES[r % 10]}` : ''))
    else if (r > 0) parts.push(EN_ONES[r])
    return parts.join(' ')
  }
  return groups(n)
    .map((g, i) => (g ? `${three(g)}${EN_SCALES[i] ? ` ${EN_SCALES[i]}` : ''}` : ''))
    .filter(Boolean)
    .reverse()
    .join(' ')
}

const RU_ONES_M = ['', 'один', 'два', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять']
const RU_ONES_F = ['', 'одна', 'две', 'три', 'четыре', 'пять', 'шесть', 'семь', 'восемь', 'девять']
const RU_TEENS = ['десять', 'одиннадцать', 'двенадцать', 'тринадцать', 'четырнадцать', 'пятнадцать', 'шестнадцать', 'семнадцать', 'восемнадцать', 'девятнадцать']
const RU_TENS = ['', '', 'двадцать', 'тридцать', 'сорок', 'пятьдесят', 'шестьдесят', 'семьдесят', 'восемьдесят', 'девяносто']
const RU_HUNDREDS = ['', 'сто', 'двести', 'триста', 'четыреста', 'пятьсот', 'шестьсот', 'семьсот', 'восемьсот', 'девятьсот']
// one, few, many; thousands are feminine.
const RU_SCALES: [string, string, string][] = [
  ['', '', ''],
  ['тысяча', 'тысячи', 'тысяч'],
  ['миллион', 'миллиона', 'миллионов'],
  ['миллиард', 'миллиарда', 'миллиардов'],
  ['триллион', 'триллиона', 'триллионов'],
]

function ruForm(n: number): 0 | 1 | 2 {
  if (n % 100 >= 11 && n % 100 <= 19) return 2
  if (n % 10 === 1) return 0
  return n % 10 >= 2 && n % 10 <= 4 ? 1 : 2
}

/** n in Russian words; feminine units agree with a feminine noun after them (одна гривна). */
function ru(n: number, feminine = false): string {
  if (n === 0) return 'ноль'
  return groups(n)
    .map((g, i) => {
      if (!g) return ''
      const ones = i === 1 || (i === 0 && feminine) ? RU_ONES_F : RU_ONES_M
      const r = g % 100
      const words = [RU_HUNDREDS[Math.floor(g / 100)], r >= 10 && r < 20 ? RU_TEENS[r - 10] : `${RU_TENS[Math.floor(r / 10)]} ${ones[r % 10]}`.trim(), RU_SCALES[i][ruForm(g)]]
      return words.filter(Boolean).join(' ')
    })
    .filter(Boolean)
    .reverse()
    .join(' ')
}

/**
 * Currencies by their Russian names as an amount in words writes them: the forms after one,
 * two to four and five (рубль, рубля, рублей; ruForm picks one), whether the name is
 * feminine, and the minor unit's forms. Names from the all-Russian classifier of currencies
 * (ОКВ, ОК 014-2000), as Russian accounting writes them.
 */
const RU_CURRENCIES: Record<string, { name: [string, string, string]; feminine?: boolean; minor?: [string, string, string] }> = {
  RUB: { name: ['рубль', 'рубля', 'рублей'], minor: ['копейка', 'копейки', 'копеек'] },
  BYN: { name: ['белорусский рубль', 'белорусских рубля', 'белорусских рублей'], minor: ['копейка', 'копейки', 'копеек'] },
  UAH: { name: ['гривна', 'гривны', 'гривен'], feminine: true, minor: ['копейка', 'копейки', 'копеек'] },
  KZT: { name: ['тенге', 'тенге', 'тенге'], minor: ['тиын', 'тиына', 'тиынов'] },
  USD: { name: ['доллар США', 'доллара США', 'долларов США'], minor: ['цент', 'цента', 'центов'] },
  EUR: { name: ['евро', 'евро', 'евро'], minor: ['цент', 'цента', 'центов'] },
  CNY: { name: ['китайский юань', 'китайских юаня', 'китайских юаней'], minor: ['фэнь', 'фэня', 'фэней'] },
  VND: { name: ['вьетнамский донг', 'вьетнамских донга', 'вьетнамских донгов'] },
}

/**
 * A Russian amount in words: the whole units in words with the currency's name agreeing with
 * them, the minor units as two digits with theirs («Двадцать один рубль 89 копеек»); in
 * figures for a currency without a Russian name here.
 */
function ruAmount(major: number, minor: number, currency: string, units: number): string {
  const c = RU_CURRENCIES[currency]
  if (!c || (units > 0 && !c.minor)) {
    const f = new Intl.NumberFormat('ru', { style: 'currency', currency, currencyDisplay: 'code', minimumFractionDigits: units, maximumFractionDigits: units })
    return f.format(Number(`${major}.${String(minor).padStart(units, '0')}`))
  }
  const whole = capital(`${ru(major, c.feminine)} ${c.name[ruForm(major)]}`)
  return units > 0 && c.minor ? `${whole} ${String(minor).padStart(units, '0')} ${c.minor[ruForm(minor)]}` : whole
}

const VI_DIGITS = ['không', 'một', 'hai', 'ba', 'bốn', 'năm', 'sáu', 'bảy', 'tám', 'chín']
const VI_SCALES = ['', 'nghìn', 'triệu', 'tỷ', 'nghìn tỷ']

function vi(n: number): string {
  if (n === 0) return 'không'
  const gs = groups(n)
  const three = (g: number, full: boolean) => {
    const h = Math.floor(g / 100)
    const t = Math.floor((g % 100) / 10)
    const u = g % 10
    const parts: string[] = []
    if (full || h > 0) parts.push(`${VI_DIGITS[h]} trăm`)
    if (t > 1) parts.push(`${VI_DIGITS[t]} mươi`)
    else if (t === 1) parts.push('mười')
    else if (u > 0 && (full || h > 0)) parts.push('lẻ')
    if (u > 0) parts.push(u === 1 && t > 1 ? 'mốt' : u === 5 && t > 0 ? 'lăm' : VI_DIGITS[u])
    return parts.join(' ')
  }
  // A group after a higher one is read in full ("một triệu không trăm lẻ năm nghìn").
  return gs
    .map((g, i) => (g ? `${three(g, i < gs.length - 1)}${VI_SCALES[i] ? ` ${VI_SCALES[i]}` : ''}` : ''))
    .filter(Boolean)
    .reverse()
    .join(' ')
}

const ZH_DIGITS = '零壹贰叁肆伍陆柒捌玖'
const ZH_UNITS = ['', '拾', '佰', '仟']
const ZH_SECTIONS = ['', '万', '亿', '万亿']

/** n in the financial capitals (大写), with zeros read as a cashier writes them. */
function zh(n: number): string {
  if (n === 0) return '零'
  const sections: number[] = []
  for (let m = n; m > 0; m = Math.floor(m / 10000)) sections.push(m % 10000)
  let out = ''
  let zero = false // a zero waits to be written before the next digit
  for (let s = sections.length - 1; s >= 0; s--) {
    const sec = sections[s]
    if (sec === 0) {
      zero = out !== ''
      continue
    }
    const digits = String(sec).padStart(4, '0')
    for (let i = 0; i < 4; i++) {
      const d = Number(digits[i])
      if (d === 0) {
        zero = out !== ''
        continue
      }
      if (zero) out += '零'
      zero = false
      out += ZH_DIGITS[d] + ZH_UNITS[3 - i]
    }
    out += ZH_SECTIONS[s]
  }
  return out
}

const capital = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1)

/**
 * amount (in minor units of currency, units of them to the major one) in words in lang's
 * way: "One hundred twenty thousand VND", «Сто двадцать тысяч вьетнамских донгов»,
 * «壹拾贰万越南盾整» (the yuan: «人民币壹拾贰万元整»), "Một trăm hai mươi nghìn đồng"; a fraction
 * follows as "and 50/100" (ru: «89 копеек»; the yuan: 角 and 分).
 */
export function amountInWords(amount: number, currency: string, units: number, lang: string): string {
  const scale = 10 ** units
  const major = Math.floor(Math.abs(amount) / scale)
  const minor = Math.abs(amount) % scale
  const fraction = `${String(minor).padStart(units, '0')}/${scale}`
  const language = lang.slice(0, 2)
  if (language === 'zh') {
    const name = new Intl.DisplayNames('zh', { type: 'currency' }).of(currency) ?? currency
    // 元, 角 and 分 are the yuan's own units: another currency is named once, after the
    // figure it counts (肆拾叁万越南盾整), never beside 元; its fraction stays in figures.
    if (currency !== 'CNY') return `${zh(major)}${name}${minor ? `又${fraction}` : '整'}`
    let tail = '元整'
    if (major === 0 && minor > 0 && units === 2) {
      // Under one yuan the capitals start at the first unit that is not zero: 伍角整, 伍分.
      const jiao = Math.floor(minor / 10)
      const fen = minor % 10
      return `${name}${jiao ? ZH_DIGITS[jiao] + '角' : ''}${fen ? ZH_DIGITS[fen] + '分' : '整'}`
    }
    if (minor > 0 && units === 2) {
      const jiao = Math.floor(minor / 10)
      const fen = minor % 10
      tail = `元${jiao ? ZH_DIGITS[jiao] + '角' : '零'}${fen ? ZH_DIGITS[fen] + '分' : '整'}`
    }
    return `${name}${zh(major)}${tail}`
  }
  if (language === 'ru') return ruAmount(major, minor, currency, units)
  if (language === 'vi') {
    const name = currency === 'VND' ? 'đồng' : currency
    return capital(`${vi(major)} ${name}${minor ? ` và ${fraction}` : ''}`)
  }
  return capital(`${en(major)} ${currency}${minor ? ` and ${fraction}` : ''}`)
}
