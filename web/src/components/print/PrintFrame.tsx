import { ArrowLeftOutlined, PrinterOutlined } from '@ant-design/icons'
import { Button, Space } from 'antd'
import type { ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { pageRule } from './pageFooter'
import styles from './print.module.css'

interface Props {
  /** The CSS page size: "A5", "A4 landscape", "80mm 297mm". */
  size: string
  /** The page margin; 10 mm unless a roll's. */
  margin?: string
  /** Controls after Back (the paper's size, a status tag). */
  controls?: ReactNode
  /** The print button, when the paper may be printed now: its label, and what it does. */
  action?: { label: string; busy?: boolean; onPrint: () => void }
  /** After the print button: the paper's status. */
  status?: ReactNode
  /** The running footer of every printed page (pageFooter.ts: PAGE and PAGES for the numbers). */
  footer?: string
  /** Notices under the toolbar, on screen only. */
  notices?: ReactNode
  /** The sheet; drawn twice, on screen (with testId) and alone for the printer. */
  sheet: (testId?: string) => ReactNode
  testId?: string
}

/**
 * A printed page: the toolbar (Back, the page's controls, Print) and notices on screen, the
 * sheet under them, and a copy of the sheet that alone goes to the printer. Every print page
 * is built on it, with usePrint for "record the print, then print".
 */
export function PrintFrame({ size, margin = '10mm', footer, controls, action, status, notices, sheet, testId }: Props) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <div>
      <style>{pageRule(size, margin, footer)}</style>
      <Space orientation="vertical" className={styles.toolbar} style={{ width: '100%' }}>
        <Space wrap>
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate(-1)}>
            {t('rx.back')}
          </Button>
          {controls}
          {action && (
            <Button type="primary" icon={<PrinterOutlined aria-hidden />} loading={action.busy} onClick={action.onPrint}>
              {action.label}
            </Button>
          )}
          {status}
        </Space>
        {notices}
      </Space>
      {sheet(testId)}
      {createPortal(<div className={styles.printRoot}>{sheet()}</div>, document.body)}
    </div>
  )
}
