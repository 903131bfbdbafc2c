// A light choice of one (the APG's radio group) over native radio inputs: drawn as joined
// buttons (Ant Design's Segmented: the queue's "Queue | Week"), or as a list of radio buttons
// (a choice whose options are long: the patient a booking request is for). The arrow keys move
// to the next or previous option and choose it, Home and End to the first and last; Tab enters
// the group on the chosen option and leaves it. A screen reader hears a radio group, its name,
// each option's words and which is chosen.
import { useId, type KeyboardEvent, type ReactNode } from 'react'
import styles from './Segmented.module.css'

export interface SegmentedOption<V extends string | number> {
  value: V
  label: ReactNode
}

export interface SegmentedProps<V extends string | number> {
  /** The group's name (a screen reader says it as focus enters). */
  label: string
  value: V
  options: SegmentedOption<V>[]
  onChange: (value: V) => void
  /** Joined buttons in a row (the default), or radio buttons one under another. */
  layout?: 'buttons' | 'list'
}

const NEXT: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }

export function Segmented<V extends string | number>({ label, value, options, onChange, layout = 'buttons' }: SegmentedProps<V>) {
  const name = useId()
  // The keys the browser gives a radio group, done here so that every browser (and jsdom) does the same.
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = options.findIndex((o) => o.value === value)
    let to: number | undefined
    if (e.key in NEXT) to = (at + NEXT[e.key]! + options.length) % options.length
    else if (e.key === 'Home') to = 0
    else if (e.key === 'End') to = options.length - 1
    if (to === undefined) return
    e.preventDefault()
    onChange(options[to]!.value)
    e.currentTarget.querySelectorAll<HTMLInputElement>('input[type=radio]')[to]?.focus()
  }
  return (
    <div role="radiogroup" aria-label={label} className={layout === 'list' ? styles.list : styles.buttons} onKeyDown={onKeyDown}>
      {options.map((o) => (
        <label key={String(o.value)} className={[styles.option, o.value === value ? styles.checked : ''].join(' ')}>
          <input type="radio" className={styles.input} name={name} value={String(o.value)} checked={o.value === value} onChange={() => onChange(o.value)} />
          <span className={styles.text}>{o.label}</span>
        </label>
      ))}
    </div>
  )
}
