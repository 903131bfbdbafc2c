import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { IconButton } from '../../light/IconButton'
import { CheckIcon, CopyIcon } from '../../light/icons'
import styles from './chart.module.css'

/**
 * Copies a value (another system's number, a portal access code) as the library's copyable
 * text did: a small button after it named "Copy", a tick and "Copied" for a moment after.
 */
export function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation()
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const id = setTimeout(() => setCopied(false), 3000)
    return () => clearTimeout(id)
  }, [copied])
  return (
    <IconButton
      label={copied ? t('app.copied') : t('app.copy')}
      tooltipAlign="start"
      className={styles.copy}
      onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true), () => undefined)}
    >
      {copied ? <CheckIcon /> : <CopyIcon />}
    </IconButton>
  )
}
