import { useMutation, useQuery } from '@tanstack/react-query'
import { Alert, Button, Card, Checkbox, Flex, Result, Space, Spin, Typography } from 'antd'
import { useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { PatientSelect } from '../../components/PatientSelect'
import { fullName } from '../../lib/patient'
import { formatDay } from '../../lib/time'
import { answerConsent } from './api/answerConsent'
import { consentOfferQuery, type AuthRequest } from './api/consent'

/**
 * The types that are no patient's record (not of the Patient compartment, internal/fhir/confine.go):
 * only a user/ scope reaches them, and a line about them names no patient.
 */
const CLINIC_TYPES = new Set(['Group', 'Location', 'Organization', 'Practitioner', 'PractitionerRole'])

/**
 * What one scope lets the app do, in the user's words: a resource type in plain clinic words
 * (smart.types), never its FHIR name, which the scope itself shows beside the line for an
 * administrator. A type without words of its own keeps its FHIR name.
 */
function useDescribe() {
  const { t } = useTranslation()
  return (scope: string) => {
    const m = /^(patient|user)\/(\*|[A-Za-z]+)\.([cruds]+)$/.exec(scope)
    if (!m) return t(`smart.scope.${scope.replace('/', '_')}`, { defaultValue: scope })
    const [, context, type, actions] = m
    const what = type === '*' ? t('smart.everything') : t(`smart.types.${type}`, { defaultValue: type })
    const writes = /[cud]/.test(actions)
    const whose = CLINIC_TYPES.has(type) ? 'clinic' : context
    return t(`smart.${whose}${writes ? 'Write' : 'Read'}`, { what })
  }
}

/**
 * The consent page of SMART App Launch: the app named, the scopes it would get (each no wider
 * than the user's own access), those it will not, and the patient it opens; approving sends the
 * browser back to the app with a one-time code.
 */
export default function ConsentPage() {
  const { t } = useTranslation()
  const describe = useDescribe()
  const [params] = useSearchParams()
  const request = useMemo<AuthRequest>(() => Object.fromEntries(params.entries()), [params])
  const offer = useQuery(consentOfferQuery(request))
  const [unchecked, setUnchecked] = useState<string[]>([])
  const [patient, setPatient] = useState<number>()
  const pickerId = useId()
  const needsPatient = !!offer.data?.needs_patient
  const answer = useMutation({ mutationFn: answerConsent, onSuccess: (r) => window.location.assign(r.redirect) })

  const redirect = offer.data?.redirect
  useEffect(() => {
    if (redirect) window.location.assign(redirect) // the request's fault goes back to the app
  }, [redirect])

  if (offer.isPending || redirect) return <Spin />
  if (offer.isError || !offer.data.app) return <Result status="warning" title={t('smart.cannotAuthorize')} subTitle={offer.error?.message} />
  const { app, scopes = [], withheld = [] } = offer.data
  const kept = scopes.filter((s) => !unchecked.includes(s))
  const inContext = offer.data.patient
  return (
    <Card title={t('smart.title', { app: app.name })} style={{ maxWidth: 720 }} styles={{ header: { paddingBlock: 12 }, title: { whiteSpace: 'normal' } }}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Typography.Paragraph>{t('smart.intro', { app: app.name })}</Typography.Paragraph>
        {inContext && (
          <Typography.Paragraph data-testid="consent-patient">
            {t('smart.patient')} <Typography.Text strong>{fullName(inContext)}</Typography.Text>{' '}
            <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
              ({inContext.mrn}, {formatDay(inContext.birth_date)})
            </Typography.Text>
          </Typography.Paragraph>
        )}
        {needsPatient && (
          <Space orientation="vertical" size={4} style={{ width: '100%' }}>
            <label htmlFor={pickerId}>{t('smart.choosePatient')}</label>
            <PatientSelect id={pickerId} value={patient} onChange={setPatient} placeholder={t('appointments.patientSearch')} notFound={t('appointments.patientNone')} style={{ width: '100%' }} />
          </Space>
        )}
        <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
          <legend>{t('smart.allows')}</legend>
          <Space orientation="vertical">
            {scopes.map((s) => (
              <Checkbox key={s} checked={!unchecked.includes(s)} onChange={(e) => setUnchecked((u) => (e.target.checked ? u.filter((x) => x !== s) : [...u, s]))}>
                {describe(s)} <Typography.Text type="secondary" code>{s}</Typography.Text>
              </Checkbox>
            ))}
          </Space>
        </fieldset>
        {withheld.length > 0 && (
          <Alert
            type="info"
            showIcon
            title={t('smart.withheld')}
            description={
              <Space wrap size={4}>
                {withheld.map((s) => (
                  <Typography.Text key={s} code>
                    {s}
                  </Typography.Text>
                ))}
              </Space>
            }
          />
        )}
        <Flex gap={8} justify="end">
          <Button onClick={() => answer.mutate({ request, approve: false })} loading={answer.isPending}>
            {t('smart.deny')}
          </Button>
          <Button
            type="primary"
            disabled={needsPatient && !patient}
            loading={answer.isPending}
            onClick={() => answer.mutate({ request, approve: true, scopes: kept, patient_id: patient })}
          >
            {t('smart.allow')}
          </Button>
        </Flex>
      </Space>
    </Card>
  )
}
