import i18next from 'i18next'
import en from './en.json'
import ru from './ru.json'
import vi from './vi.json'
import zh from './zh.json'

type Tree = { [key: string]: string | Tree }
const LOCALES = { en, ru, zh, vi } as Record<string, Tree>

function flatten(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : flatten(v, `${prefix}${k}.`)))
}

describe('the SMART consent page, the apps card and the number system in every language', () => {
  const i18n = i18next.createInstance()
  beforeAll(() => i18n.init({ resources: Object.fromEntries(Object.entries(LOCALES).map(([l, t]) => [l, { translation: t }])), lng: 'en', fallbackLng: false }))
  // As ConsentPage's describe() words a data scope: the resource type, or "everything" for *.
  const line = (lang: string, key: string, type: string) => {
    const t = i18n.getFixedT(lang)
    return t(key, { what: type === '*' ? t('smart.everything') : type })
  }

  it('words a data scope as a sentence, with everything and a resource type alike', () => {
    expect(line('en', 'smart.patientRead', '*')).toBe("Read this patient's records of every type")
    expect(line('en', 'smart.patientRead', 'Observation')).toBe("Read this patient's Observation") // a type without words of its own
    expect(line('ru', 'smart.patientRead', '*')).toBe('Читать все данные этого пациента')
    expect(line('ru', 'smart.userWrite', 'Observation')).toBe('Читать и изменять Observation любого пациента, которого вы можете изменять')
    // Chinese: the type after a full-width colon, so neither 全部 nor a Latin name needs a space.
    expect(line('zh', 'smart.patientRead', '*')).toBe('读取此患者的全部数据')
    expect(line('zh', 'smart.userRead', 'Observation')).toBe('读取您可查看的任何患者的Observation')
    expect(line('vi', 'smart.patientWrite', '*')).toBe('Đọc và sửa tất cả dữ liệu của bệnh nhân này')
  })

  it('names every resource type the consent page can show in plain words in every language', () => {
    // The types the server serves (internal/fhir/type_*.go): a scope of any other is withheld.
    const types = ['AllergyIntolerance', 'Appointment', 'Condition', 'DiagnosticReport', 'DocumentReference', 'Encounter', 'Group', 'Immunization', 'ImmunizationRecommendation', 'Location', 'MedicationRequest', 'MedicationStatement', 'Observation', 'Organization', 'Patient', 'Practitioner', 'PractitionerRole', 'ServiceRequest']
    for (const lang of Object.keys(LOCALES)) {
      const named = (LOCALES[lang].smart as Tree).types as Tree
      expect(Object.keys(named).sort(), lang).toEqual(types)
      for (const type of types) expect(named[type], `${lang} ${type}`).not.toMatch(new RegExp(`${type}|[a-z][A-Z]`))
    }
  })

  it('keeps the agreed terms', () => {
    const banned: Record<string, RegExp> = {
      ru: /показатели жизнедеятельности/,
      zh: /访问范围|患者编号/, // scope is 权限范围; the patient number is 病历号, as the chart labels it
      vi: /Hãy |hãy |số bệnh nhân/, // «Vui lòng»; the patient number is «mã bệnh nhân», as «Mã BN»
    }
    for (const [lang, words] of Object.entries(banned)) {
      for (const [key, text] of flatten(LOCALES[lang])) {
        if (/^(smart|smartApps|route\.smartConsent|clinic\.numberSystem|patients\.identifier)/.test(key)) expect(text, `${lang} ${key}`).not.toMatch(words)
      }
    }
  })

  it('tells an administrator the app asks for its launch and identity scopes itself', () => {
    for (const lang of Object.keys(LOCALES)) {
      const hint = i18n.getFixedT(lang)('smartApps.scopesHint')
      for (const scope of ['patient/*.rs', 'openid', 'fhirUser', 'launch', 'offline_access']) expect(hint, lang).toContain(scope)
    }
  })
})
