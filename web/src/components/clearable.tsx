import { useTranslation } from 'react-i18next'

/**
 * A select's "clear" control named in the user's language: `allowClear={clear.select}` (Ant
 * Design names it "Clear" in English whatever the locale). An input's clear button is named
 * from its icon, with every other library icon (app/iconLabels).
 */
export function useClearable() {
  const { t } = useTranslation()
  return { select: { label: t('app.clear') } }
}
