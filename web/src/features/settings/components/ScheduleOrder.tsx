// The clinic's schedules, chosen and put in order: every shipped schedule is a row with a
// checkbox; the chosen ones come first, numbered in their order, each with buttons to move it up
// or down. After a move the focus stays on the moved schedule's button (or its other button
// when it reached an end), and a live region says where it went.
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons'
import { Button, Checkbox, Tag, Typography } from 'antd'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { CatalogueSchedule } from '../api/getVaccineCatalogue'
import styles from './ScheduleOrder.module.css'

type Direction = 'up' | 'down'

interface Props {
  schedules: CatalogueSchedule[]
  /** The chosen keys, in order (set by the form). */
  value?: string[]
  onChange?: (value: string[]) => void
  id?: string
  /** The id of the text that says what the order means. */
  describedBy?: string
  'aria-labelledby'?: string
  'aria-describedby'?: string
}

/** The country's name in the language, from its ISO code ('' → none). */
function countryName(code: string, language: string): string {
  if (!code) return ''
  try {
    return new Intl.DisplayNames([language], { type: 'region' }).of(code.toUpperCase()) ?? code
  } catch {
    return code
  }
}

/** A source longer than about two lines, folded to two with a button to read it all. */
const LONG_SOURCE = 140

function Source({ text }: { text: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const long = text.length > LONG_SOURCE
  return (
    <>
      <Typography.Text type="secondary" className={long && !open ? styles.folded : undefined}>
        {text}
      </Typography.Text>
      {long && (
        <Button type="link" size="small" className={styles.more} aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('immunisationSettings.sourceLess') : t('immunisationSettings.sourceMore')}
        </Button>
      )}
    </>
  )
}

export function ScheduleOrder({ schedules, value = [], onChange, id, describedBy, ...aria }: Props) {
  const { t, i18n } = useTranslation()
  const buttons = useRef(new Map<string, HTMLButtonElement | null>())
  // The button to focus once the moved order is drawn.
  const pending = useRef<{ key: string; dir: Direction } | null>(null)
  const [said, setSaid] = useState('')
  const byKey = new Map(schedules.map((s) => [s.key, s]))
  // A chosen key the catalogue no longer ships is still shown, by its key, so that it can be taken off.
  const rows = [...value.map((k) => byKey.get(k) ?? { key: k, name: k, country: '', source: '' }), ...schedules.filter((s) => !value.includes(s.key))]

  useEffect(() => {
    const focus = pending.current
    if (!focus) return
    pending.current = null
    const at = value.indexOf(focus.key)
    // At an end its button is disabled: the other one keeps the focus.
    const dir = (focus.dir === 'up' && at === 0) || (focus.dir === 'down' && at === value.length - 1) ? (focus.dir === 'up' ? 'down' : 'up') : focus.dir
    buttons.current.get(`${focus.key}:${dir}`)?.focus()
  }, [value])

  const move = (key: string, dir: Direction) => {
    const at = value.indexOf(key)
    const to = dir === 'up' ? at - 1 : at + 1
    if (at < 0 || to < 0 || to >= value.length) return
    const next = [...value]
    ;[next[at], next[to]] = [next[to], next[at]]
    onChange?.(next)
    pending.current = { key, dir }
    setSaid(t('immunisationSettings.moved', { name: byKey.get(key)?.name ?? key, position: to + 1 }))
  }
  const toggle = (key: string, on: boolean) => onChange?.(on ? [...value, key] : value.filter((k) => k !== key))

  return (
    <div id={id} role="group" {...aria} aria-describedby={[describedBy, aria['aria-describedby']].filter(Boolean).join(' ') || undefined}>
      <ol className={styles.list}>
        {rows.map((s) => {
          const at = value.indexOf(s.key)
          const chosen = at >= 0
          const country = countryName(s.country, i18n.language)
          return (
            <li key={s.key} className={chosen ? `${styles.row} ${styles.chosen}` : styles.row} data-testid={`schedule-${s.key}`}>
              <span className={styles.position} aria-hidden="true">
                {chosen ? at + 1 : ''}
              </span>
              <div className={styles.body}>
                <Checkbox checked={chosen} onChange={(e) => toggle(s.key, e.target.checked)}>
                  <span className={styles.name}>{s.name}</span>
                  {chosen && ' '}
                  {chosen && <span className="visually-hidden">{t('immunisationSettings.position', { position: at + 1 })}</span>}
                </Checkbox>
                <div className={styles.help}>
                  <Tag>{country || t('immunisationSettings.international')}</Tag>
                  {s.source && <Source text={s.source} />}
                </div>
              </div>
              {chosen && (
                <span className={styles.moves}>
                  {(['up', 'down'] as const).map((dir) => (
                    <Button
                      key={dir}
                      ref={(el: HTMLButtonElement | null) => void buttons.current.set(`${s.key}:${dir}`, el)}
                      icon={dir === 'up' ? <ArrowUpOutlined /> : <ArrowDownOutlined />}
                      aria-label={t(dir === 'up' ? 'immunisationSettings.moveUp' : 'immunisationSettings.moveDown', { name: s.name })}
                      title={t(dir === 'up' ? 'immunisationSettings.up' : 'immunisationSettings.down')}
                      disabled={dir === 'up' ? at === 0 : at === value.length - 1}
                      onClick={() => move(s.key, dir)}
                    />
                  ))}
                </span>
              )}
            </li>
          )
        })}
      </ol>
      <span className="visually-hidden" aria-live="polite">
        {said}
      </span>
    </div>
  )
}
