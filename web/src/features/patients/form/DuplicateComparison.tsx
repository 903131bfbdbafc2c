import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { chartPath, fullName, type PatientInput, type PatientSummary } from '../api/types'
import compare from '../compare.module.css'
import { sexLabel } from '../../../lib/labels'

/** The new entry beside each possible duplicate, the fields that match in bold. */
export function DuplicateComparison({ input, twins }: { input: PatientInput; twins: PatientSummary[] }) {
  const { t } = useTranslation()
  const rows: { key: string; label: string; value: (p: PatientInput | PatientSummary) => string; same: (a: string, b: string) => boolean }[] = [
    { key: 'name', label: t('patients.name'), value: (p) => fullName(p), same: (a, b) => fold(a) === fold(b) },
    { key: 'birth_date', label: t('patients.fields.birth_date'), value: (p) => p.birth_date, same: (a, b) => a === b },
    { key: 'sex', label: t('patients.fields.sex'), value: (p) => (p.sex ? t(sexLabel[p.sex]) : ''), same: (a, b) => a === b },
    { key: 'phone', label: t('patients.fields.phone'), value: (p) => p.phone, same: (a, b) => digits(a) !== '' && digits(a) === digits(b) },
  ]
  return (
    <>
      <p>{t('patients.duplicatesText')}</p>
      <div style={{ overflowX: 'auto' }}>
        <table className={compare.table} data-testid="duplicate-comparison">
          <thead>
            <tr>
              <th scope="col">{t('patients.compare.field')}</th>
              <th scope="col">{t('patients.compare.new')}</th>
              {twins.map((p) => (
                <th scope="col" key={p.id}>
                  <Link to={chartPath(p)} target="_blank">
                    {p.mrn}
                  </Link>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.label}</th>
                <td>{r.value(input) || '—'}</td>
                {twins.map((p) => {
                  const same = r.same(r.value(input), r.value(p))
                  return (
                    <td key={p.id} className={same ? compare.same : undefined}>
                      {r.value(p) || '—'}
                      {same && <span className={compare.mark}> ({t('patients.compare.same')})</span>}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p style={{ marginTop: 12 }}>{t('patients.compare.confirm')}</p>
    </>
  )
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/đ/g, 'd').replace(/\s+/g, ' ').trim()
const digits = (s: string) => s.replace(/\D/g, '')
