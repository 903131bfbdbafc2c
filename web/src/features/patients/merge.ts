import type { PatientInput } from './api/types'

type Obj = Record<string, unknown>
const NESTED = ['history', 'emergency_contact']

/** The fields (nested objects one level down) whose values differ between a and b. */
export function changedPaths(a: PatientInput, b: PatientInput): string[][] {
  const out: string[][] = []
  for (const key of Object.keys(b)) {
    const x = (a as unknown as Obj)[key]
    const y = (b as unknown as Obj)[key]
    if (NESTED.includes(key)) {
      for (const sub of Object.keys((y ?? {}) as Obj)) {
        if (JSON.stringify((x as Obj | undefined)?.[sub]) !== JSON.stringify((y as Obj)[sub])) out.push([key, sub])
      }
    } else if (JSON.stringify(x) !== JSON.stringify(y)) {
      out.push([key])
    }
  }
  return out
}

/** Someone else's newer version with my own changes (relative to what I had loaded) on top. */
export function mergeMine(loaded: PatientInput, mine: PatientInput, theirs: PatientInput): PatientInput {
  const merged = structuredClone(theirs) as unknown as Obj
  for (const path of changedPaths(loaded, mine)) {
    const value = path.reduce<unknown>((o, k) => (o as Obj)[k], mine)
    if (path.length === 1) merged[path[0]] = structuredClone(value)
    else (merged[path[0]] as Obj)[path[1]] = structuredClone(value)
  }
  return merged as unknown as PatientInput
}
