import { useEffect, useState } from 'react'
import styles from '../patient-pages/base.module.css'
import { formatDate, LANGS, TEXTS, type Lang } from './texts'

/** What the server says of a link (GET /api/m/{token}). */
export interface LinkView {
  state: 'ok' | 'used' | 'expired' | 'invalid'
  purpose: '' | 'appointment' | 'optout'
  used_for: string
  language: '' | Lang
  clinic: string
  date: string
  time: string
  status: string
  confirmed: boolean
  can_cancel: boolean
  cancel_hours: number
}

type Act = 'confirm' | 'cancel' | 'optout'

async function call(token: string, act?: Act): Promise<{ status: number; view?: LinkView }> {
  const path = `/api/m/${encodeURIComponent(token)}` + (act ? `/${act}` : '')
  const res = await fetch(path, { method: act ? 'POST' : 'GET', headers: { Accept: 'application/json' }, credentials: 'omit' })
  if (!res.ok) return { status: res.status }
  return { status: res.status, view: (await res.json()) as LinkView }
}

const isLang = (s: string): s is Lang => LANGS.some((l) => l.code === s)

/** The patient's page behind a message's link: the appointment, and Confirm, Cancel, Opt out. */
export function LinkPage({ token }: { token: string }) {
  const [view, setView] = useState<LinkView | undefined>()
  const [lang, setLang] = useState<Lang>(() => {
    const asked = new URLSearchParams(window.location.search).get('lang') ?? ''
    return isLang(asked) ? asked : 'en'
  })
  const [chosen, setChosen] = useState(false)
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<{ text: string; error: boolean } | undefined>()
  const [asking, setAsking] = useState(false)
  const t = TEXTS[lang]

  useEffect(() => {
    let live = true
    void call(token).then(
      (r) => {
        if (!live) return
        if (r.view) {
          setView(r.view)
          if (!chosen && r.view.language && isLang(r.view.language)) setLang(r.view.language)
        } else setNote({ text: r.status === 429 ? 'throttled' : 'failed', error: true })
      },
      () => live && setNote({ text: 'failed', error: true }),
    )
    return () => {
      live = false
    }
    // The language the patient picks is theirs from then on; the token is read once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token])

  useEffect(() => {
    document.documentElement.lang = lang
    document.title = TEXTS[lang].title
  }, [lang])

  const act = async (what: Act) => {
    setBusy(true)
    setAsking(false)
    try {
      const r = await call(token, what)
      if (r.view) {
        setView(r.view)
        setNote({ text: what === 'confirm' ? 'confirmed' : what === 'cancel' ? 'cancelled' : 'optedOut', error: false })
      } else {
        setNote({ text: r.status === 429 ? 'throttled' : 'failed', error: true })
        const again = await call(token)
        if (again.view) setView(again.view)
      }
    } catch {
      setNote({ text: 'failed', error: true })
    } finally {
      setBusy(false)
    }
  }

  const message = (key: string) => (t as unknown as Record<string, string>)[key] ?? key
  const done = note && !note.error
  let body: React.ReactNode
  if (!view) {
    body = note ? null : <p className={styles.muted}>{t.loading}</p>
  } else if (done) {
    body = null
  } else if (view.state !== 'ok') {
    body = <p className={styles.problem}>{view.state === 'used' ? t.used : view.state === 'expired' ? t.expired : t.invalid}</p>
  } else if (view.purpose === 'optout') {
    body = (
      <>
        <h2 className={styles.subtitle}>{t.optOutTitle}</h2>
        <p>{t.optOutText}</p>
        <button type="button" className={styles.primary} disabled={busy} onClick={() => void act('optout')}>
          {t.optOut}
        </button>
      </>
    )
  } else {
    body = (
      <>
        <p className={styles.clinic}>{view.clinic}</p>
        <dl className={styles.when}>
          <dt>{t.when}</dt>
          <dd>
            <span className={styles.date}>{formatDate(lang, view.date)}</span> <span className={styles.time}>{view.time}</span>
          </dd>
        </dl>
        {view.status !== 'booked' && <p className={styles.problem}>{t.notBooked}</p>}
        {view.status === 'booked' && view.confirmed && <p className={styles.ok}>{t.alreadyConfirmed}</p>}
        {view.status === 'booked' && (
          <div className={styles.actions}>
            {!view.confirmed && (
              <button type="button" className={styles.primary} disabled={busy} onClick={() => void act('confirm')}>
                {t.confirm}
              </button>
            )}
            {view.can_cancel && !asking && (
              <button type="button" className={styles.secondary} disabled={busy} onClick={() => setAsking(true)}>
                {t.cancel}
              </button>
            )}
            {!view.can_cancel && <p className={styles.muted}>{t.tooLate(view.cancel_hours)}</p>}
          </div>
        )}
        {asking && (
          <div className={styles.ask} role="group" aria-label={t.cancelAsk}>
            <p>{t.cancelAsk}</p>
            <div className={styles.actions}>
              <button type="button" className={styles.danger} disabled={busy} onClick={() => void act('cancel')}>
                {t.cancelYes}
              </button>
              <button type="button" className={styles.secondary} disabled={busy} onClick={() => setAsking(false)}>
                {t.keep}
              </button>
            </div>
          </div>
        )}
        <p className={styles.optout}>
          <button type="button" className={styles.link} disabled={busy} onClick={() => void act('optout')}>
            {t.optOut}
          </button>
        </p>
      </>
    )
  }

  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <div className={styles.top}>
          <h1 className={styles.title}>{t.title}</h1>
          <label className={styles.lang}>
            <span>{t.language}</span>
            <select
              value={lang}
              onChange={(e) => {
                setChosen(true)
                setLang(e.target.value as Lang)
              }}
            >
              {LANGS.map((l) => (
                <option key={l.code} value={l.code} lang={l.code}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        <div aria-live="polite">
          {note && (
            <p className={note.error ? styles.problem : styles.ok} role={note.error ? 'alert' : 'status'}>
              {message(note.text)}
            </p>
          )}
        </div>
        {body}
      </div>
    </main>
  )
}
