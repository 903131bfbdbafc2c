// Light toasts: short messages at the top of the window that go by themselves after a few
// seconds (not while the pointer is on them or focus in them: WCAG 2.2.1), read out politely by
// screen readers (the region is a status, present from the start so that what is added to it
// is announced). A toast with a key replaces the last one with the same key: trying colours one
// after another shows one toast, not a pile. The list lives outside React (`toast`), so that
// what is not a component (the API's error handler) can raise one; the app draws it once, in
// <ToastRegion /> at its root, so a toast outlives the screen, and the login, it was raised on.
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { createStore } from '../lib/store'
import styles from './Toast.module.css'

type Kind = 'success' | 'warning' | 'error' | 'info'

interface Toast {
  id: number
  key?: string
  kind: Kind
  content: ReactNode
}

export interface Toasts {
  show: (kind: Kind, content: ReactNode, options?: { key?: string }) => void
  success: (content: ReactNode, options?: { key?: string }) => void
  warning: (content: ReactNode, options?: { key?: string }) => void
  error: (content: ReactNode, options?: { key?: string }) => void
}

const list = createStore<Toast[]>([])
let next = 0

function show(kind: Kind, content: ReactNode, options?: { key?: string }) {
  const key = options?.key
  list.set([...list.get().filter((t) => !key || t.key !== key), { id: ++next, key, kind, content }])
}
const remove = (id: number) => list.set(list.get().filter((t) => t.id !== id))

/** Raises a toast from anywhere. */
export const toast: Toasts = {
  show,
  success: (c, o) => show('success', c, o),
  warning: (c, o) => show('warning', c, o),
  error: (c, o) => show('error', c, o),
}

/** The toasts, for a component (the same as `toast`). */
export const useToast = (): Toasts => toast

/** Takes every toast away (a test's start). */
export const clearToasts = () => list.set([])

/** How long a toast stays at the least: long enough to read a sentence, longer than the library's 3 s. */
export const TOAST_MS = 5000

const marks: Record<Kind, string> = { success: '✓', warning: '!', error: '✕', info: 'i' }

/** The region the toasts show in: once, at the app's root. */
export function ToastRegion() {
  const toasts = list.use()
  // The toasts wait while the pointer is on one of them or focus is in the region.
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  const paused = hovered || focused
  return (
    <div
      className={styles.region}
      role="status"
      aria-live="polite"
      data-emr-toasts=""
      onFocus={() => setFocused(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setFocused(false)}
    >
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} paused={paused} onDone={remove} onHover={setHovered} />
      ))}
    </div>
  )
}

/** Children with the region after them: a component test's stand-in for the app's root. */
export function ToastProvider({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <ToastRegion />
    </>
  )
}

/** One toast: it goes after TOAST_MS of time not paused. */
function ToastItem({ toast, paused, onDone, onHover }: { toast: Toast; paused: boolean; onDone: (id: number) => void; onHover: (hovered: boolean) => void }) {
  const left = useRef(TOAST_MS)
  useEffect(() => {
    if (paused) return
    const start = Date.now()
    const timer = setTimeout(() => onDone(toast.id), left.current)
    return () => {
      clearTimeout(timer)
      left.current -= Date.now() - start
    }
  }, [paused, onDone, toast.id])
  // Gone while hovered, the region would think the pointer still on a toast.
  useEffect(() => () => onHover(false), [onHover])
  return (
    <div className={`${styles.toast} ${styles[toast.kind]}`} onPointerEnter={() => onHover(true)} onPointerLeave={() => onHover(false)}>
      <span className={styles.mark} aria-hidden>
        {marks[toast.kind]}
      </span>
      {toast.content}
    </div>
  )
}
