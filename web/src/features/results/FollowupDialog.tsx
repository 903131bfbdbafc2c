// What was done about a withdrawn critical value: one of the follow-ups (the patient told, a
// treatment stopped, whoever was told of it told, a repeat ordered, or nothing as nothing was
// acted on) and a note. Asked when a withdrawal is seen (the banner) and when the ordering
// doctor reviews the order that held it (the review queue): a withdrawal never closes unsaid.
import { App, Form, Input, Modal, Radio, Space, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../lib/api'
import { FOLLOWUPS } from './api/types'

interface FollowupValues {
  followup?: string
  note?: string
}

export function FollowupDialog({ onSubmit, onClose }: { onSubmit: (followup: string, note: string) => Promise<unknown>; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<FollowupValues>()
  const submit = async () => {
    // A field left wrong says so beside it: nothing to send.
    const v = await form.validateFields().catch(() => null)
    if (!v) return
    try {
      await onSubmit(v.followup!, v.note?.trim() ?? '')
      void message.success(t('results.followupSaved'))
      onClose()
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fields).length > 0) {
        form.setFields(Object.entries(e.fields).map(([name, errors]) => ({ name: (name === 'comment' ? 'note' : name) as keyof FollowupValues, errors })))
        return
      }
      void message.error((e as Error).message)
    }
  }
  return (
    <Modal
      open
      title={t('results.followupTitle')}
      okText={t('results.followupOpen')}
      cancelText={t('results.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      maskClosable={false}
      okButtonProps={{ 'data-testid': 'followup-save' } as never}
    >
      <Typography.Paragraph type="danger">{t('results.withdrawnBannerTitle')}</Typography.Paragraph>
      <Form<FollowupValues> form={form} layout="vertical" requiredMark>
        <Form.Item name="followup" label={t('results.followupLabel')} rules={[{ required: true, message: t('results.followupRequired') }]}>
          <Radio.Group>
            <Space orientation="vertical">
              {FOLLOWUPS.map((f) => (
                <Radio key={f} value={f}>
                  {t(`results.followups.${f}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="note" label={t('results.followupNote')}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 1, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
