// The login page is plain HTML and CSS on purpose: it must load fast on a clinic's slow
// computers, so it carries no component library (bench/: login JavaScript ≤ 150 KB gzip).
import { useEffect, useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { usePageTitle } from '../../components/usePageTitle'
import { ApiError } from '../../lib/api'
import { useLogin } from '../../lib/auth/login'
import { currentLanguage, LANGUAGE_NAMES, LANGUAGE_ORDER, setLanguage, type Language } from '../../lib/i18n'
import { clearLoginNotice, peekLoginNotice } from '../../lib/session'
import { safeRedirect } from './redirect'
import styles from './LoginPage.module.css'

interface FieldProps {
  id: string
  name: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
  type?: string
  autoComplete: string
  autoFocus?: boolean
}

/** A labelled input whose error is tied to it for screen readers. */
function Field({ id, name, label, value, onChange, error, type = 'text', autoComplete, autoFocus }: FieldProps) {
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        className={error ? `${styles.input} ${styles.invalid}` : styles.input}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <div id={`${id}-error`} className={styles.fieldError}>
          {error}
        </div>
      )}
    </div>
  )
}

export default function LoginPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  // Why the app sent the user here (an ended session, a failed check), shown once.
  const [notice] = useState(peekLoginNotice)
  useEffect(clearLoginNotice, [])
  const login = useLogin()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  // The second factor's code, asked for once the password was right for an account that has one.
  const [code, setCode] = useState('')
  const [codeAsked, setCodeAsked] = useState(false)
  const [touched, setTouched] = useState(false)
  const id = useId()
  usePageTitle(t('login.title'))

  const usernameMissing = touched && username.trim() === ''
  const passwordMissing = touched && password === ''
  const codeMissing = touched && codeAsked && code.trim() === ''
  const error = login.error
  const askedNow = error instanceof ApiError && error.code === 'auth.two_factor_required'
  const serverError = askedNow ? null : error instanceof ApiError && error.display ? error.display : error ? t('errors.network') : null

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (username.trim() === '' || password === '' || (codeAsked && code.trim() === '')) return
    login.mutate(
      { username, password, code: codeAsked ? code : undefined },
      {
        onSuccess: () => navigate(safeRedirect(params.get('redirect')), { replace: true }),
        onError: (e) => {
          if (e instanceof ApiError && e.code === 'auth.two_factor_required') {
            setCodeAsked(true)
            setTouched(false)
          }
        },
      },
    )
  }

  return (
    <main className={styles.page}>
      <div className={styles.language}>
        <label htmlFor={`${id}-lang`} className={styles.visuallyHidden}>
          {t('language.label')}
        </label>
        <select id={`${id}-lang`} className={styles.select} value={currentLanguage()} onChange={(e) => void setLanguage(e.target.value as Language)}>
          {LANGUAGE_ORDER.map((l) => (
            <option key={l} value={l} lang={l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </div>
      <form className={styles.card} onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
        <div className={styles.brand}>
          <img src="/favicon.svg" alt="" width={40} height={40} />
          <h1 id={`${id}-title`} className={styles.title}>
            {t('app.name')}
          </h1>
        </div>
        <p className={styles.subtitle}>{t('login.subtitle')}</p>
        {(serverError || notice) && (
          <div role="alert" className={styles.alert}>
            {serverError || notice}
          </div>
        )}
        <Field id={`${id}-username`} name="username" label={t('login.username')} value={username} onChange={setUsername} autoComplete="username" autoFocus error={usernameMissing ? t('login.usernameRequired') : undefined} />
        <Field id={`${id}-password`} name="password" type="password" label={t('login.password')} value={password} onChange={setPassword} autoComplete="current-password" error={passwordMissing ? t('login.passwordRequired') : undefined} />
        {codeAsked && (
          <>
            <p className={styles.subtitle}>{t('login.codeHint')}</p>
            <Field id={`${id}-code`} name="code" label={t('login.code')} value={code} onChange={setCode} autoComplete="one-time-code" autoFocus error={codeMissing ? t('login.codeRequired') : undefined} />
          </>
        )}
        <button type="submit" className={styles.submit} disabled={login.isPending} aria-busy={login.isPending}>
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </main>
  )
}
