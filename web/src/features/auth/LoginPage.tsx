// The login page is plain HTML and CSS on purpose: it must load fast on a clinic's slow
// computers, so it carries no component library (bench/: login JavaScript ≤ 150 KB gzip).
import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { usePageTitle } from '../../components/usePageTitle'
import { ApiError } from '../../lib/api'
import { useLogin } from '../../lib/auth/login'
import { currentLanguage, LANGUAGE_NAMES, LANGUAGE_ORDER, setLanguage, type Language } from '../../lib/i18n'
import { safeRedirect } from './redirect'
import styles from './LoginPage.module.css'

export default function LoginPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const login = useLogin()
  const [username, setUsername] = useState('')
  const [password, setPassword] = useState('')
  const [touched, setTouched] = useState(false)
  const id = useId()
  usePageTitle(t('login.title'))

  const usernameMissing = touched && username.trim() === ''
  const passwordMissing = touched && password === ''
  const error = login.error
  const serverError = error instanceof ApiError && error.display ? error.display : error ? t('errors.network') : null

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (username.trim() === '' || password === '') return
    login.mutate({ username, password }, { onSuccess: () => navigate(safeRedirect(params.get('redirect')), { replace: true }) })
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
        {serverError && (
          <div role="alert" className={styles.alert}>
            {serverError}
          </div>
        )}
        <div className={styles.field}>
          <label htmlFor={`${id}-username`}>{t('login.username')}</label>
          <input
            id={`${id}-username`}
            name="username"
            className={usernameMissing ? `${styles.input} ${styles.invalid}` : styles.input}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoComplete="username"
            autoFocus
            aria-invalid={usernameMissing}
            aria-describedby={usernameMissing ? `${id}-username-error` : undefined}
          />
          {usernameMissing && (
            <div id={`${id}-username-error`} className={styles.fieldError}>
              {t('login.usernameRequired')}
            </div>
          )}
        </div>
        <div className={styles.field}>
          <label htmlFor={`${id}-password`}>{t('login.password')}</label>
          <input
            id={`${id}-password`}
            name="password"
            type="password"
            className={passwordMissing ? `${styles.input} ${styles.invalid}` : styles.input}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            aria-invalid={passwordMissing}
            aria-describedby={passwordMissing ? `${id}-password-error` : undefined}
          />
          {passwordMissing && (
            <div id={`${id}-password-error`} className={styles.fieldError}>
              {t('login.passwordRequired')}
            </div>
          )}
        </div>
        <button type="submit" className={styles.submit} disabled={login.isPending} aria-busy={login.isPending}>
          {login.isPending ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </main>
  )
}
