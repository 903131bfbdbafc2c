import { describe, expect, it } from 'vitest'
import { amountInWords } from './amountInWords'

describe('amountInWords', () => {
  it.each([
    [120000, 'VND', 0, 'en', 'One hundred twenty thousand VND'],
    [35050, 'PHP', 2, 'en', 'Three hundred fifty PHP and 50/100'],
    [1001015, 'VND', 0, 'en', 'One million one thousand fifteen VND'],
    [0, 'VND', 0, 'en', 'Zero VND'],
    [2001, 'RUB', 0, 'ru', 'Две тысячи один рубль'],
    [11000, 'VND', 0, 'ru', 'Одиннадцать тысяч вьетнамских донгов'],
    [121, 'VND', 0, 'ru', 'Сто двадцать один вьетнамский донг'],
    [5000000, 'VND', 0, 'ru', 'Пять миллионов вьетнамских донгов'],
    [200002, 'VND', 0, 'ru', 'Двести тысяч два вьетнамских донга'],
    [120000, 'VND', 0, 'vi', 'Một trăm hai mươi nghìn đồng'],
    [105, 'VND', 0, 'vi', 'Một trăm lẻ năm đồng'],
    [1005000, 'VND', 0, 'vi', 'Một triệu không trăm lẻ năm nghìn đồng'],
    [21, 'VND', 0, 'vi', 'Hai mươi mốt đồng'],
    [15, 'VND', 0, 'vi', 'Mười lăm đồng'],
    [120000, 'CNY', 0, 'zh', '人民币壹拾贰万元整'],
    [100500, 'CNY', 0, 'zh', '人民币壹拾万零伍佰元整'],
    [1005, 'CNY', 0, 'zh', '人民币壹仟零伍元整'],
    [100000005, 'CNY', 0, 'zh', '人民币壹亿零伍元整'],
    [35050, 'CNY', 2, 'zh', '人民币叁佰伍拾元伍角整'],
    [35005, 'CNY', 2, 'zh', '人民币叁佰伍拾元零伍分'],
    // Review m25: another currency is named once, after its figure, never beside 元.
    [430000, 'VND', 0, 'zh', '肆拾叁万越南盾整'],
    [1005, 'VND', 0, 'zh', '壹仟零伍越南盾整'],
    [10050, 'USD', 2, 'zh', '壹佰美元又50/100'],
  ])('%d %s (%d) in %s', (amount, currency, units, lang, want) => {
    expect(amountInWords(amount, currency, units, lang)).toBe(want)
  })
})

// Translations review R-M1: a Russian amount in words names the currency in words, agreeing
// with the number (рубль / рубля / рублей, as ruForm), and the kopecks as two digits with
// копейка / копейки / копеек; a currency without a Russian name here stays in figures.
describe('amountInWords in Russian', () => {
  it.each([
    // amount (minor units), currency, units, expected, source
    [100000, 'RUB', 2, 'Одна тысяча рублей 00 копеек', 'review R-M1'],
    [2189, 'RUB', 2, 'Двадцать один рубль 89 копеек', 'review R-M1'],
    [50, 'RUB', 2, 'Ноль рублей 50 копеек', 'review R-M1'],
    [123456700, 'RUB', 2, 'Один миллион двести тридцать четыре тысячи пятьсот шестьдесят семь рублей 00 копеек', 'review R-M1'],
    [123456789, 'RUB', 2, 'Один миллион двести тридцать четыре тысячи пятьсот шестьдесят семь рублей 89 копеек', 'review R-M1'],
    [201, 'RUB', 2, 'Два рубля 01 копейка', 'Russian numeral agreement: 2 → рубля, 1 → копейка'],
    [522, 'RUB', 2, 'Пять рублей 22 копейки', 'Russian numeral agreement: 22 → копейки'],
    [1111, 'RUB', 2, 'Одиннадцать рублей 11 копеек', 'Russian numeral agreement: 11–19 → рублей, копеек'],
    [100, 'UAH', 2, 'Одна гривна 00 копеек', 'гривна is feminine: одна'],
    [200, 'UAH', 2, 'Две гривны 00 копеек', 'гривна is feminine: две'],
    [500, 'UAH', 2, 'Пять гривен 00 копеек', 'ОКВ'],
    [300, 'BYN', 2, 'Три белорусских рубля 00 копеек', 'review R-M1: «белорусских рублей»'],
    [2500, 'KZT', 2, 'Двадцать пять тенге 00 тиынов', 'review R-M1: «тенге»'],
    [2101, 'USD', 2, 'Двадцать один доллар США 01 цент', 'ОКВ'],
    [1, 'VND', 0, 'Один вьетнамский донг', 'ОКВ: no minor unit'],
    [35050, 'PHP', 2, '350,50\u00a0PHP', 'review R-M1: no Russian name here, figures only'],
  ])('%d %s (%d): %s', (amount, currency, units, want) => {
    expect(amountInWords(amount, currency, units, 'ru')).toBe(want)
  })
})

// Translations review Z-m1: under ¥1 the capitals start at the first unit that is not zero.
describe('amountInWords in Chinese under one yuan', () => {
  it.each([
    [50, '人民币伍角整'],
    [89, '人民币捌角玖分'],
    [5, '人民币伍分'],
  ])('%d fen', (amount, want) => {
    expect(amountInWords(amount, 'CNY', 2, 'zh')).toBe(want)
  })
})
