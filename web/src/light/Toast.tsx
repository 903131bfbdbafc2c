// Light toasts: short messages at the top of the window that go by themselves after a few
// seconds, read out politely by screen readers (the region is a status, present from the start
// so that what is added to it is announced). A toast with a key replaces the last one with the
// same key: trying colours one after another shows one toast, not a pile.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react'
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

const Ctx = createContext<Toasts | null>(null)

/** The toasts of the region around; outside one, a toast would go nowhere, so it is an error. */
export function useToast(): Toasts {
  const t = useContext(Ctx)
  if (!t) throw new Error('useToast outside ToastProvider')
  return t
}

/** How long a toast stays, as Ant Design's messages do. */
export const TOAST_MS = 3000

const marks: Record<Kind, string> = { success: '✓', warning: '!', error: '✕', info: 'i' }

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const next = useRef(0)
  const show = useCallback((kind: Kind, content: ReactNode, options?: { key?: string }) => {
    const id = ++next.current
    const key = options?.key
    setToasts((all) => [...all.filter((t) => !key || t.key !== key), { id, key, kind, content }])
    setTimeout(() => setToasts((all) => all.filter((t) => t.id !== id)), TOAST_MS)
  }, [])
  const value = useMemo<Toasts>(
    () => ({
      show,
      success: (c, o) => show('success', c, o),
      warning: (c, o) => show('warning', c, o),
      error: (c, o) => show('error', c, o),
    }),
    [show],
  )
  return (
    <Ctx.Provider value={value}>
      {children}
      <div className={styles.region} role="status" aria-live="polite" data-emr-toasts="">
        {toasts.map((t) => (
          <div key={t.id} className={`${styles.toast} ${styles[t.kind]}`}>
            <span className={styles.mark} aria-hidden>
              {marks[t.kind]}
            </span>
            {t.content}
          </div>
        ))}
      </div>
    </Ctx.Provider>
  )
}
