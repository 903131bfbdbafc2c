import { Progress } from 'antd'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

type Estimate = (password: string, inputs: string[]) => number

let estimator: Promise<Estimate> | undefined

/** zxcvbn-ts with its common-password and English dictionaries, loaded the first time a meter shows (about 1 MB, never on the login page). */
function loadEstimator(): Promise<Estimate> {
  estimator ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then(([core, common, en]) => {
    const z = new core.ZxcvbnFactory({ dictionary: { ...common.dictionary, ...en.dictionary }, graphs: common.adjacencyGraphs })
    return (password, inputs) => z.check(password.slice(0, 64), inputs).score
  })
  return estimator
}

const COLORS = ['#b42318', '#b42318', '#b54708', '#1d7a4f', '#1d7a4f']

/**
 * How guessable a new password is, as it is typed (the same estimate the server makes on
 * save, which refuses a score under 3). inputs are the user's own words (username, name).
 */
export function PasswordStrength({ password, inputs = [] }: { password?: string; inputs?: string[] }) {
  const { t } = useTranslation()
  // The estimate of the password it was made for: one for an earlier text is not shown.
  const [estimate, setEstimate] = useState<{ of: string; score: number }>()
  const key = inputs.join('\u0001')
  useEffect(() => {
    let current = true
    if (password) void loadEstimator().then((score) => current && setEstimate({ of: password, score: score(password, key.split('\u0001').filter(Boolean)) }))
    return () => {
      current = false
    }
  }, [password, key])
  const score = password && estimate?.of === password ? estimate.score : undefined
  if (!password || score === undefined) return <span>{t('profile.passwordPolicy')}</span>
  const level = password.length < 12 ? 'short' : score < 3 ? 'weak' : score === 3 ? 'good' : 'strong'
  return (
    <span data-testid="password-strength" data-score={score}>
      <Progress percent={((score + 1) / 5) * 100} steps={5} showInfo={false} strokeColor={COLORS[score]} size="small" aria-hidden />{' '}
      <span role="status" style={{ color: COLORS[score] }}>
        {t(`password.strength.${level}`)}
      </span>
      <br />
      {t('profile.passwordPolicy')}
    </span>
  )
}
