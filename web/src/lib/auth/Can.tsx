import type { ReactNode } from 'react'
import { useCan } from './can'

/** Renders its children only for a user who holds permission (the permission directive). */
export function Can({ permission, children, fallback = null }: { permission: string; children: ReactNode; fallback?: ReactNode }) {
  return useCan(permission) ? children : fallback
}
