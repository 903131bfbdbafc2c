import { PlusOutlined } from '@ant-design/icons'
import { App, Button, Empty, Flex, Form, Modal, Spin, Table, type FormInstance, type TableColumnsType } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../ScrollRegion'
import { focusFirstField } from '../focusFirstField'
import { showFormErrors } from '../../lib/formErrors'
import { PHONE, useMediaQuery } from '../../lib/media'
import { apiTokensKey } from '../../lib/queryKeys'
import { useRefresh } from '../../lib/write'

/** A credential as a list shows it: API tokens, backend clients and SMART apps alike. */
type Credential = { id: number; name: string }

type Column<T> = TableColumnsType<T>[number]

/** A column's heading and its cell for one credential, as the stacked list shows them. */
const heading = <T,>(c: Column<T>): ReactNode => (typeof c.title === 'function' ? null : c.title)
const cell = <T,>(c: Column<T>, k: T, i: number): ReactNode => ('render' in c && c.render ? (c.render(undefined, k, i) as ReactNode) : null)

/**
 * The credentials on a phone: one card each, its first column (the name) on top and every
 * other column's heading over its value, so that nothing needs scrolling sideways.
 */
function CredentialCards<T extends Credential>({ label, items, loading, empty, columns, action }: {
  label: string
  items?: T[]
  loading: boolean
  empty: ReactNode
  columns: TableColumnsType<T>
  action: (k: T) => ReactNode
}) {
  if (!items) return loading ? <Spin /> : empty
  if (items.length === 0) return empty
  const [first, ...rest] = columns
  return (
    <ul className="credential-cards" aria-label={label} aria-busy={loading}>
      {items.map((k, i) => (
        <li key={k.id}>
          {first && cell(first, k, i)}
          <dl>
            {rest.map((c, j) => (
              <div key={String(c.key ?? j)}>
                <dt>{heading(c)}</dt>
                <dd>{cell(c, k, i)}</dd>
              </div>
            ))}
          </dl>
          <Flex justify="end">{action(k)}</Flex>
        </li>
      ))}
    </ul>
  )
}

/**
 * The list of one kind of credential with what every kind shares: a "new" button opening a
 * register form (its fields the caller's), the table (its columns the caller's) with a revoke
 * button on each live row that asks before it revokes, and the lists refreshed after either.
 * On a phone the table is a list of cards instead.
 */
export function CredentialRegistry<T extends Credential, F extends object>(props: {
  /** Names the scrolling list for a screen reader. */
  label: string
  newLabel: string
  /** The page's main action (a primary button). */
  primary?: boolean
  items?: T[]
  loading: boolean
  empty: string
  /** The table's least width once it has rows (it scrolls sideways below it). */
  minWidth?: number
  columns: TableColumnsType<T>
  /** Whether a row may still be revoked. */
  live: (k: T) => boolean
  revokeTitle: (k: T) => string
  revoke: (id: number) => Promise<unknown>
  revoked: string
  /** The register form: its instance, name, first values, fields and what submitting does. */
  form: FormInstance<F>
  formName: string
  formTitle: string
  okText: string
  initialValues?: Partial<F>
  register: (v: F) => Promise<unknown>
  open: boolean
  onOpenChange: (open: boolean) => void
  children: ReactNode
}) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const { form } = props
  const phone = useMediaQuery(PHONE)
  const refresh = useRefresh(apiTokensKey)

  const submit = async (v: F) => {
    try {
      await props.register(v)
      props.onOpenChange(false)
      refresh()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const confirmRevoke = (k: T) =>
    modal.confirm({
      title: props.revokeTitle(k),
      content: t('apiAccess.revokeHint'),
      okText: t('apiAccess.revoke'),
      okButtonProps: { danger: true },
      cancelText: t('accounts.cancel'),
      onOk: async () => {
        await props.revoke(k.id)
        message.success(props.revoked)
        refresh()
      },
    })
  const revokeButton = (k: T) =>
    props.live(k) && (
      <Button size="small" danger onClick={() => confirmRevoke(k)} aria-label={t('apiAccess.revokeNamed', { name: k.name })}>
        {t('apiAccess.revoke')}
      </Button>
    )
  const actions: Column<T> = {
    key: 'actions',
    title: <span className="visually-hidden">{t('apiAccess.actions')}</span>,
    render: (_, k) => revokeButton(k),
  }
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={props.empty} />

  return (
    <>
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <Button type={props.primary ? 'primary' : 'default'} icon={<PlusOutlined aria-hidden />} onClick={() => (form.resetFields(), props.onOpenChange(true))}>
          {props.newLabel}
        </Button>
      </Flex>
      {phone ? (
        <CredentialCards label={props.label} items={props.items} loading={props.loading} empty={empty} columns={props.columns} action={revokeButton} />
      ) : (
        <ScrollRegion label={props.label}>
          <Table<T>
            rowKey="id"
            size="small"
            loading={props.loading}
            dataSource={props.items}
            pagination={false}
            style={{ minWidth: props.items?.length ? (props.minWidth ?? 760) : undefined }}
            locale={{ emptyText: empty }}
            columns={[...props.columns, actions]}
          />
        </ScrollRegion>
      )}
      <Modal
        afterOpenChange={focusFirstField}
        open={props.open}
        title={props.formTitle}
        onCancel={() => props.onOpenChange(false)}
        onOk={() => form.submit()}
        okText={props.okText}
        cancelText={t('accounts.cancel')}
        destroyOnHidden
        forceRender
      >
        <Form form={form} name={props.formName} layout="vertical" initialValues={props.initialValues} onFinish={(v: F) => void submit(v)} autoComplete="off">
          {props.children}
        </Form>
      </Modal>
    </>
  )
}
