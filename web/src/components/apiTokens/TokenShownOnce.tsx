import { KeyOutlined } from '@ant-design/icons'
import { Alert, Button, Flex, Modal, Space, Typography } from 'antd'
import { useTranslation } from 'react-i18next'

/** A token just made, as its creation answered: the token itself and whose it is. */
export interface MadeToken {
  token: string
  api_token: { name: string; user_name: string }
}

/**
 * The token just made, shown this once (only its hash is kept), with how a program sends it.
 * forAccount names the account it was made for (an administrator's token for another).
 */
export function TokenShownOnce({ made, base, forAccount, onClose }: { made: MadeToken | null; base: string; forAccount?: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <Modal
      open={made !== null}
      title={
        <Space>
          <KeyOutlined aria-hidden />
          {t('apiAccess.madeTitle')}
        </Space>
      }
      onCancel={onClose}
      footer={
        <Flex justify="end">
          <Button type="primary" onClick={onClose}>
            {t('apiAccess.done')}
          </Button>
        </Flex>
      }
    >
      {made && (
        <>
          <Alert type="warning" showIcon title={t('apiAccess.shownOnce')} style={{ marginBottom: 12 }} />
          {forAccount && <Typography.Paragraph>{t('apiAccess.madeFor', { name: made.api_token.name, account: made.api_token.user_name })}</Typography.Paragraph>}
          <Typography.Paragraph code copyable={{ text: made.token }} data-testid="new-token" style={{ overflowWrap: 'anywhere' }}>
            {made.token}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('apiAccess.curlHint')}</Typography.Paragraph>
          <Typography.Paragraph code style={{ overflowWrap: 'anywhere' }}>
            {`curl -H "Authorization: Bearer …" ${base}/Patient?name=…`}
          </Typography.Paragraph>
        </>
      )}
    </Modal>
  )
}
