import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { TextArea } from '../../light/Input'
import { expand, findSnippet, shiftMarks, shortcutBefore, type Mark } from './expand'
import styles from './SnippetTextArea.module.css'

interface SnippetLike {
  shortcut: string
  section: string
  body: string
}

interface Props {
  id?: string
  value?: string
  onChange?: (value: string) => void
  /** The visit's section this text is (complaint, history, examination, plan). */
  section: string
  snippets: SnippetLike[]
  /** The chart's values for placeholders, read when a snippet expands. */
  values: () => Record<string, string>
  disabled?: boolean
  maxLength?: number
  minRows?: number
  maxRows?: number
  'aria-describedby'?: string
  'aria-invalid'?: boolean | 'true' | 'false'
  'aria-required'?: boolean | 'true' | 'false'
}

/** The last expansion, which Ctrl+Z takes back to its shortcut. */
interface Undo {
  before: string
  caret: number
  after: string
  marks: Mark[]
}

/**
 * Grows the box with its text between minRows and maxRows lines (the library's autoSize), then
 * scrolls: its height from the text's, read after the browser has laid it out.
 */
function fit(el: HTMLTextAreaElement, minRows: number, maxRows: number) {
  const cs = getComputedStyle(el)
  const px = (v: string) => parseFloat(v) || 0
  const line = px(cs.lineHeight) || (px(cs.fontSize) || 14) * 1.5714
  const border = px(cs.borderTopWidth) + px(cs.borderBottomWidth)
  const edge = px(cs.paddingTop) + px(cs.paddingBottom) + border
  el.style.height = 'auto'
  const text = el.scrollHeight + border
  const max = line * maxRows + edge
  el.style.height = `${Math.min(max, Math.max(line * minRows + edge, text))}px`
  el.style.overflowY = text > max ? 'auto' : 'hidden'
}

const STYLE_COPIED = ['font', 'lineHeight', 'letterSpacing', 'paddingTop', 'paddingRight', 'paddingBottom', 'paddingLeft', 'borderTopWidth', 'borderRightWidth', 'borderBottomWidth', 'borderLeftWidth'] as const

/**
 * A visit's text that expands snippets: a shortcut (";ntd") followed by Tab or Space becomes
 * the snippet's text, its placeholders filled from the chart and highlighted until edited;
 * Ctrl+Z right after brings the shortcut back. Nothing expands while an input method is
 * composing (Chinese, Vietnamese), since Space and Tab then belong to it.
 */
export function SnippetTextArea({ id, value = '', onChange, section, snippets, values, disabled, maxLength, minRows = 2, maxRows = 10, ...aria }: Props) {
  const { t } = useTranslation()
  const ref = useRef<HTMLTextAreaElement>(null)
  const backdrop = useRef<HTMLDivElement>(null)
  const composing = useRef(false)
  const undo = useRef<Undo | null>(null)
  const caretAfter = useRef<number | null>(null)
  const [marks, setMarks] = useState<Mark[]>([])
  const [announce, setAnnounce] = useState('')
  const [seen, setSeen] = useState(value)

  // The text changed (typed, or set by the form): marks it touched are gone, others move.
  if (seen !== value) {
    setSeen(value)
    setMarks(shiftMarks(marks, seen, value))
  }

  // The box's height follows its text, and its width (a window made narrower wraps more lines).
  useLayoutEffect(() => {
    if (ref.current) fit(ref.current, minRows, maxRows)
  }, [value, minRows, maxRows])
  useEffect(() => {
    const refit = () => ref.current && fit(ref.current, minRows, maxRows)
    window.addEventListener('resize', refit)
    return () => window.removeEventListener('resize', refit)
  }, [minRows, maxRows])

  useLayoutEffect(() => {
    const el = ref.current
    if (el && caretAfter.current !== null) {
      el.setSelectionRange(caretAfter.current, caretAfter.current)
      caretAfter.current = null
    }
    if (el && backdrop.current && marks.length > 0) {
      const cs = getComputedStyle(el)
      for (const k of STYLE_COPIED) backdrop.current.style[k] = cs[k]
      backdrop.current.scrollTop = el.scrollTop
    }
  })

  const set = (text: string, caret: number) => {
    caretAfter.current = caret
    setSeen(text) // the marks are set for this text already
    onChange?.(text)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (composing.current || e.nativeEvent.isComposing || e.key === 'Process' || e.keyCode === 229) return
    const el = e.currentTarget
    if ((e.key === ' ' || e.key === 'Tab') && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey && el.selectionStart === el.selectionEnd) {
      const found = shortcutBefore(el.value, el.selectionStart)
      const snippet = found && findSnippet(snippets, found.shortcut, section)
      if (!found || !snippet) return
      e.preventDefault()
      const r = expand(el.value, el.selectionStart, found.start, snippet.body, values())
      undo.current = { before: el.value, caret: el.selectionStart, after: r.text, marks }
      setMarks([...shiftMarks(marks, el.value, r.text), ...r.marks].sort((a, b) => a.start - b.start))
      set(r.text, r.caret)
      setAnnounce(t('snippets.expanded', { shortcut: found.shortcut }))
      return
    }
    if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === 'z' && undo.current?.after === el.value) {
      e.preventDefault()
      const u = undo.current
      undo.current = null
      setMarks(u.marks)
      set(u.before, u.caret)
      setAnnounce(t('snippets.undone'))
    }
  }

  const filled = marks.filter((m) => m.filled).length
  const missing = marks.length - filled
  return (
    <div className={`${styles.wrap} ${marks.length > 0 ? styles.marked : ''}`}>
      {marks.length > 0 && (
        <div className={styles.backdrop} ref={backdrop} aria-hidden>
          {highlighted(value, marks)}
        </div>
      )}
      <TextArea
        id={id}
        className={styles.area}
        ref={ref}
        value={value}
        onChange={(e) => {
          undo.current = null
          onChange?.(e.target.value)
        }}
        onKeyDown={onKeyDown}
        onCompositionStart={() => (composing.current = true)}
        onCompositionEnd={() => (composing.current = false)}
        onScroll={(e) => backdrop.current && (backdrop.current.scrollTop = e.currentTarget.scrollTop)}
        rows={minRows}
        maxLength={maxLength}
        disabled={disabled}
        aria-describedby={aria['aria-describedby']}
        aria-invalid={aria['aria-invalid']}
        aria-required={aria['aria-required']}
      />
      {marks.length > 0 && (
        <span className={styles.note}>{[filled > 0 && t('snippets.filledNote', { count: filled }), missing > 0 && t('snippets.missingNote', { count: missing })].filter(Boolean).join(' ')}</span>
      )}
      <span className="visually-hidden" aria-live="polite">
        {announce}
      </span>
    </div>
  )
}

/** The text with its marks as highlighted stretches (a trailing newline kept visible). */
function highlighted(text: string, marks: Mark[]): ReactNode[] {
  const out: ReactNode[] = []
  let at = 0
  for (const m of marks) {
    if (m.start < at || m.end > text.length) continue
    out.push(text.slice(at, m.start))
    out.push(
      <mark key={m.start} className={m.filled ? undefined : styles.missing}>
        {text.slice(m.start, m.end)}
      </mark>,
    )
    at = m.end
  }
  out.push(text.slice(at) + '\u200b')
  return out
}
