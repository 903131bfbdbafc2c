import { useCallback, useEffect, useRef, useState } from 'react'

/** Where a form that saves itself stands, as its status line says it. */
export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'invalid' | 'conflict'

interface Options {
  /** Whether changes save themselves at all (a read-only or amending form does not). */
  enabled: boolean
  /** How long after the last change the form saves. */
  delay: number
  initial: SaveState
  /** Starts one save of what is typed now; null when it is not valid to send (the caller has said why). */
  run: () => Promise<unknown> | null
  /** The state a refused save leaves (a conflict, invalid fields, or back to idle). */
  failed: (error: unknown) => SaveState
}

/**
 * Saves a form by itself: `changed` schedules a save `delay` after the last change; a change
 * while a save is on its way queues one more save after it (never two at once, which would
 * write the same version); leaving the page saves what is still scheduled. `settle` is for an
 * explicit action (signing): it drops what is scheduled or queued and waits for the save on
 * its way, so the action then writes alone.
 */
export function useAutosave({ enabled, delay, initial, run, failed }: Options) {
  const [state, setState] = useState<SaveState>(initial)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  const inFlight = useRef<Promise<void> | null>(null)
  const again = useRef(false)
  const latest = useRef({ enabled, run, failed })
  useEffect(() => {
    latest.current = { enabled, run, failed }
  })

  const saveNow = () => {
    clearTimeout(timer.current)
    timer.current = undefined
    if (!latest.current.enabled) return
    if (inFlight.current) {
      again.current = true
      return
    }
    const started = latest.current.run()
    if (!started) {
      setState('invalid')
      return
    }
    setState('saving')
    inFlight.current = started.then(
      () => setState('saved'),
      (e: unknown) => setState(latest.current.failed(e)),
    ).finally(() => {
      inFlight.current = null
      if (again.current) {
        again.current = false
        saveNowRef.current()
      }
    })
  }
  const saveNowRef = useRef(saveNow)
  useEffect(() => {
    saveNowRef.current = saveNow
  })

  // Leaving the page saves what is still scheduled.
  useEffect(
    () => () => {
      if (timer.current !== undefined) saveNowRef.current()
    },
    [],
  )

  // One function for the form's life: the cards given it as onChange are memoised on it.
  const changed = useCallback(() => {
    if (!latest.current.enabled) return
    setState('pending')
    clearTimeout(timer.current)
    timer.current = setTimeout(() => saveNowRef.current(), delay)
  }, [delay])

  const settle = async () => {
    clearTimeout(timer.current)
    timer.current = undefined
    again.current = false
    while (inFlight.current) await inFlight.current
  }

  return { state, setState, changed, saveNow, settle }
}
