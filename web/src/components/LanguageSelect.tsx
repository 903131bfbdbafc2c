import { GlobalOutlined } from '@ant-design/icons'
import { Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { LANGUAGE_NAMES, setLanguage, type Language } from '../lib/i18n'

const ORDER: Language[] = ['vi', 'en', 'zh', 'ru']

/** The language selector: each language named in itself. */
export function LanguageSelect({ onChanged }: { onChanged?: (lang: Language) => void }) {
  const { t, i18n } = useTranslation()
  return (
    <Select<Language>
      aria-label={t('language.label')}
      value={i18n.language as Language}
      onChange={(lang) => void setLanguage(lang).then(() => onChanged?.(lang))}
      options={ORDER.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
      suffixIcon={<GlobalOutlined />}
      style={{ minWidth: 130 }}
      popupMatchSelectWidth={false}
    />
  )
}
