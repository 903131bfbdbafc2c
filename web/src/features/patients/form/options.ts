import { useTranslation } from 'react-i18next'

/** Select options: translated choices (patients.<prefix>.<value>), or values shown as they are. */
export function useOptions() {
  const { t } = useTranslation()
  return {
    opt: (prefix: string, values: readonly string[]) => values.map((v) => ({ value: v, label: t(`patients.${prefix}.${v}`) })),
    plain: (values: readonly string[]) => values.map((v) => ({ value: v, label: v })),
  }
}
