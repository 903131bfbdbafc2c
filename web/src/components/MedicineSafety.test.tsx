// @vitest-environment jsdom
import { cleanup, render, renderHook } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { initI18n, setLanguage } from '../lib/i18n'
import { LineFindings, type Finding, useFindingText } from './MedicineSafety'

afterEach(cleanup)

beforeAll(async () => {
  await initI18n('en')
})

const base = {
  line: 0, key: 'recent:41:substance:diazepam', kind: 'duplicate_recent', blocking: false, substance: 'Diazepam',
  other_prescription_id: 41, other_medicine: 'Diazepam 5 mg', other_date: '2026-11-06', overridden: false,
} as const

// What a prescriber reads of a line written again near another prescription's supply (the
// pharmacist's review of the refill window): a controlled medicine's stock on hand, a course
// extended, a duplicate while supplied — each with the supply's last day.
describe('useFindingText: duplicates of other prescriptions', () => {
  it.each<['en' | 'ru' | 'zh' | 'vi', Partial<Finding>, RegExp]>([
    ['en', { tier: 'high', requires_reason: true, on_hand_days: 14, supply_until: '2026-12-12' }, /renewed early.*#41.*about 14 days of Diazepam, supplied through .*12/],
    ['ru', { tier: 'high', requires_reason: true, on_hand_days: 14, supply_until: '2026-12-12' }, /раньше срока.*№ 41.*остаётся Diazepam примерно на 14 дн\. \(по 12\.12\.2026 включительно\)/],
    ['en', { tier: 'low', requires_reason: false, renews: true, supply_until: '2026-11-29' }, /^Renews or extends prescription #41 .*supplied through .*29/],
    ['zh', { tier: 'low', requires_reason: false, renews: true, supply_until: '2026-11-29' }, /^续开或延长.*第 41 号处方/],
    ['vi', { tier: 'high', requires_reason: true, supply_until: '2026-11-29' }, /còn thuốc đến hết ngày .*29/],
  ])('%s %j', async (lang, more, says) => {
    await setLanguage(lang)
    const { result } = renderHook(() => useFindingText())
    expect(result.current({ ...base, ...more } as Finding)).toMatch(says)
  })
})

const interaction = {
  line: 0, key: 'interaction:anticoagulant_nsaid:taken:3', kind: 'interaction', tier: 'high', blocking: false, requires_reason: true, severity: 'major',
  effect: 'bleeding', action: 'avoid', source: "Stockley's", other_taken_id: 3, other_source: 'elsewhere', other_medicine: 'Warfarin 5 mg tablet', other_date: '2026-11-20', overridden: false,
} as Finding

describe('LineFindings', () => {
  it('names a medicine recorded as taken: from elsewhere or over the counter, and when it was recorded', async () => {
    await setLanguage('en')
    render(<LineFindings findings={[interaction, { ...interaction, key: 'taken:4:class:nsaids', kind: 'duplicate_taken', severity: undefined, class: 'NSAIDs', other_source: 'otc', other_medicine: 'Ibuprofen 200 mg' } as Finding]} />)
    const text = document.body.textContent ?? ''
    expect(text).toContain('Interaction (major) with Warfarin 5 mg tablet, taken (recorded 2026-11-20, from elsewhere): bleeding')
    expect(text).toContain('Duplicate therapy: Ibuprofen 200 mg, taken (recorded 2026-11-20, over the counter), also contains NSAIDs.')
  })
})

// A medicine stopped but still acting (the pharmacist's review of the current-medicines list, M2).
describe('useFindingText: a stopped medicine in its washout', () => {
  it.each<['en' | 'ru' | 'zh' | 'vi', RegExp]>([
    ['en', /Fluoxetine 20 mg, stopped on .*2026.* but still active for about 5 weeks \(from elsewhere\)/],
    ['ru', /отменён .*2026.*, но действует ещё около 5 нед\./],
    ['zh', /已于.*停用，但约5周内仍有作用/],
    ['vi', /đã ngừng ngày .* nhưng còn tác dụng khoảng 5 tuần/],
  ])('%s', async (lang, says) => {
    await setLanguage(lang)
    const { result } = renderHook(() => useFindingText())
    const f = { ...interaction, severity: 'contraindicated', effect: 'serotonin_syndrome', other_medicine: 'Fluoxetine 20 mg', other_stopped_on: '2026-11-29', active_weeks: 5 } as Finding
    expect(result.current(f)).toMatch(says)
  })
})

// The pharmacist's review of 2026-11-29 (M1, M3, M10): the reliever prompt counts canisters,
// says the risk (more urgent from 12), asks after an ICS-containing treatment (or says there is
// none) and speaks of asthma or COPD as the visit's diagnoses say, in each language.
describe('useFindingText: the reliever prompt', () => {
  const reliever = { line: 0, key: 'reliever:year', kind: 'reliever_overuse', tier: 'low', blocking: false, requires_reason: false, count: 3, overridden: false } as unknown as Finding
  it.each<['en' | 'ru' | 'zh' | 'vi', RegExp]>([
    ['en', /^Reliever inhalers \(SABA\) issued in 12 months, those prescribed now included: 3\. Three or more a year go with more severe attacks\. Check .*ICS.*In asthma, consider ICS-formoterol.*In COPD/],
    ['ru', /за 12 месяцев, включая назначаемые сейчас: 3\. Три и более в год .*ИГКС.*При астме .*При ХОБЛ/],
    ['zh', /（含本次）：3 支。每年 3 支及以上.*ICS.*哮喘患者.*慢阻肺患者/],
    ['vi', /kể cả đơn đang kê: 3\. Từ 3 bình.*Vui lòng kiểm tra.*Với hen.*Với COPD/],
  ])('%s: neither diagnosis, ICS on record', async (lang, want) => {
    await setLanguage(lang)
    const { result } = renderHook(() => useFindingText())
    expect(result.current(reliever)).toMatch(want)
    await setLanguage('en')
  })
  it('asthma, 12 canisters, no ICS: the urgent and the no-ICS wording, no COPD sentence', () => {
    const { result } = renderHook(() => useFindingText())
    const text = result.current({ ...reliever, count: 12, urgent: true, condition: 'asthma', no_ics: true } as Finding)
    expect(text).toMatch(/12\. Twelve or more a year go with deaths from asthma.*No ICS-containing medicine.*SABA alone is not recommended/)
    expect(text).not.toMatch(/COPD/)
  })
  it('COPD: the maintenance bronchodilators, no asthma advice', () => {
    const { result } = renderHook(() => useFindingText())
    const text = result.current({ ...reliever, condition: 'copd' } as Finding)
    expect(text).toMatch(/In COPD.*long-acting bronchodilators \(GOLD\)/)
    expect(text).not.toMatch(/ICS-formoterol|Three or more/)
  })
  it('by mouth: the inhaled one advised', () => {
    const { result } = renderHook(() => useFindingText())
    expect(result.current({ ...reliever, kind: 'reliever_oral', key: 'reliever:oral', count: undefined } as unknown as Finding)).toMatch(/^Salbutamol by mouth is not recommended.*inhaled SABA, with a spacer/)
  })
})
