import { describe, expect, it } from 'vitest'
import { amountInWords } from './amountInWords'

describe('amountInWords', () => {
  it.each([
    [120000, 'VND', 0, 'en', 'One hundred twenty thousand VND'],
    [35050, 'PHP', 2, 'en', 'Three hundred fifty PHP and 50/100'],
    [1001015, 'VND', 0, 'en', 'One million one thousand fifteen VND'],
    [0, 'VND', 0, 'en', 'Zero VND'],
    [2001, 'RUB', 0, 'ru', 'Две тысячи один RUB'],
    [11000, 'VND', 0, 'ru', 'Одиннадцать тысяч VND'],
    [121, 'VND', 0, 'ru', 'Сто двадцать один VND'],
    [5000000, 'VND', 0, 'ru', 'Пять миллионов VND'],
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
  ])('%d %s (%d) in %s', (amount, currency, units, lang, want) => {
    expect(amountInWords(amount, currency, units, lang)).toBe(want)
  })
})
