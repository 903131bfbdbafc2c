import { useTranslation } from 'react-i18next'

/** Select and checkbox options: each value of a label map (lib/labels.ts), in the map's order, translated; or values shown as they are. */
export function useOptions() {
  const { t } = useTranslation()
  return {
    opt: (labels: Record<string, string>) => Object.entries(labels).map(([value, key]) => ({ value, label: t(key) })),
    plain: (values: readonly string[]) => values.map((v) => ({ value: v, label: v })),
  }
}
