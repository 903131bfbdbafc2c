import { billsKey } from '../../../lib/queryKeys'
import { useRefresh } from '../../../lib/write'

// Under the appointments key too: a payment anywhere refreshes the open reports live.
export const reportsKey = [...billsKey, 'reports'] as const

/** A report's CSV file (audited by the server). */
export const csvHref = (report: string, params: Record<string, string>) => `/api/reports/${report}?${new URLSearchParams({ ...params, format: 'csv' }).toString()}`

/** Every report (the cash-up's drawers among them) reads again. */
export const useRefreshReports = () => useRefresh(reportsKey)
