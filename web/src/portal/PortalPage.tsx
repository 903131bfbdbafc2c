import { useCallback, useEffect, useRef, useState } from 'react'
import { call, Refusal, said as saidBy, type Bills, type Contact, type FreeTime, type PortalSession, type Receipt, type SessionView, type Visit, type Visits } from './api'
import styles from './portal.module.css'
import { formatDate, formatDay, formatMoment, formatMoney, LANGS, RELEASED_TEXTS, TEXTS, type Lang, type Texts } from './texts'
import { DocumentsView, ResultsView } from './Released'
import { personName } from '../lib/personName'
import { addDays } from '../book/logic'
import { useLatest } from './latest'

const isLang = (s: string): s is Lang => LANGS.some((l) => l.code === s)

/** The language first shown: ?lang=, else the browser's, else English. */
function firstLang(): Lang {
  const asked = new URLSearchParams(window.location.search).get('lang') ?? ''
  if (isLang(asked)) return asked
  const browser = (navigator.language || 'en').slice(0, 2)
  return isLang(browser) ? browser : 'en'
}

type Note = { text: string; error: boolean } | undefined

/** What a refusal says: the server's sentence (in the page's language), else ours. */
const said = (t: Texts, e: unknown) => saidBy(t.failed, e)

function Notice({ note }: { note: Note }) {
  return (
    <div aria-live="polite">
      {note && (
        <p className={note.error ? styles.problem : styles.ok} role={note.error ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
    </div>
  )
}

/** Signing in: a one-time code to an e-mail or a phone, or an access code and the birth date. */
function SignIn({ lang, t, onSignedIn, note: outer }: { lang: Lang; t: Texts; onSignedIn: (s: PortalSession) => void; note: Note }) {
  const [mode, setMode] = useState<'code' | 'access'>('code')
  const [channel, setChannel] = useState<'email' | 'sms'>('email')
  const [address, setAddress] = useState('')
  const [codeId, setCodeId] = useState<number | undefined>()
  const [code, setCode] = useState('')
  const [access, setAccess] = useState('')
  const [birth, setBirth] = useState('')
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<Note>(outer)
  const run = async (what: () => Promise<void>) => {
    setBusy(true)
    setNote(undefined)
    try {
      await what()
    } catch (e) {
      setNote({ text: said(t, e), error: true })
    } finally {
      setBusy(false)
    }
  }
  const sendCode = () =>
    run(async () => {
      const r = await call<{ code_id: number }>(lang, 'POST', '/sign-in/code', { channel, address, language: lang })
      setCodeId(r.code_id)
      setCode('')
      setNote({ text: t.codeSent, error: false })
    })
  const checkCode = () => run(async () => onSignedIn(await call<PortalSession>(lang, 'POST', `/sign-in/code/${codeId}`, { code })))
  const checkAccess = () => run(async () => onSignedIn(await call<PortalSession>(lang, 'POST', '/sign-in/access', { code: access, birth_date: birth })))

  return (
    <section aria-labelledby="sign-in">
      <h2 id="sign-in" className={styles.subtitle}>
        {t.signInTitle}
      </h2>
      <div className={styles.tabs} role="group" aria-label={t.signInTitle}>
        {(['code', 'access'] as const).map((m) => (
          <button key={m} type="button" className={mode === m ? styles.tabOn : styles.tab} aria-pressed={mode === m} onClick={() => { setMode(m); setNote(undefined) }}>
            {m === 'code' ? t.byCode : t.byAccess}
          </button>
        ))}
      </div>
      <Notice note={note} />
      {mode === 'code' && codeId === undefined && (
        <form className={styles.form} onSubmit={(e) => { e.preventDefault(); void sendCode() }}>
          <fieldset className={styles.fieldset}>
            <legend>{t.sendBy}</legend>
            {(['email', 'sms'] as const).map((c) => (
              <label key={c} className={styles.radio}>
                <input type="radio" name="channel" value={c} checked={channel === c} onChange={() => setChannel(c)} /> {c === 'email' ? t.email : t.sms}
              </label>
            ))}
          </fieldset>
          <label className={styles.field}>
            <span>{channel === 'email' ? t.emailAddress : t.phoneNumber}</span>
            <input
              type={channel === 'email' ? 'email' : 'tel'}
              autoComplete={channel === 'email' ? 'email' : 'tel'}
              required
              value={address}
              onChange={(e) => setAddress(e.target.value)}
            />
          </label>
          <button type="submit" className={styles.primary} disabled={busy}>
            {t.sendCode}
          </button>
        </form>
      )}
      {mode === 'code' && codeId !== undefined && (
        <form className={styles.form} onSubmit={(e) => { e.preventDefault(); void checkCode() }}>
          <label className={styles.field}>
            <span>{t.code}</span>
            <input inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} />
          </label>
          <button type="submit" className={styles.primary} disabled={busy}>
            {t.signIn}
          </button>
          <button type="button" className={styles.link} onClick={() => { setCodeId(undefined); setNote(undefined) }}>
            {t.otherAddress}
          </button>
        </form>
      )}
      {mode === 'access' && (
        <form className={styles.form} onSubmit={(e) => { e.preventDefault(); void checkAccess() }}>
          <div className={styles.field}>
            <label htmlFor="access-code">{t.accessCode}</label>
            <input id="access-code" autoCapitalize="characters" autoComplete="off" spellCheck={false} required aria-describedby="access-hint" value={access} onChange={(e) => setAccess(e.target.value)} />
            <small id="access-hint" className={styles.muted}>
              {t.accessHint}
            </small>
          </div>
          <label className={styles.field}>
            <span>{t.birthDate}</span>
            <input type="date" required autoComplete="bday" value={birth} onChange={(e) => setBirth(e.target.value)} />
          </label>
          <button type="submit" className={styles.primary} disabled={busy}>
            {t.signIn}
          </button>
        </form>
      )}
    </section>
  )
}

type Tab = 'appointments' | 'results' | 'documents' | 'bills' | 'contact'

/** A record's appointments, with cancelling and moving inside the clinic's window. */
function Appointments({ lang, t, record, onSignedOut }: { lang: Lang; t: Texts; record: number; onSignedOut: (e: unknown) => boolean }) {
  const [v, setV] = useState<Visits | undefined>()
  const [asking, setAsking] = useState<number | undefined>()
  const [moving, setMoving] = useState<number | undefined>()
  const [note, setNote] = useState<Note>()
  const [busy, setBusy] = useState(false)
  const words = useLatest({ lang, t })
  useEffect(() => {
    let live = true
    call<Visits>(words.current.lang, 'GET', `/records/${record}/appointments`).then(
      (r) => live && setV(r),
      (e) => live && !onSignedOut(e) && setNote({ text: said(words.current.t, e), error: true }),
    )
    return () => {
      live = false
    }
  }, [words, record, onSignedOut])
  const cancel = async (id: number) => {
    setBusy(true)
    try {
      setV(await call<Visits>(lang, 'POST', `/records/${record}/appointments/${id}/cancel`))
      setNote({ text: t.cancelled, error: false })
    } catch (e) {
      if (!onSignedOut(e)) setNote({ text: said(t, e), error: true })
    } finally {
      setBusy(false)
      setAsking(undefined)
    }
  }
  if (!v) return <><Notice note={note} />{!note && <p className={styles.muted}>{t.loading}</p>}</>
  const item = (a: Visits['upcoming'][number], upcoming: boolean) => (
    <li key={a.id} className={styles.item}>
      <p className={styles.when}>
        <span>{formatDate(lang, a.date)}</span> <strong>{a.time}</strong>
      </p>
      <p className={styles.meta}>
        {t.doctor}: {a.doctor} · <span className={a.status === 'cancelled' ? styles.badgeOff : styles.badge}>{t.status[a.status] ?? a.status}</span>
        {a.confirmed && a.status === 'booked' && <> · {t.confirmed}</>}
      </p>
      {upcoming && a.status === 'booked' && !a.can_cancel && <p className={styles.muted}>{t.tooLate(v.cancel_hours)}</p>}
      {upcoming && a.can_cancel && asking !== a.id && moving !== a.id && (
        <div className={styles.actions}>
          {a.can_move && (
            <button type="button" className={styles.secondary} disabled={busy} onClick={() => setMoving(a.id)}>
              {t.move}
            </button>
          )}
          <button type="button" className={styles.secondary} disabled={busy} onClick={() => setAsking(a.id)}>
            {t.cancel}
          </button>
        </div>
      )}
      {moving === a.id && (
        <MoveVisit
          lang={lang}
          t={t}
          record={record}
          visit={a}
          onSignedOut={onSignedOut}
          onClose={() => setMoving(undefined)}
          onStale={() => void call<Visits>(lang, 'GET', `/records/${record}/appointments`).then(setV, () => undefined)}
          onMoved={(next, to) => {
            setV(next)
            setMoving(undefined)
            setNote({ text: t.moved(formatDate(lang, to.day), to.time), error: false })
          }}
        />
      )}
      {asking === a.id && (
        <div className={styles.ask} role="group" aria-label={t.cancelAsk}>
          <p>{t.cancelAsk}</p>
          <div className={styles.actions}>
            <button type="button" className={styles.danger} disabled={busy} onClick={() => void cancel(a.id)}>
              {t.cancelYes}
            </button>
            <button type="button" className={styles.secondary} disabled={busy} onClick={() => setAsking(undefined)}>
              {t.keep}
            </button>
          </div>
        </div>
      )}
    </li>
  )
  return (
    <>
      <Notice note={note} />
      <h3 className={styles.h3}>{t.upcoming}</h3>
      {v.upcoming.length === 0 ? <p className={styles.muted}>{t.noUpcoming}</p> : <ul className={styles.list}>{v.upcoming.map((a) => item(a, true))}</ul>}
      <h3 className={styles.h3}>{t.past}</h3>
      {v.past.length === 0 ? <p className={styles.muted}>{t.noPast}</p> : <ul className={styles.list}>{v.past.map((a) => item(a, false))}</ul>}
    </>
  )
}

/** Moving a visit: a day, its free times (the visit's own left out), and the patient's choice. */
function MoveVisit(props: {
  lang: Lang
  t: Texts
  record: number
  visit: Visit
  onSignedOut: (e: unknown) => boolean
  onClose: () => void
  onMoved: (v: Visits, to: FreeTime) => void
  /** The visit changed since it was listed (error.conflict): the list is read again. */
  onStale: () => void
}) {
  const { lang, t, record, visit, onSignedOut, onClose, onMoved, onStale } = props
  const [day, setDay] = useState(visit.date)
  const [today] = useState(() => new Date().toLocaleDateString('sv')) // the phone's, YYYY-MM-DD
  const [loaded, setLoaded] = useState<{ key: string; list: FreeTime[] }>()
  const [picked, setPicked] = useState<FreeTime | undefined>()
  const [note, setNote] = useState<Note>()
  const [busy, setBusy] = useState(false)
  const [round, setRound] = useState(0)
  const base = `/records/${record}/appointments/${visit.id}`
  const key = `${day} ${round}`
  const words = useLatest({ lang, t })
  useEffect(() => {
    let live = true
    call<{ data: FreeTime[] }>(words.current.lang, 'GET', `${base}/times?days=1&from=${day}`).then(
      (r) => live && setLoaded({ key, list: r.data.filter((s) => Date.parse(s.starts_at) !== Date.parse(visit.starts_at)) }),
      (e) => live && !onSignedOut(e) && setNote({ text: said(words.current.t, e), error: true }),
    )
    return () => {
      live = false
    }
  }, [words, base, day, key, visit.starts_at, onSignedOut])
  // The times of the day shown, once read; a choice holds while its time is among them.
  const times = loaded?.key === key ? loaded.list : undefined
  const chosen = times?.find((s) => s.starts_at === picked?.starts_at)
  const move = async () => {
    if (!chosen) return
    setBusy(true)
    try {
      onMoved(await call<Visits>(lang, 'POST', `${base}/move`, { starts_at: chosen.starts_at, version: visit.version }), chosen)
    } catch (e) {
      if (!onSignedOut(e)) setNote({ text: said(t, e), error: true })
      if (e instanceof Refusal && e.code === 'error.conflict') onStale() // its new version
      setRound((n) => n + 1) // the day's times as they are now (the chosen one may be gone)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className={styles.ask} role="group" aria-label={t.moveTitle}>
      <p>{t.moveTitle}</p>
      <Notice note={note} />
      <label className={styles.field}>
        <span>{t.moveDay}</span>
        <input type="date" min={today} value={day} onChange={(e) => e.target.value && setDay(e.target.value)} />
      </label>
      <div className={styles.actions}>
        <button type="button" className={styles.secondarySmall} disabled={busy || addDays(day, -1) < today} onClick={() => setDay(addDays(day, -1))}>
          {t.dayBefore}
        </button>
        <button type="button" className={styles.secondarySmall} disabled={busy} onClick={() => setDay(addDays(day, 1))}>
          {t.dayAfter}
        </button>
      </div>
      {times === undefined ? (
        <p className={styles.muted}>{t.loading}</p>
      ) : times.length === 0 ? (
        <p className={styles.muted}>{t.noTimes}</p>
      ) : (
        <fieldset className={styles.fieldset}>
          <legend>{t.freeTimes(formatDate(lang, day))}</legend>
          <div className={styles.times}>
            {times.map((s) => (
              <label key={s.starts_at} className={styles.time}>
                <input type="radio" name={`move-${visit.id}`} checked={chosen?.starts_at === s.starts_at} onChange={() => setPicked(s)} />
                {s.time}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className={styles.actions}>
        <button type="button" className={styles.primary} disabled={busy || !chosen} onClick={() => void move()}>
          {chosen ? t.moveTo(formatDate(lang, chosen.day), chosen.time) : t.chooseTime}
        </button>
        <button type="button" className={styles.secondary} disabled={busy} onClick={onClose}>
          {t.keepTime}
        </button>
      </div>
    </div>
  )
}

/** Where the patient is signed in, and signing out everywhere else (ASVS 3.3.4). */
function Sessions({ lang, t, onSignedOut }: { lang: Lang; t: Texts; onSignedOut: (e: unknown) => boolean }) {
  const [list, setList] = useState<SessionView[] | undefined>()
  const [note, setNote] = useState<Note>()
  const [busy, setBusy] = useState(false)
  const [round, setRound] = useState(0)
  const words = useLatest({ lang, t })
  useEffect(() => {
    let live = true
    call<{ data: SessionView[] }>(words.current.lang, 'GET', '/sessions').then(
      (r) => live && setList(r.data),
      (e) => live && !onSignedOut(e) && setNote({ text: said(words.current.t, e), error: true }),
    )
    return () => {
      live = false
    }
  }, [words, round, onSignedOut])
  const endOthers = async () => {
    setBusy(true)
    try {
      const r = await call<{ ended: number }>(lang, 'POST', '/sessions/end-others')
      setNote({ text: t.endedOthers(r.ended), error: false })
      setRound((n) => n + 1)
    } catch (e) {
      if (!onSignedOut(e)) setNote({ text: said(t, e), error: true })
    } finally {
      setBusy(false)
    }
  }
  return (
    <section aria-labelledby="sessions">
      <h3 id="sessions" className={styles.h3}>
        {t.sessionsTitle}
      </h3>
      <Notice note={note} />
      {list === undefined ? (
        <p className={styles.muted}>{t.loading}</p>
      ) : (
        <ul className={styles.list}>
          {list.map((s) => (
            <li key={s.id} className={styles.item}>
              <p className={styles.when}>
                {s.via === 'code' ? t.byCodeTo(s.address) : t.byAccessCode}
                {s.current && (
                  <>
                    {' '}
                    <span className={styles.badge}>{t.thisDevice}</span>
                  </>
                )}
              </p>
              <p className={styles.meta}>
                {t.signedInAt(formatMoment(lang, s.created_at))} · {t.lastUsed(formatMoment(lang, s.last_seen_at))}
              </p>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <button type="button" className={styles.secondary} disabled={busy || !list || list.length < 2} onClick={() => void endOthers()}>
          {t.endOthers}
        </button>
      </div>
    </section>
  )
}

/**
 * A record's bills as issued, their payments and refunds, and what all its bills ask (the
 * server's sum over every bill, listed or not). Each bill's rows add up: the lines to the
 * subtotal, less its discount to the total, less what was credited and paid to the balance.
 */
function BillsView({ lang, t, record, onSignedOut }: { lang: Lang; t: Texts; record: number; onSignedOut: (e: unknown) => boolean }) {
  const [b, setB] = useState<Bills | undefined>()
  const [note, setNote] = useState<Note>()
  const words = useLatest(t)
  useEffect(() => {
    // Read again in another language: the server names the lines a parent's view hides.
    let live = true
    call<Bills>(lang, 'GET', `/records/${record}/bills`).then(
      (r) => live && setB(r),
      (e) => live && !onSignedOut(e) && setNote({ text: said(words.current, e), error: true }),
    )
    return () => {
      live = false
    }
  }, [lang, words, record, onSignedOut])
  if (!b) return <><Notice note={note} />{!note && <p className={styles.muted}>{t.loading}</p>}</>
  const money = (n: number) => formatMoney(lang, n, b.currency, b.minor_units)
  // An amount taken off reads −X; nothing taken off reads 0, never −0.
  const less = (n: number) => (n > 0 ? `−${money(n)}` : money(0))
  // What a receipt was: money received; a refund that credited the bill (a service not given),
  // with money given back or none (a credit note); or money given back that is still owed.
  const receipt = (r: Receipt): [string, string, string] =>
    r.kind === 'payment'
      ? [t.received, t.paymentReceipt, money(r.amount)]
      : r.still_owed
        ? [t.refundStillOwed, t.refundSlip, less(r.amount)]
        : [r.amount > 0 ? t.refundCredited(money(r.credit)) : t.creditNote(money(r.credit)), t.refundSlip, r.amount > 0 ? less(r.amount) : '']
  return (
    <>
      <p className={b.balance > 0 ? styles.owed : styles.ok}>{b.balance > 0 ? t.owed(money(b.balance)) : t.nothingOwed}</p>
      {b.bills.length === 0 && <p className={styles.muted}>{t.noBills}</p>}
      {b.issued > b.bills.length && <p className={styles.muted}>{t.newestShown(b.bills.length, b.issued)}</p>}
      <ul className={styles.list}>
        {b.bills.map((bill) => (
          <li key={bill.number} className={styles.item}>
            <p className={styles.when}>
              {t.bill} {bill.number}{' '}
              {bill.status === 'void' ? (
                <span className={styles.badgeOff}>{t.voided}</span>
              ) : bill.balance > 0 ? (
                <span className={styles.badgeOwed}>{t.toPay}</span>
              ) : (
                <span className={styles.badgeOk}>{t.settled}</span>
              )}
            </p>
            <p className={styles.meta}>
              {t.issued}: {formatDay(lang, bill.issued_at)}
            </p>
            <table className={styles.table}>
              <tbody>
                {bill.lines.map((l, i) => (
                  <tr key={i}>
                    <td>
                      {l.quantity > 1 ? `${l.description} × ${l.quantity}` : l.description}
                      {l.discount > 0 && <small className={styles.note}>{t.lineDiscount(money(l.discount))}</small>}
                    </td>
                    <td className={styles.num}>{money(l.amount)}</td>
                  </tr>
                ))}
                {bill.discount > 0 && (
                  <>
                    <tr className={styles.sum}>
                      <th scope="row">{t.subtotal}</th>
                      <td className={styles.num}>{money(bill.subtotal)}</td>
                    </tr>
                    <tr>
                      <th scope="row">{t.discount}</th>
                      <td className={styles.num}>{less(bill.discount)}</td>
                    </tr>
                  </>
                )}
                <tr className={styles.sum}>
                  <th scope="row">{t.total}</th>
                  <td className={styles.num}>{money(bill.total)}</td>
                </tr>
                {bill.status === 'final' && (
                  <>
                    <tr>
                      <th scope="row">{t.credited}</th>
                      <td className={styles.num}>{less(bill.credited)}</td>
                    </tr>
                    <tr>
                      <th scope="row">{t.paidNet}</th>
                      <td className={styles.num}>{less(bill.paid)}</td>
                    </tr>
                    <tr className={bill.balance > 0 ? styles.due : styles.sum}>
                      <th scope="row">{t.balanceDue}</th>
                      <td className={styles.num}>{money(bill.balance)}</td>
                    </tr>
                  </>
                )}
              </tbody>
            </table>
            {bill.status === 'void' && <p className={styles.muted}>{t.voidNote}</p>}
            {bill.receipts.length > 0 && (
              <table className={styles.table}>
                <caption className={styles.caption}>{t.receipts}</caption>
                <tbody>
                  {bill.receipts.map((r, i) => {
                    const [what, paper, amount] = receipt(r)
                    return (
                      <tr key={`${r.receipt}-${i}`}>
                        <td>
                          {what}
                          <small className={styles.note}>
                            {paper} <span className={styles.nowrap}>{r.receipt}</span> · <span className={styles.nowrap}>{formatDay(lang, r.at)}</span>
                          </small>
                        </td>
                        <td className={styles.num}>{amount}</td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            )}
          </li>
        ))}
      </ul>
      {b.bills.length > 0 && <p className={styles.muted}>{t.notTaxInvoice}</p>}
    </>
  )
}

/**
 * A record's phone, e-mail and reminder preferences. The phone and e-mail are how the patient
 * signs in, so they are changed at the desk; a guardian sees the child's but changes nothing.
 */
function ContactView({ lang, t, record, onSignedOut }: { lang: Lang; t: Texts; record: number; onSignedOut: (e: unknown) => boolean }) {
  const [c, setC] = useState<Contact | undefined>()
  const [note, setNote] = useState<Note>()
  const [fields, setFields] = useState<Record<string, string[]>>({})
  const [busy, setBusy] = useState(false)
  const [round, setRound] = useState(0) // read again (after a stale save)
  const words = useLatest({ lang, t })
  useEffect(() => {
    let live = true
    call<Contact>(words.current.lang, 'GET', `/records/${record}/contact`).then(
      (r) => live && setC(r),
      (e) => live && !onSignedOut(e) && setNote({ text: said(words.current.t, e), error: true }),
    )
    return () => {
      live = false
    }
  }, [words, record, round, onSignedOut])
  if (!c) return <><Notice note={note} />{!note && <p className={styles.muted}>{t.loading}</p>}</>
  const save = async () => {
    setBusy(true)
    setNote(undefined)
    setFields({})
    try {
      setC(await call<Contact>(lang, 'PUT', `/records/${record}/contact`, { reminders: c.reminders, message_language: c.message_language, version: c.version }))
      setNote({ text: t.saved, error: false })
    } catch (e) {
      if (onSignedOut(e)) return
      if (e instanceof Refusal && e.status === 409) {
        setRound((n) => n + 1)
        setNote({ text: t.stale, error: true })
      } else {
        if (e instanceof Refusal) setFields(e.fields)
        setNote({ text: said(t, e), error: true })
      }
    } finally {
      setBusy(false)
    }
  }
  const err = (name: string) =>
    fields[name]?.length ? (
      <small id={`${name}-error`} className={styles.fieldError}>
        {fields[name].join(' ')}
      </small>
    ) : null
  const readOnly = !c.can_change
  return (
    <form className={styles.form} onSubmit={(e) => { e.preventDefault(); void save() }}>
      <Notice note={note} />
      <dl className={styles.facts}>
        <dt>{t.phone}</dt>
        <dd>{c.phone || t.notGiven}</dd>
        <dt>{t.emailAddress}</dt>
        <dd>{c.email || t.notGiven}</dd>
      </dl>
      <p className={styles.muted}>{readOnly ? t.contactGuardian : t.contactAtDesk}</p>
      <fieldset className={styles.fieldset} disabled={readOnly} aria-describedby={fields.reminders ? 'reminders-error' : undefined}>
        <legend>{t.reminders}</legend>
        {(['email', 'sms', 'none'] as const).map((r) => (
          <label key={r} className={styles.radio}>
            <input type="radio" name="reminders" value={r} checked={c.reminders === r} onChange={() => setC({ ...c, reminders: r })} /> {t.remindersBy[r]}
          </label>
        ))}
        {err('reminders')}
      </fieldset>
      <label className={styles.field}>
        <span>{t.messageLanguage}</span>
        <select value={c.message_language} disabled={readOnly} onChange={(e) => setC({ ...c, message_language: e.target.value as Contact['message_language'] })}>
          <option value="">{t.clinicLanguage}</option>
          {LANGS.map((l) => (
            <option key={l.code} value={l.code} lang={l.code}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      {!readOnly && (
        <button type="submit" className={styles.primary} disabled={busy}>
          {t.save}
        </button>
      )}
    </form>
  )
}

/** The patient portal: signing in, then a record's appointments, bills and contact details. */
export function PortalPage() {
  const [lang, setLang] = useState<Lang>(firstLang)
  const [session, setSession] = useState<PortalSession | undefined>()
  const [record, setRecord] = useState<number | undefined>()
  const [tab, setTab] = useState<Tab>('appointments')
  const [note, setNote] = useState<Note>()
  const heading = useRef<HTMLHeadingElement>(null)
  const t = TEXTS[lang]

  useEffect(() => {
    document.documentElement.lang = lang
    document.title = TEXTS[lang].title
  }, [lang])

  useEffect(() => {
    call<PortalSession>(firstLang(), 'GET', '/session').then(
      (s) => {
        setSession(s)
        setRecord(s.records[0]?.id)
      },
      () => setSession({ signed_in: false, clinic: '', records: [], idle_minutes: 0 }),
    )
  }, [])

  // A 401 anywhere: the session ended (idle, revoked, signed out elsewhere): back to signing in.
  // Stable across a language switch (the reads that call it are not made again for it).
  const shown = useLatest(lang)
  const onSignedOut = useCallback(
    (e: unknown) => {
      if (!(e instanceof Refusal) || e.status !== 401) return false
      setSession((s) => (s ? { ...s, signed_in: false, records: [] } : s))
      setNote({ text: TEXTS[shown.current].signedOut, error: true })
      // A fresh CSRF cookie for the next sign-in.
      void call<PortalSession>(shown.current, 'GET', '/session').catch(() => undefined)
      return true
    },
    [shown],
  )

  const signedIn = (s: PortalSession) => {
    setNote(undefined)
    setSession(s)
    setRecord(s.records[0]?.id)
    setTab('appointments')
    requestAnimationFrame(() => heading.current?.focus())
  }

  const signOut = async () => {
    try {
      await call<void>(lang, 'POST', '/sign-out')
    } catch (e) {
      if (!onSignedOut(e)) return
    }
    setSession((s) => (s ? { ...s, signed_in: false, records: [] } : s))
    setNote(undefined)
    await call<PortalSession>(lang, 'GET', '/session').catch(() => undefined)
  }

  const current = session?.records.find((r) => r.id === record)
  const label = (k: Tab) => (k === 'results' || k === 'documents' ? RELEASED_TEXTS[lang][k] : t[k])
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <div className={styles.top}>
          <div>
            <h1 className={styles.title}>{t.title}</h1>
            {session?.clinic && <p className={styles.clinic}>{session.clinic}</p>}
          </div>
          <div className={styles.tools}>
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
            {session?.signed_in && (
              <button type="button" className={styles.secondarySmall} onClick={() => void signOut()}>
                {t.signOut}
              </button>
            )}
          </div>
        </div>
        {!session && <p className={styles.muted}>{t.loading}</p>}
        {session && !session.signed_in && <SignIn lang={lang} t={t} onSignedIn={signedIn} note={note} />}
        {session?.signed_in && current && (
          <>
            {session.records.length > 1 ? (
              <label className={styles.field}>
                <span>{t.whose}</span>
                <select value={current.id} onChange={(e) => setRecord(Number(e.target.value))}>
                  {session.records.map((r) => (
                    <option key={r.id} value={r.id}>
                      {personName({ middle_name: '', ...r }, lang)} {r.guardian ? t.childRecord : ''}
                    </option>
                  ))}
                </select>
              </label>
            ) : (
              <p className={styles.person}>
                {personName({ middle_name: '', ...current }, lang)}
              </p>
            )}
            <nav className={styles.tabs} aria-label={t.title}>
              {(['appointments', 'results', 'documents', 'bills', 'contact'] as const).map((k) => (
                <button key={k} type="button" className={tab === k ? styles.tabOn : styles.tab} aria-current={tab === k ? 'page' : undefined} onClick={() => setTab(k)}>
                  {label(k)}
                </button>
              ))}
            </nav>
            <section aria-labelledby="view">
              <h2 id="view" ref={heading} tabIndex={-1} className={styles.subtitle}>
                {label(tab)}
              </h2>
              {tab === 'appointments' && <Appointments key={current.id} lang={lang} t={t} record={current.id} onSignedOut={onSignedOut} />}
              {tab === 'results' && <ResultsView key={current.id} lang={lang} t={t} record={current.id} onSignedOut={onSignedOut} />}
              {tab === 'documents' && (
                <DocumentsView key={current.id} lang={lang} t={t} record={current.id} onSignedOut={onSignedOut} clinic={session.clinic} person={personName({ middle_name: '', ...current }, lang)} />
              )}
              {tab === 'bills' && <BillsView key={current.id} lang={lang} t={t} record={current.id} onSignedOut={onSignedOut} />}
              {tab === 'contact' && (
                <>
                  <ContactView key={current.id} lang={lang} t={t} record={current.id} onSignedOut={onSignedOut} />
                  <Sessions lang={lang} t={t} onSignedOut={onSignedOut} />
                </>
              )}
            </section>
          </>
        )}
      </div>
    </main>
  )
}
