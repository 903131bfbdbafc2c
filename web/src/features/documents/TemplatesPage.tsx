import { AppstoreAddOutlined, PlusOutlined } from '@ant-design/icons'
import { App, Button, Card, Flex, Select, Table, Tag } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { LANGUAGE_NAMES, LANGUAGE_ORDER, type Language } from '../../lib/i18n'
import { formatDayTime } from '../../lib/time'
import { useInstallStarter } from './api/installStarterTemplates'
import { useTemplates } from './api/templates'
import type { DocumentTemplate } from './api/types'
import { ScrollRegion } from '../../components/ScrollRegion'

/** The clinic's document templates: every kind in every language, to open, add or withdraw. */
export default function TemplatesPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const navigate = useNavigate()
  const { data, isLoading } = useTemplates(true)
  const starter = useInstallStarter()
  const [language, setLanguage] = useState<string>()
  const shown = useMemo(() => (data ?? []).filter((tp) => !language || tp.language === language), [data, language])
  return (
    <Card
      title={t('route.documentTemplates')}
      extra={
        <Flex wrap gap={8}>
          <Select
            allowClear
            value={language}
            onChange={setLanguage}
            placeholder={t('documents.allLanguages')}
            aria-label={t('documents.language')}
            style={{ minWidth: 160 }}
            options={LANGUAGE_ORDER.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          />
          <Button icon={<AppstoreAddOutlined aria-hidden />} loading={starter.isPending} onClick={() => void starter.mutateAsync().then((r) => message.success(t('documents.starterAdded', { count: r.added })))}>
            {t('documents.addStarter')}
          </Button>
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => navigate('/forms/templates/new')}>
            {t('documents.newTemplate')}
          </Button>
        </Flex>
      }
    >
      <ScrollRegion label={t('route.documentTemplates')}>
        <Table<DocumentTemplate>
          style={{ minWidth: 'max-content' }}
          rowKey="id"
          loading={isLoading}
          dataSource={shown}
          pagination={{ pageSize: 100, hideOnSinglePage: true }}
          columns={[
            { title: t('documents.name'), dataIndex: 'name', render: (name: string, tp) => (
                <Link to={`/forms/templates/${tp.id}`} lang={tp.language}>
                  {name}
                </Link>
              ),
            },
            { title: t('documents.kind'), dataIndex: 'kind', render: (k: string) => t(`documents.kinds.${k}`) },
            { title: t('documents.language'), dataIndex: 'language', render: (l: string) => <span lang={l}>{LANGUAGE_NAMES[l as Language]}</span> },
            { title: t('documents.paper'), dataIndex: 'paper', render: (p: string) => t(`documents.papers.${p}`) },
            { title: t('documents.state'), dataIndex: 'active', render: (a: boolean) => (a ? <Tag color="green">{t('documents.active')}</Tag> : <Tag>{t('documents.withdrawn')}</Tag>) },
            { title: t('documents.updated'), dataIndex: 'updated_at', render: (u: string) => formatDayTime(u) },
          ]}
        />
      </ScrollRegion>
    </Card>
  )
}
