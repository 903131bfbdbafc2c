import { CopyOutlined, DownloadOutlined, PrinterOutlined } from '@ant-design/icons'
import { App, Button, Space } from 'antd'
import { useTranslation } from 'react-i18next'

/** Keeps the recovery codes somewhere safe: copied, saved as a text file, or printed on their own. */
export function RecoveryCodeActions({ codes }: { codes: string[] }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const text = `${t('twoFactor.codesFileTitle', { host: window.location.host })}\n\n${codes.join('\n')}\n`
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      message.success(t('twoFactor.codesCopied'))
    } catch {
      message.error(t('twoFactor.codesNotCopied'))
    }
  }
  const download = () => {
    const a = document.createElement('a')
    a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }))
    a.download = 'recovery-codes.txt'
    a.click()
    URL.revokeObjectURL(a.href)
  }
  const print = () => {
    // A window of their own: the page behind them is not printed with them. Text only, never HTML.
    const w = window.open('', '_blank', 'noopener=no,width=480,height=640')
    if (!w) return
    const pre = w.document.createElement('pre')
    pre.textContent = text
    pre.style.fontSize = '14pt'
    w.document.body.append(pre)
    w.document.title = t('twoFactor.codesTitle')
    w.print()
  }
  return (
    <Space wrap>
      <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
        {t('twoFactor.copyCodes')}
      </Button>
      <Button icon={<DownloadOutlined aria-hidden />} onClick={download} data-testid="download-codes">
        {t('twoFactor.downloadCodes')}
      </Button>
      <Button icon={<PrinterOutlined aria-hidden />} onClick={print}>
        {t('twoFactor.printCodes')}
      </Button>
    </Space>
  )
}
