import { useEffect, useRef, useState } from 'react'
import base from '../patient-pages/base.module.css'
import own from './book.module.css'
import { addDays, byDay, cleanCode, fieldMessages, type ApiError, type Slot } from './logic'
import { formatDay, LANGS, TEXTS, type Lang } from './texts'

/** The shared sheet's classes and the page's own (no name in both). */
const styles = { ...base, ...own }

/** What the server offers (GET /api/book/options). */
export interface Options {
  enabled: boolean
  clinic: string
  doctors: { id: number; name: string; specialty: string; offers: { type: string; slot_minutes: number }[] }[]
  visit_types: string[]
  channels: ('email' | 'sms')[]
  ahead_days: number
  today: string
  time_zone: string
}

type Step = 'doctor' | 'day' | 'slot' | 'details' | 'code' | 'done'
const STEPS: Step[] = ['doctor', 'day', 'slot', 'details', 'code']
const WINDOW = 14

const isLang = (s: string): s is Lang => LANGS.some((l) => l.code === s)

function firstLang(): Lang {
  const asked = new URLSearchParams(window.location.search).get('lang') ?? ''
  if (isLang(asked)) return asked
  const nav = (navigator.language || 'en').slice(0, 2)
  return isLang(nav) ? nav : 'en'
}

async function api<T>(lang: Lang, path: string, body?: unknown): Promise<{ status: number; data?: T; error?: ApiError }> {
  const res = await fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Accept: 'application/json', 'Accept-Language': lang, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
  })
  const json: unknown = await res.json().catch(() => undefined)
  return res.ok ? { status: res.status, data: json as T } : { status: res.status, error: (json ?? {}) as ApiError }
}

/** The public booking page: doctor or any → day → time → details → code → done. */
export function BookPage() {
  const [lang, setLang] = useState<Lang>(firstLang)
  const t = TEXTS[lang]
  const [opts, setOpts] = useState<Options | undefined>()
  const [step, setStep] = useState<Step>('doctor')
  const [doctor, setDoctor] = useState<number>(0)
  const [type, setType] = useState('')
  const [from, setFrom] = useState('')
  const [slots, setSlots] = useState<Slot[] | undefined>()
  const [day, setDay] = useState('')
  const [slot, setSlot] = useState<Slot | undefined>()
  const [details, setDetails] = useState({ first_name: '', last_name: '', birth_date: '', channel: 'email' as 'email' | 'sms', address: '' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState<string | undefined>()
  const [hold, setHold] = useState<{ id: number } | undefined>()
  const [code, setCode] = useState('')
  const [done, setDone] = useState<{ status: string; starts_at: string; doctor_name: string } | undefined>()
  const [busy, setBusy] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  const first = useRef(true)

  useEffect(() => {
    document.documentElement.lang = lang
    document.title = TEXTS[lang].title
  }, [lang])

  useEffect(() => {
    void api<Options>(lang, '/api/book/options').then(
      (r) => {
        if (!r.data) return setProblem(r.status === 429 ? 'throttled' : 'failed')
        setOpts(r.data)
        setFrom(r.data.today)
        setType(r.data.visit_types[0] ?? '')
        if (r.data.channels[0]) setDetails((d) => ({ ...d, channel: r.data!.channels[0]! }))
      },
      () => setProblem('failed'),
    )
    // The options are read once; the language only changes the words.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // Each step's heading takes the focus, so a screen reader announces where the patient is.
  useEffect(() => {
    if (first.current) {
      first.current = false
      return
    }
    heading.current?.focus()
  }, [step])

  const say = (key: string) => (t as unknown as Record<string, string>)[key] ?? key
  const offered = (d: number) => (opts?.doctors.filter((x) => d === 0 || x.id === d) ?? []).flatMap((x) => x.offers.map((o) => o.type))
  const types = opts ? opts.visit_types.filter((v) => offered(doctor).includes(v)) : []

  const loadSlots = async (start: string) => {
    setBusy(true)
    setProblem(undefined)
    try {
      const q = new URLSearchParams({ type, from: start, days: String(WINDOW), doctor_id: doctor ? String(doctor) : 'any' })
      const r = await api<{ data: Slot[] }>(lang, `/api/book/slots?${q}`)
      if (!r.data) return setProblem(r.status === 429 ? 'throttled' : 'failed')
      setFrom(start)
      setSlots(r.data.data)
      setStep('day')
    } catch {
      setProblem('failed')
    } finally {
      setBusy(false)
    }
  }

  const sendCode = async (e: React.FormEvent) => {
    e.preventDefault()
    const missing: Record<string, string> = {}
    for (const k of ['first_name', 'last_name', 'birth_date', 'address'] as const) if (!details[k].trim()) missing[k] = t.required
    setErrors(missing)
    if (Object.keys(missing).length > 0) {
      document.getElementById(`f-${Object.keys(missing)[0]}`)?.focus()
      return
    }
    setBusy(true)
    setProblem(undefined)
    try {
      const r = await api<{ id: number }>(lang, '/api/book/holds', { ...details, doctor_id: slot!.doctor_id, type, starts_at: slot!.starts_at, language: lang })
      if (r.data) {
        setHold(r.data)
        setCode('')
        setStep('code')
      } else if (r.status === 409) {
        setProblem('slotGone')
        setSlot(undefined)
        await loadSlots(from)
      } else {
        const m = fieldMessages(r.error ?? {})
        setErrors(m.fields)
        setProblem(m.other ?? (r.status === 429 ? 'throttled' : undefined))
        const firstBad = Object.keys(m.fields)[0]
        if (firstBad) document.getElementById(`f-${firstBad}`)?.focus()
      }
    } catch {
      setProblem('failed')
    } finally {
      setBusy(false)
    }
  }

  const confirm = async (e: React.FormEvent) => {
    e.preventDefault()
    if (code.length !== 6) {
      setErrors({ code: t.codeHint })
      document.getElementById('f-code')?.focus()
      return
    }
    setBusy(true)
    setProblem(undefined)
    try {
      const r = await api<{ status: string; starts_at: string; doctor_name: string }>(lang, `/api/book/holds/${hold!.id}/confirm`, { code })
      if (r.data) {
        setDone(r.data)
        setErrors({})
        setStep('done')
      } else if (r.status === 422) {
        setErrors({ code: r.error?.error ?? t.failed })
        document.getElementById('f-code')?.focus()
      } else setProblem(r.status === 429 ? 'throttled' : (r.error?.error ?? 'failed'))
    } catch {
      setProblem('failed')
    } finally {
      setBusy(false)
    }
  }

  const restart = () => {
    setHold(undefined)
    setSlot(undefined)
    setDay('')
    setErrors({})
    setProblem(undefined)
    setStep('doctor')
  }

  const days = slots ? byDay(slots) : new Map<string, Slot[]>()
  const last = opts ? addDays(opts.today, opts.ahead_days) : ''
  const n = STEPS.indexOf(step) + 1
  const field = (k: keyof typeof details, label: string, props: React.InputHTMLAttributes<HTMLInputElement>, hint?: string) => (
    <div className={styles.field}>
      <label htmlFor={`f-${k}`}>{label}</label>
      <input
        id={`f-${k}`}
        value={details[k]}
        onChange={(e) => setDetails({ ...details, [k]: e.target.value })}
        aria-invalid={errors[k] ? true : undefined}
        aria-describedby={[hint ? `h-${k}` : '', errors[k] ? `e-${k}` : ''].filter(Boolean).join(' ') || undefined}
        {...props}
      />
      {hint && (
        <span id={`h-${k}`} className={styles.hint}>
          {hint}
        </span>
      )}
      {errors[k] && (
        <span id={`e-${k}`} className={styles.error}>
          {errors[k]}
        </span>
      )}
    </div>
  )

  let body: React.ReactNode = null
  let title = t.title
  if (!opts) {
    body = problem ? null : <p className={styles.muted}>{t.loading}</p>
  } else if (!opts.enabled) {
    body = <p className={styles.muted}>{t.closed}</p>
  } else if (step === 'doctor') {
    title = t.doctorStep
    body = (
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void loadSlots(opts.today)
        }}
      >
        <fieldset className={styles.choices}>
          <legend className={styles.sr}>{t.doctorStep}</legend>
          {[{ id: 0, name: t.anyDoctor, specialty: t.anyDoctorHint }, ...opts.doctors].map((d) => (
            <label key={d.id} className={styles.choice}>
              <input
                type="radio"
                name="doctor"
                checked={doctor === d.id}
                onChange={() => {
                  setDoctor(d.id)
                  const now = opts.visit_types.filter((v) => offered(d.id).includes(v))
                  if (!now.includes(type)) setType(now[0] ?? '')
                }}
              />
              <span>
                <span className={styles.strong}>{d.name}</span>
                {d.specialty && <span className={styles.muted}> · {d.specialty}</span>}
              </span>
            </label>
          ))}
        </fieldset>
        {types.length > 1 && (
          <fieldset className={styles.choices}>
            <legend>{t.visitType}</legend>
            {types.map((v) => (
              <label key={v} className={styles.choice}>
                <input type="radio" name="type" checked={type === v} onChange={() => setType(v)} />
                <span>{t.types[v] ?? v}</span>
              </label>
            ))}
          </fieldset>
        )}
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} disabled={busy || !type}>
            {t.next}
          </button>
        </div>
      </form>
    )
  } else if (step === 'day') {
    title = t.dayStep
    body = (
      <>
        {days.size === 0 && <p className={styles.muted}>{t.noDays}</p>}
        <ul className={styles.grid}>
          {[...days.keys()].map((d) => (
            <li key={d}>
              <button
                type="button"
                className={styles.slot}
                onClick={() => {
                  setDay(d)
                  setStep('slot')
                }}
              >
                {formatDay(lang, d)}
              </button>
            </li>
          ))}
        </ul>
        <div className={styles.actions}>
          {addDays(from, WINDOW) <= last && (
            <button type="button" className={styles.secondary} disabled={busy} onClick={() => void loadSlots(addDays(from, WINDOW))}>
              {t.moreDays}
            </button>
          )}
          <button type="button" className={styles.secondary} onClick={() => setStep('doctor')}>
            {t.back}
          </button>
        </div>
      </>
    )
  } else if (step === 'slot') {
    title = t.slotStep
    body = (
      <>
        <p>{t.slotsOn(formatDay(lang, day))}</p>
        <ul className={styles.times}>
          {(days.get(day) ?? []).map((s) => (
            <li key={s.starts_at}>
              <button
                type="button"
                className={styles.slot}
                onClick={() => {
                  setSlot(s)
                  setStep('details')
                }}
              >
                {s.time}
              </button>
            </li>
          ))}
        </ul>
        <div className={styles.actions}>
          <button type="button" className={styles.secondary} onClick={() => setStep('day')}>
            {t.back}
          </button>
        </div>
      </>
    )
  } else if (step === 'details' && slot) {
    title = t.detailsStep
    body = (
      <form onSubmit={(e) => void sendCode(e)} noValidate>
        <Chosen opts={opts} slot={slot} lang={lang} />
        {field('first_name', t.firstName, { autoComplete: 'given-name', required: true, maxLength: 100 })}
        {field('last_name', t.lastName, { autoComplete: 'family-name', required: true, maxLength: 100 })}
        {field('birth_date', t.birthDate, { type: 'date', autoComplete: 'bday', required: true, max: opts.today }, t.birthDateHint)}
        {opts.channels.length > 1 && (
          <fieldset className={styles.choices}>
            <legend>{t.sendBy}</legend>
            {opts.channels.map((c) => (
              <label key={c} className={styles.choice}>
                <input type="radio" name="channel" checked={details.channel === c} onChange={() => setDetails({ ...details, channel: c })} />
                <span>{c === 'email' ? t.email : t.phone}</span>
              </label>
            ))}
          </fieldset>
        )}
        {details.channel === 'email'
          ? field('address', t.emailAddress, { type: 'email', autoComplete: 'email', inputMode: 'email', required: true }, t.emailHint)
          : field('address', t.phoneNumber, { type: 'tel', autoComplete: 'tel', inputMode: 'tel', required: true }, t.phoneHint)}
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} disabled={busy}>
            {t.sendCode}
          </button>
          <button type="button" className={styles.secondary} onClick={() => setStep('slot')}>
            {t.back}
          </button>
        </div>
      </form>
    )
  } else if (step === 'code' && slot) {
    title = t.codeStep
    body = (
      <form onSubmit={(e) => void confirm(e)} noValidate>
        <p>{t.codeSent(details.address)}</p>
        <div className={styles.field}>
          <label htmlFor="f-code">{t.code}</label>
          <input
            id="f-code"
            className={styles.code}
            value={code}
            onChange={(e) => setCode(cleanCode(e.target.value))}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            aria-invalid={errors.code ? true : undefined}
            aria-describedby={errors.code ? 'h-code e-code' : 'h-code'}
          />
          <span id="h-code" className={styles.hint}>
            {t.codeHint}
          </span>
          {errors.code && (
            <span id="e-code" className={styles.error}>
              {errors.code}
            </span>
          )}
        </div>
        <div className={styles.actions}>
          <button type="submit" className={styles.primary} disabled={busy}>
            {t.confirmCode}
          </button>
          <button type="button" className={styles.secondary} onClick={restart}>
            {t.startOver}
          </button>
        </div>
      </form>
    )
  } else if (step === 'done' && done) {
    title = t.doneStep
    body = (
      <>
        <p className={styles.ok} role="status">
          {done.status === 'booked' ? t.booked : t.requested}
        </p>
        {slot && <Chosen opts={opts} slot={slot} lang={lang} />}
      </>
    )
  }

  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <div className={styles.top}>
          <p className={styles.clinic}>{opts?.clinic}</p>
          <label className={styles.lang}>
            <span>{t.language}</span>
            <select value={lang} onChange={(e) => setLang(e.target.value as Lang)}>
              {LANGS.map((l) => (
                <option key={l.code} value={l.code} lang={l.code}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        {opts?.enabled && step !== 'done' && <p className={styles.step}>{t.stepOf(n, STEPS.length)}</p>}
        <h1 className={styles.title} ref={heading} tabIndex={-1}>
          {title}
        </h1>
        <div aria-live="polite">
          {problem && (
            <p className={styles.problem} role="alert">
              {say(problem)}
            </p>
          )}
        </div>
        {body}
      </div>
    </main>
  )
}

/** The chosen doctor, day and time. */
function Chosen({ opts, slot, lang }: { opts: Options; slot: Slot; lang: Lang }) {
  const t = TEXTS[lang]
  const doctor = opts.doctors.find((d) => d.id === slot.doctor_id)
  return (
    <dl className={styles.when}>
      <dt>{t.summary}</dt>
      <dd>
        <span>{formatDay(lang, slot.day)}</span> <span className={styles.strong}>{slot.time}</span>
        {doctor && <span className={styles.muted}> · {t.with(doctor.name)}</span>}
      </dd>
    </dl>
  )
}
