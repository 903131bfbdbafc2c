// The diagnosis code list, on the light components (src/light; issue 58): the queue opens it
// without loading the component library.
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ImportProgressBar } from '../../components/ImportProgress'
import { UploadButton } from '../../components/UploadButton'
import { debounce } from '../../lib/debounce'
import { PHONE, useMediaQuery } from '../../lib/media'
import type { ImportReport } from '../../lib/types'
import { Alert } from '../../light/Alert'
import { Drawer } from '../../light/Drawer'
import { Pager } from '../../light/Pager'
import { SearchField } from '../../light/SearchField'
import { Table } from '../../light/Table'
import { useImportCodes } from './api/importCodes'
import { searchCodes } from './api/searchCodes'
import type { Code } from './api/types'
import styles from './codes.module.css'

const PAGE = 10

/** The lines of a code file the import refused, ten to a page (a pager only past ten). */
function Rejected({ errors }: { errors: ImportReport['errors'] }) {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const rows = errors.slice((page - 1) * PAGE, page * PAGE)
  return (
    <>
      <Table
        size="small"
        label={t('codes.problem')}
        rowKey={(e) => e.line}
        rows={rows}
        columns={[
          { key: 'line', header: t('codes.line'), width: 80, cell: (e) => e.line },
          { key: 'message', header: t('codes.problem'), cell: (e) => e.message },
        ]}
      />
      {errors.length > PAGE && <Pager page={page} pageSize={PAGE} total={errors.length} onChange={(p) => setPage(p)} />}
    </>
  )
}

/** The diagnosis code list: search it, and (admins) import a full code set from CSV. */
export function CodesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const phone = useMediaQuery(PHONE)
  const importCodes = useImportCodes()
  const [report, setReport] = useState<ImportReport>()
  const [codes, setCodes] = useState<Code[]>([])
  const search = useMemo(() => debounce((q: string) => void searchCodes(q).then(setCodes), 250), [])
  // The list shows the first codes as the drawer opens.
  useEffect(() => {
    if (open) void search('')
  }, [open, search])

  return (
    <Drawer open={open} onClose={onClose} title={t('codes.title')} width={phone ? '100%' : 736} closeLabel={t('app.icons.close')}>
      <div className={styles.drawer}>
        <p className={styles.help}>{t('codes.importHelp')}</p>
        <div>
          <UploadButton accept=".csv,.tsv,.txt,text/csv" loading={importCodes.isPending} onFile={(file) => importCodes.mutate(file, { onSuccess: setReport })}>
            {t('codes.import')}
          </UploadButton>
        </div>
        <ImportProgressBar list="diagnosis_codes" active={importCodes.isPending} />
        {/* The import's outcome is said as it comes (the library's alert was an alert): the region is there before it. */}
        <div role="status">
          {report && (
            <Alert
              type={report.rejected > 0 ? 'warning' : 'success'}
              title={t('codes.report', { inserted: report.inserted, updated: report.updated, unchanged: report.unchanged, rejected: report.rejected })}
              description={report.errors.length > 0 && <Rejected errors={report.errors} />}
            />
          )}
        </div>
        <SearchField className={styles.search} label={t('codes.search')} placeholder={t('visit.codeSearch')} onChange={search} onSearch={search} />
        <ul className={styles.list}>
          {codes.map((c) => (
            <li key={c.code} className={styles.item}>
              <strong className={styles.code}>{c.code}</strong>
              <span className={styles.label}>{c.label}</span>
            </li>
          ))}
        </ul>
      </div>
    </Drawer>
  )
}
