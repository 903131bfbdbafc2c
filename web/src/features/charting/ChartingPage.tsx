import { DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { Alert, Button, Card, Form, Input, InputNumber, List, Modal, Select, Space, Table, Tabs, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { StarButton } from '../../components/StarButton'
import { ApiError } from '../../lib/api'
import { usePicks, useSnippets, type Pick, type Snippet } from '../../lib/charting'
import { LANGUAGE_NAMES } from '../../lib/i18n'
import { useDeleteSet } from './api/deleteOrderSet'
import { useOrderSets, type OrderSet } from './api/orderSets'
import { useSaveSet } from './api/saveOrderSet'
import { useDeleteSnippet } from './api/deleteSnippet'
import { useSaveSnippet, type SnippetInput } from './api/snippets'
import { RowActions, ScopeField } from './components/fields'
import styles from './ChartingPage.module.css'

const LANGUAGES = ['', 'en', 'ru', 'zh', 'vi'] as const
const SECTIONS = ['any', 'complaint', 'history', 'examination', 'plan'] as const
const PLACEHOLDERS = ['{{age}}', '{{sex}}', '{{vitals.bp}}', '{{allergies}}', '{{last.HbA1c}}']

/** /forms/charting: the doctor's order sets, snippets and favourites (and the clinic's, for whoever keeps them). */
export default function ChartingPage() {
  const { t } = useTranslation()
  return (
    <Card title={t('route.chartingAids')}>
      <Tabs
        className={styles.tabs}
        items={[
          { key: 'sets', label: t('chartingAids.sets'), children: <SetsTab /> },
          { key: 'snippets', label: t('chartingAids.snippets'), children: <SnippetsTab /> },
          { key: 'favourites', label: t('chartingAids.favourites'), children: <FavouritesTab /> },
        ]}
      />
    </Card>
  )
}

function ScopeTag({ scope, example }: { scope: string; example?: boolean }) {
  const { t } = useTranslation()
  return (
    <Space size={4} wrap>
      <Tag>{scope === 'clinic' ? t('orderSets.clinicWide') : t('orderSets.personal')}</Tag>
      {example && <Tag>{t('orderSets.example')}</Tag>}
    </Space>
  )
}

function SetsTab() {
  const { t } = useTranslation()
  const sets = useOrderSets()
  const remove = useDeleteSet()
  const [editing, setEditing] = useState<OrderSet | null>(null)
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert type="info" showIcon title={t('chartingAids.setsHelp')} />
      <ScrollRegion label={t('chartingAids.sets')}>
        <Table<OrderSet>
          rowKey="id"
          loading={sets.isLoading}
          dataSource={sets.data}
          pagination={false}
          columns={[
            { title: t('orderSets.name'), dataIndex: 'name', render: (name: string, s) => (<Space orientation="vertical" size={2}><strong>{name}</strong><ScopeTag scope={s.scope} example={s.example} /></Space>) },
            {
              title: t('chartingAids.contents'),
              key: 'contents',
              render: (_, s) => (
                <Typography.Text>
                  {[
                    s.content.diagnoses.map((d) => d.code || d.text).join(', '),
                    s.content.orders.map((o) => o.label || o.code).join(', '),
                    s.content.items.map((it) => it.medicine).join(', '),
                    s.content.follow_up_days > 0 ? t('chartingAids.followUpDays', { count: s.content.follow_up_days }) : '',
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </Typography.Text>
              ),
            },
            {
              title: t('chartingAids.actions'),
              key: 'actions',
              width: 120,
              render: (_, s) => s.mine && <RowActions name={s.name} confirm={t('chartingAids.deleteSet', { name: s.name })} onEdit={() => setEditing(s)} onDelete={() => remove.mutate(s)} />,
            },
          ]}
        />
      </ScrollRegion>
      {editing && <SetEditor set={editing} onClose={() => setEditing(null)} />}
    </Space>
  )
}

/** Changes a set: its name, language, plan and follow-up, and which of its items it keeps. */
function SetEditor({ set, onClose }: { set: OrderSet; onClose: () => void }) {
  const { t } = useTranslation()
  const save = useSaveSet()
  const [content, setContent] = useState(set.content)
  const [form] = Form.useForm<{ name: string; language: OrderSet['language']; plan: string; follow_up_days: number }>()
  const [problem, setProblem] = useState('')
  const submit = async () => {
    const v = await form.validateFields()
    try {
      await save.mutateAsync({ id: set.id, input: { name: v.name, scope: set.scope, language: v.language, version: set.version, content: { ...content, plan: v.plan, follow_up_days: v.follow_up_days ?? 0 } } })
      onClose()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      setProblem(e.display)
    }
  }
  const row = (label: string, onRemove: () => void, key: string) => (
    <List.Item key={key} actions={[<Button key="x" size="small" type="text" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('chartingAids.removeItem', { item: label })} onClick={onRemove} />]}>
      {label}
    </List.Item>
  )
  return (
    <Modal open title={t('chartingAids.editSet')} okText={t('chartingAids.save')} cancelText={t('appointments.cancelButton')} onOk={() => void submit()} onCancel={onClose} confirmLoading={save.isPending} width={680} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ name: set.name, language: set.language, plan: set.content.plan, follow_up_days: set.content.follow_up_days }}>
        <Form.Item name="name" label={t('orderSets.name')} rules={[{ required: true, whitespace: true, message: t('orderSets.nameRequired') }]}>
          <Input maxLength={120} />
        </Form.Item>
        <Form.Item name="language" label={t('chartingAids.language')}>
          <Select options={LANGUAGES.map((l) => ({ value: l, label: l ? LANGUAGE_NAMES[l] : t('chartingAids.languages.any') }))} />
        </Form.Item>
        <List size="small" header={<strong>{t('chartingAids.items')}</strong>} bordered>
          {content.diagnoses.map((d, i) => row(d.code ? `${d.code} ${d.label ?? ''}` : d.text, () => setContent((c) => ({ ...c, diagnoses: c.diagnoses.filter((_, j) => j !== i) })), `d${i}`))}
          {content.orders.map((o, i) => row(o.label || o.code, () => setContent((c) => ({ ...c, orders: c.orders.filter((_, j) => j !== i) })), `o${i}`))}
          {content.items.map((it, i) =>
            row([it.medicine, it.dose, it.frequency, it.duration].filter(Boolean).join(', '), () => setContent((c) => ({ ...c, items: c.items.filter((_, j) => j !== i) })), `i${i}`),
          )}
          {content.checks.map((ch, i) => row(`${t('orderSets.checkItem')}: ${ch.text}`, () => setContent((c) => ({ ...c, checks: c.checks.filter((_, j) => j !== i) })), `c${i}`))}
        </List>
        <Form.Item name="plan" label={t('visit.fields.plan')} style={{ marginTop: 16 }}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} maxLength={4000} />
        </Form.Item>
        <Form.Item name="follow_up_days" label={t('chartingAids.followUp')}>
          <InputNumber min={0} max={730} precision={0} controls={false} suffix={t('orderSets.daysUnit')} />
        </Form.Item>
      </Form>
      {problem && <Alert type="error" showIcon role="alert" title={problem} />}
    </Modal>
  )
}

function SnippetsTab() {
  const { t } = useTranslation()
  const snippets = useSnippets()
  const remove = useDeleteSnippet()
  const [editing, setEditing] = useState<Snippet | 'new' | null>(null)
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert type="info" showIcon title={t('chartingAids.snippetsHelp')} />
      <div>
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
          {t('chartingAids.newSnippet')}
        </Button>
      </div>
      <ScrollRegion label={t('chartingAids.snippets')}>
        <Table<Snippet>
          rowKey="id"
          loading={snippets.isLoading}
          dataSource={snippets.data}
          pagination={false}
          columns={[
            { title: t('chartingAids.shortcut'), dataIndex: 'shortcut', width: 110, render: (s: string) => <code>{s}</code> },
            { title: t('chartingAids.section'), dataIndex: 'section', width: 130, render: (s: string) => t(`chartingAids.sections.${s}`) },
            { title: t('chartingAids.text'), dataIndex: 'body', render: (b: string, s) => (<Space orientation="vertical" size={2}><span style={{ whiteSpace: 'pre-wrap' }}>{b}</span><ScopeTag scope={s.scope} example={s.example} /></Space>) },
            {
              title: t('chartingAids.actions'),
              key: 'actions',
              width: 120,
              render: (_, s) => s.mine && <RowActions name={s.shortcut} confirm={t('chartingAids.deleteSnippet', { name: s.shortcut })} onEdit={() => setEditing(s)} onDelete={() => remove.mutate(s)} />,
            },
          ]}
        />
      </ScrollRegion>
      {editing && <SnippetEditor snippet={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />}
    </Space>
  )
}

/** Writes a snippet: its shortcut, section, language, scope and text with placeholders. */
function SnippetEditor({ snippet, onClose }: { snippet?: Snippet; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const save = useSaveSnippet()
  const [form] = Form.useForm<SnippetInput>()
  const submit = async () => {
    const v = await form.validateFields()
    try {
      await save.mutateAsync({ id: snippet?.id, input: { ...v, version: snippet?.version ?? 0 } })
      onClose()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      form.setFields(Object.entries(e.fields).map(([name, errors]) => ({ name: name as keyof SnippetInput, errors })))
    }
  }
  const insert = (p: string) => form.setFieldValue('body', `${(form.getFieldValue('body') as string | undefined) ?? ''}${p}`)
  return (
    <Modal open title={snippet ? t('chartingAids.editSnippet') : t('chartingAids.newSnippet')} okText={t('chartingAids.save')} cancelText={t('appointments.cancelButton')} onOk={() => void submit()} onCancel={onClose} confirmLoading={save.isPending} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        initialValues={snippet ? { scope: snippet.scope, section: snippet.section, shortcut: snippet.shortcut, language: snippet.language, body: snippet.body } : { scope: 'personal', section: 'any', shortcut: ';', language: i18n.language, body: '' }}
      >
        <Form.Item name="shortcut" label={t('chartingAids.shortcut')} extra={t('chartingAids.shortcutHelp')} rules={[{ required: true, pattern: /^;[\p{L}\p{N}-]{1,20}$/u, message: t('chartingAids.shortcutRule') }]}>
          <Input maxLength={21} autoFocus />
        </Form.Item>
        <Form.Item name="section" label={t('chartingAids.section')}>
          <Select options={SECTIONS.map((s) => ({ value: s, label: t(`chartingAids.sections.${s}`) }))} />
        </Form.Item>
        <Form.Item name="language" label={t('chartingAids.language')}>
          <Select options={LANGUAGES.map((l) => ({ value: l, label: l ? LANGUAGE_NAMES[l] : t('chartingAids.languages.any') }))} />
        </Form.Item>
        {!snippet && <ScopeField />}
        <Form.Item name="body" label={t('chartingAids.text')} rules={[{ required: true, whitespace: true, message: t('chartingAids.textRequired') }]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={4000} />
        </Form.Item>
        <Space wrap size={4} aria-label={t('chartingAids.placeholders')} role="group">
          <Typography.Text type="secondary">{t('chartingAids.placeholders')}</Typography.Text>
          {PLACEHOLDERS.map((p) => (
            <Button key={p} size="small" onClick={() => insert(p)}>
              {p}
            </Button>
          ))}
        </Space>
      </Form>
    </Modal>
  )
}

function FavouritesTab() {
  const { t } = useTranslation()
  const picks = usePicks()
  const list = (title: string, kind: 'code' | 'test' | 'medicine', items: Pick[] | undefined) => (
    <Card size="small" title={title} style={{ marginBottom: 12 }}>
      <List
        size="small"
        loading={picks.isLoading}
        dataSource={items ?? []}
        locale={{ emptyText: <Typography.Text type="secondary">{t('chartingAids.noFavourites')}</Typography.Text> }}
        renderItem={(p) => (
          <List.Item actions={[<StarButton key="star" kind={kind} refId={p.ref} name={p.label} />]}>
            <Space wrap>
              <span>{kind === 'code' ? `${p.ref} — ${p.label}` : p.label}</span>
              {p.uses > 0 && <Typography.Text type="secondary">{t('chartingAids.uses', { count: p.uses })}</Typography.Text>}
            </Space>
          </List.Item>
        )}
      />
    </Card>
  )
  return (
    <>
      <Alert type="info" showIcon title={t('chartingAids.favouritesHelp')} style={{ marginBottom: 12 }} />
      {list(t('chartingAids.codes'), 'code', picks.data?.codes)}
      {list(t('chartingAids.tests'), 'test', picks.data?.tests)}
      {list(t('chartingAids.medicines'), 'medicine', picks.data?.medicines)}
    </>
  )
}
