// Merging after a conflict (409): someone saved a newer version of a record while this user
// edited it. Their version is taken, with this user's own changes (relative to what the
// form was loaded with) on top, so nothing either of them typed is lost.

type Obj = Record<string, unknown>

/** The fields whose values differ between a and b; fields named in nested are compared one level down. */
export function changedPaths<T extends object>(a: T, b: T, nested: readonly string[] = []): string[][] {
  const out: string[][] = []
  for (const key of Object.keys(b)) {
    const x = (a as Obj)[key]
    const y = (b as Obj)[key]
    if (nested.includes(key)) {
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
export function mergeMine<T extends object>(loaded: T, mine: T, theirs: T, nested: readonly string[] = []): T {
  const merged = structuredClone(theirs) as Obj
  for (const path of changedPaths(loaded, mine, nested)) {
    const value = path.reduce<unknown>((o, k) => (o as Obj)[k], mine)
    if (path.length === 1) merged[path[0]] = structuredClone(value)
    else (merged[path[0]] as Obj)[path[1]] = structuredClone(value)
  }
  return merged as T
}
