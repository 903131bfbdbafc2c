import type { ReactNode } from 'react'
import type { Snippet } from '../../../lib/charting'

/** What the visit's texts type with: the doctor's snippets, the chart's values, and the mark of a section copied forward. */
export interface TextAids {
  snippets: Snippet[]
  values: () => Record<string, string>
  /** The "copied — taken on <date>" mark of a field, or nothing. */
  copied: (field: string) => ReactNode
}
