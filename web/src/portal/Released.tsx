import { useEffect, useRef, useState } from 'react'
import { useLatest } from './latest'
import { call, said as saidBy, type DocumentBlock, type DocumentRun, type Opened, type PrescriptionSheet, type Released, type ReleasedItem, type ReleasedValue } from './api'
import styles from './portal.module.css'
import { formatDay, RELEASED_TEXTS, type Lang, type ReleasedTexts, type Texts } from './texts'

/**
 * The portal's Results and Documents (ADR 44, 45): what the clinic released to the patient, as
 * the server judges it on every read. A document or prescription opens as it was printed, drawn
 * from its kept blocks as React elements (never as markup), and prints from the browser.
 */

interface Props {
  lang: Lang
  t: Texts
  record: number
  onSignedOut: (e: unknown) => boolean
}

const said = (t: Texts, e: unknown) => saidBy(t.failed, e)

/** The record's released items, read once per section shown. */
function useReleased({ lang, t, record, onSignedOut }: Props) {
  const [list, setList] = useState<Released | undefined>()
  const [error, setError] = useState<string | undefined>()
  const words = useLatest(t)
  useEffect(() => {
    // Read again in another language: the server writes the titles and plain words in it.
    let live = true
    call<Released>(lang, 'GET', `/records/${record}/released`).then(
      (r) => live && setList(r),
      (e) => live && !onSignedOut(e) && setError(said(words.current, e)),
    )
    return () => {
      live = false
    }
  }, [lang, words, record, onSignedOut])
  return { list, error }
}

function Waiting({ t, error }: { t: Texts; error?: string }) {
  return (
    <div aria-live="polite">
      {error ? (
        <p className={styles.problem} role="alert">
          {error}
        </p>
      ) : (
        <p className={styles.muted}>{t.loading}</p>
      )}
    </div>
  )
}

/** Said whether or not anything was left out, so that it tells nothing of what was. */
const Limited = ({ r, list, rx }: { r: ReleasedTexts; list: Released; rx?: boolean }) =>
  list.limited ? (
    <>
      <p className={styles.callout}>{r.limited}</p>
      {rx && <p className={styles.callout}>{r.limitedRx}</p>}
    </>
  ) : null

/** A held or withdrawn item says only its note: nothing to show or open. */
const noteOnly = (it: ReleasedItem) => it.held || it.withdrawn

function Values({ r, values }: { r: ReleasedTexts; values: ReleasedValue[] }) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th scope="col">{r.test}</th>
          <th scope="col">{r.value}</th>
          <th scope="col">{r.range}</th>
        </tr>
      </thead>
      <tbody>
        {values.map((v, i) => {
          const flagged = v.flag !== '' && v.flag !== 'N'
          return (
            <tr key={i}>
              <th scope="row">{v.name}</th>
              <td>
                <span className={flagged ? styles.flagged : undefined}>{v.value}</span>
                {v.flag_text && <> <span className={flagged ? styles.flagText : styles.muted}>{v.flag_text}</span></>}
                {v.corrected && <> <span className={styles.badge}>{r.corrected}</span></>}
              </td>
              <td>
                {v.range}
                {v.range_note && (
                  <>
                    {v.range && ' '}
                    <span className={styles.muted}>{v.range_note}</span>
                  </>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

/** One result: its values shown on asking (the opening is recorded for the doctor to see). */
function ResultItem({ item, r, ...props }: Props & { item: ReleasedItem; r: ReleasedTexts }) {
  const { lang, t, record, onSignedOut } = props
  const [shown, setShown] = useState(false)
  const [values, setValues] = useState<ReleasedValue[] | undefined>()
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const toggle = async () => {
    if (shown) return setShown(false)
    if (!values) {
      setBusy(true)
      setError(undefined)
      try {
        setValues((await call<Opened>(lang, 'GET', `/records/${record}/released/result/${item.id}`)).results ?? [])
      } catch (e) {
        if (!onSignedOut(e)) setError(said(t, e))
        return
      } finally {
        setBusy(false)
      }
    }
    setShown(true)
  }
  const panel = `values-${item.id}`
  return (
    <li className={styles.item}>
      <h3 className={styles.itemTitle}>{item.title}</h3>
      <p className={styles.meta}>
        {formatDay(lang, item.date)} {item.corrected && <span className={styles.badge}>{r.corrected}</span>}
      </p>
      {noteOnly(item) ? (
        <p className={styles.callout}>{item.note}</p>
      ) : (
        <>
          <button type="button" className={styles.secondary} aria-expanded={shown} aria-controls={panel} disabled={busy} onClick={() => void toggle()}>
            {shown ? r.hideValues : r.showValues}
          </button>
          {error && (
            <p className={styles.problem} role="alert">
              {error}
            </p>
          )}
          <div id={panel} hidden={!shown}>
            {values && <Values r={r} values={values} />}
          </div>
        </>
      )}
    </li>
  )
}

/** The record's released results, newest first. */
export function ResultsView(props: Props) {
  const r = RELEASED_TEXTS[props.lang]
  const { list, error } = useReleased(props)
  if (!list) return <Waiting t={props.t} error={error} />
  const items = list.items.filter((i) => i.kind === 'result')
  return (
    <>
      <Limited r={r} list={list} />
      {items.length === 0 ? (
        <p className={styles.muted}>{r.noResults}</p>
      ) : (
        <ul className={styles.list}>
          {items.map((it) => (
            <ResultItem key={`${props.lang}-${it.id}`} item={it} r={r} {...props} />
          ))}
        </ul>
      )}
    </>
  )
}

/** A document's text runs: always text, bold where the document is, "\n" a line break. */
function Runs({ runs }: { runs?: DocumentRun[] }) {
  return (
    <>
      {(runs ?? []).map((run, i) => {
        const text = run.text.split('\n').flatMap((part, j) => (j === 0 ? [part] : [<br key={j} />, part]))
        return run.bold ? <strong key={i}>{text}</strong> : <span key={i}>{text}</span>
      })}
    </>
  )
}

/** A document's kept blocks; its headings sit under the section's (h3, h4). */
function Blocks({ blocks }: { blocks: DocumentBlock[] }) {
  return (
    <>
      {blocks.map((b, i) => {
        switch (b.type) {
          case 'h1':
            return (
              <h3 key={i} className={styles.docTitle}>
                <Runs runs={b.runs} />
              </h3>
            )
          case 'h2':
            return (
              <h4 key={i} className={styles.docHeading}>
                <Runs runs={b.runs} />
              </h4>
            )
          case 'p':
            return (
              <p key={i}>
                <Runs runs={b.runs} />
              </p>
            )
          case 'ul':
            return (
              <ul key={i}>
                {(b.items ?? []).map((item, j) => (
                  <li key={j}>
                    <Runs runs={item} />
                  </li>
                ))}
              </ul>
            )
          case 'table':
            return (
              <table key={i} className={styles.table}>
                <tbody>
                  {(b.rows ?? []).map((row, j) => (
                    <tr key={j}>
                      {row.map((cell, k) => (
                        <td key={k}>
                          <Runs runs={cell} />
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          case 'hr':
            return <hr key={i} />
        }
        return null
      })}
    </>
  )
}

/** A prescription as it was printed. */
function Sheet({ lang, r, rx, person }: { lang: Lang; r: ReleasedTexts; rx: PrescriptionSheet; person: string }) {
  return (
    <>
      <h3 className={styles.docTitle}>{r.rxNumber(rx.number)}</h3>
      <dl className={styles.facts}>
        <dt>{r.patient}</dt>
        <dd>{person}</dd>
        {rx.issued_at && (
          <>
            <dt>{r.issued}</dt>
            <dd>{formatDay(lang, rx.issued_at)}</dd>
          </>
        )}
        {rx.diagnoses.length > 0 && (
          <>
            <dt>{r.diagnoses}</dt>
            <dd>{rx.diagnoses.join('; ')}</dd>
          </>
        )}
      </dl>
      <ol className={styles.lines}>
        {rx.lines.map((l, i) => (
          <li key={i}>
            <strong>{l.medicine}</strong>
            <div>
              {[l.dose, l.route, l.frequency, l.duration, l.quantity && `${r.quantity}: ${l.quantity}${l.unit ? ` ${l.unit}` : ''}`, l.refills > 0 && `${r.refills}: ${l.refills}`]
                .filter(Boolean)
                .join(', ')}
            </div>
            {l.instructions && <div>{l.instructions}</div>}
          </li>
        ))}
      </ol>
      {rx.notes && <p className={styles.preLine}>{rx.notes}</p>}
      <p>
        {r.prescriber}: <strong>{rx.prescriber}</strong>
        {rx.specialisations.length > 0 && <>, {rx.specialisations.join(', ')}</>}
        {rx.licences.length > 0 && (
          <>
            <br />
            {r.licence}: {rx.licences.join('; ')}
          </>
        )}
      </p>
    </>
  )
}

/** The record's released documents and printed prescriptions; one opens as printed, to print. */
export function DocumentsView(props: Props & { clinic: string; person: string }) {
  const { lang, t, record, onSignedOut, clinic, person } = props
  const r = RELEASED_TEXTS[lang]
  const { list, error } = useReleased(props)
  const [opened, setOpened] = useState<Opened | undefined>()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | undefined>()
  const sheet = useRef<HTMLElement>(null)
  const from = useRef('')
  // Focus follows the view: the sheet once opened, the button it was opened from once closed.
  useEffect(() => {
    if (opened) sheet.current?.focus()
    else if (from.current) document.getElementById(from.current)?.focus()
  }, [opened])
  if (!list) return <Waiting t={t} error={error} />

  const open = async (it: ReleasedItem) => {
    setBusy(true)
    setProblem(undefined)
    try {
      setOpened(await call<Opened>(lang, 'GET', `/records/${record}/released/${it.kind}/${it.id}`))
      from.current = `open-${it.kind}-${it.id}`
    } catch (e) {
      if (!onSignedOut(e)) setProblem(said(t, e))
    } finally {
      setBusy(false)
    }
  }
  const back = () => setOpened(undefined)

  if (opened) {
    return (
      <>
        <div className={`${styles.actions} ${styles.noPrint}`}>
          <button type="button" className={styles.secondary} onClick={back}>
            {r.back}
          </button>
          <button type="button" className={styles.primary} onClick={() => window.print()} aria-describedby="print-hint">
            {r.print}
          </button>
        </div>
        <p id="print-hint" className={`${styles.muted} ${styles.noPrint}`}>
          {r.printHint}
        </p>
        <article ref={sheet} tabIndex={-1} className={styles.sheet} aria-label={opened.title}>
          {clinic && <p className={styles.sheetClinic}>{clinic}</p>}
          {opened.content && (
            <div lang={opened.language || undefined}>
              <Blocks blocks={opened.content} />
            </div>
          )}
          {opened.prescription && <Sheet lang={lang} r={r} rx={opened.prescription} person={person} />}
        </article>
      </>
    )
  }

  const items = list.items.filter((i) => i.kind !== 'result')
  return (
    <>
      <Limited r={r} list={list} rx />
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
      {items.length === 0 ? (
        <p className={styles.muted}>{r.noDocuments}</p>
      ) : (
        <ul className={styles.list}>
          {items.map((it) => (
            <li key={`${it.kind}-${it.id}`} className={styles.item}>
              <h3 className={styles.itemTitle}>{it.title}</h3>
              <p className={styles.meta}>
                {it.kind === 'prescription' ? r.prescription : r.document} · {formatDay(lang, it.date)}
              </p>
              {noteOnly(it) ? (
                <p className={styles.callout}>{it.note}</p>
              ) : (
                <button type="button" id={`open-${it.kind}-${it.id}`} className={styles.secondary} aria-label={`${r.open}: ${it.title}`} disabled={busy} onClick={() => void open(it)}>
                  {r.open}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
