import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider } from 'antd'
import type { Locale } from 'antd/es/locale'
import enUS from 'antd/locale/en_US'
import ruRU from 'antd/locale/ru_RU'
import viVN from 'antd/locale/vi_VN'
import zhCN from 'antd/locale/zh_CN'
import dayjs from 'dayjs'
import 'dayjs/locale/ru'
import 'dayjs/locale/vi'
import 'dayjs/locale/zh-cn'
import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../lib/api'
import type { Language } from '../lib/i18n'
import { DEFAULT_THEME_COLOR, themeFor } from '../lib/theme'

const antdLocales: Record<Language, Locale> = { en: enUS, ru: ruRU, zh: zhCN, vi: viVN }
const dayjsLocales: Record<Language, string> = { en: 'en', ru: 'ru', zh: 'zh-cn', vi: 'vi' }

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Client errors (401, 403, 404, 422) will not change on a retry.
        retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  })
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient)
  const { i18n } = useTranslation()
  const lang = (i18n.language in antdLocales ? i18n.language : 'en') as Language
  useEffect(() => {
    dayjs.locale(dayjsLocales[lang])
  }, [lang])
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={antdLocales[lang]} theme={themeFor(DEFAULT_THEME_COLOR)}>
        <AntApp>{children}</AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  )
}
