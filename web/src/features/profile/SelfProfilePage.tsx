import { DeleteOutlined, MinusCircleOutlined, PlusOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Alert, App, Avatar, Button, Card, Col, Flex, Form, Input, Result, Row, Select, Space, Spin, Typography, Upload } from 'antd'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SignatureCanvas, type SignatureCanvasHandle } from '../../components/SignatureCanvas'
import { fileOf } from '../../components/signature'
import { showFormErrors } from '../../lib/formErrors'
import { ApiError } from '../../lib/api'
import { meQuery } from '../../lib/auth/me'
import { useCan } from '../../lib/auth/can'
import { PasswordStrength } from '../../components/PasswordStrength'
import { useChangePassword } from './api/changePassword'
import { useProfile, useProfileChanged } from './api/getProfile'
import { removeAvatar } from './api/removeAvatar'
import { removeSignature } from './api/removeSignature'
import type { Profile } from './api/types'
import { updateProfile } from './api/updateProfile'
import { uploadImage } from './api/uploadImage'
import { TwoFactorCard } from './TwoFactorCard'
import { ApiTokensCard } from './ApiTokensCard'

const formData = (file: Blob, name: string) => {
  const fd = new FormData()
  fd.append('file', file, name)
  return fd
}

/** One's own profile (spec SelfProfile): details, licences, avatar, drawn signature, password. */
export default function SelfProfilePage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const refresh = useProfileChanged()
  const { data: p, isLoading, isError, refetch } = useProfile()
  const [form] = Form.useForm()
  const [saving, setSaving] = useState(false)
  const pad = useRef<SignatureCanvasHandle>(null)
  const { data: me } = useQuery(meQuery)
  const [sigError, setSigError] = useState<string>()
  // Licences, specialisations and a signature are what a signed paper prints: asked only of
  // those who sign one (a prescription or a document); anyone else keeps what is stored.
  const prescribes = useCan('write prescription')
  const issues = useCan('issue documents')
  const signs = prescribes || issues

  useEffect(() => {
    if (p) form.setFieldsValue({ name: p.name, email: p.email, introduction: p.introduction, specialisations: p.specialisations, licences: p.licences })
  }, [p, form])

  if (isError) return <Result status="warning" title={t('profile.loadFailed')} extra={<Button onClick={() => void refetch()}>{t('profile.retry')}</Button>} />
  if (isLoading || !p) return <Spin />

  const save = async (values: Pick<Profile, 'name' | 'email' | 'introduction' | 'specialisations' | 'licences'>) => {
    setSaving(true)
    try {
      const paper = signs ? { specialisations: values.specialisations, licences: values.licences ?? [] } : { specialisations: p.specialisations, licences: p.licences }
      refresh(await updateProfile({ ...values, ...paper }, p.version))
      message.success(t('profile.saved'))
    } catch (e) {
      showFormErrors(form, message, e)
    } finally {
      setSaving(false)
    }
  }

  const upload = async (kind: 'avatar' | 'signature', file: Blob, name: string) => {
    setSigError(undefined)
    try {
      refresh(await uploadImage(kind, formData(file, name)))
      message.success(t(kind === 'avatar' ? 'profile.avatarSaved' : 'profile.signatureSaved'))
      if (kind === 'signature') pad.current?.clear()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      if (kind === 'signature') setSigError(e.display)
      else message.error(e.display)
    }
  }

  const saveDrawn = async () => {
    const saved = pad.current!.save('image/png')
    if (saved.isEmpty) {
      setSigError(t('profile.signatureEmpty'))
      return
    }
    await upload('signature', fileOf(saved.data, 'signature.png'), 'signature.png')
  }

  const removeOwnSignature = async () => {
    try {
      await removeSignature(p.id)
      refresh({ ...p, has_signature: false, signature_url: '' })
      message.success(t('profile.signatureRemoved'))
    } catch {
      // the app's error toast has said why
    }
  }

  return (
    <Row gutter={[16, 16]}>
      {me?.must_change_password && (
        <Col xs={24}>
          <Alert type="warning" showIcon title={t('profile.mustChange')} data-testid="must-change" />
        </Col>
      )}
      {me?.must_enrol_two_factor && (
        <Col xs={24}>
          <Alert type="warning" showIcon title={t('twoFactor.mustEnrol')} data-testid="must-enrol" />
        </Col>
      )}
      <Col xs={24} lg={14}>
        <Card title={t('profile.details')}>
          <Flex gap={16} align="center" wrap style={{ marginBottom: 16 }}>
            <Avatar size={72} src={p.pic || undefined} icon={<UserOutlined aria-hidden />} alt={t('profile.avatar')} />
            <Space wrap>
              <Upload accept="image/png,image/jpeg,image/webp" showUploadList={false} beforeUpload={(f) => (void upload('avatar', f, f.name), false)}>
                <Button icon={<UploadOutlined aria-hidden />}>{t('profile.changeAvatar')}</Button>
              </Upload>
              {p.pic && (
                <Button icon={<DeleteOutlined aria-hidden />} onClick={() => void removeAvatar().then(refresh)}>
                  {t('profile.removeAvatar')}
                </Button>
              )}
            </Space>
          </Flex>
          <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
            <Row gutter={12}>
              <Col xs={24} md={12}>
                <Form.Item name="name" label={t('profile.fields.name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
                  <Input maxLength={200} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="email" label={t('profile.fields.email')}>
                  <Input type="email" maxLength={254} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="introduction" label={t('profile.fields.introduction')}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={2000} />
            </Form.Item>
            {signs && (
              <Form.Item name="specialisations" label={t('profile.fields.specialisations')} extra={t('profile.specialisationsHint')}>
                <Select mode="tags" open={false} aria-label={t('profile.fields.specialisations')} tokenSeparators={[',']} />
              </Form.Item>
            )}
            {signs && <Typography.Text strong>{t('profile.fields.licences')}</Typography.Text>}
            {signs && <Form.List name="licences">
              {(fields, { add, remove }) => (
                <div style={{ marginTop: 8 }}>
                  {fields.map((f) => (
                    <Row key={f.key} gutter={8} align="bottom" data-testid="licence">
                      <Col xs={24} sm={12} md={6}>
                        <Form.Item name={[f.name, 'number']} label={t('profile.licence.number')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
                          <Input />
                        </Form.Item>
                      </Col>
                      <Col xs={24} sm={12} md={6}>
                        <Form.Item name={[f.name, 'issuer']} label={t('profile.licence.issuer')}>
                          <Input />
                        </Form.Item>
                      </Col>
                      <Col xs={11} md={5}>
                        <Form.Item name={[f.name, 'valid_from']} label={t('profile.licence.from')}>
                          <Input type="date" />
                        </Form.Item>
                      </Col>
                      <Col xs={11} md={5}>
                        <Form.Item name={[f.name, 'valid_until']} label={t('profile.licence.until')}>
                          <Input type="date" />
                        </Form.Item>
                      </Col>
                      <Col xs={2} md={2}>
                        <Form.Item>
                          <Button type="text" danger icon={<MinusCircleOutlined aria-hidden />} aria-label={t('profile.licence.remove')} onClick={() => remove(f.name)} />
                        </Form.Item>
                      </Col>
                    </Row>
                  ))}
                  <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ number: '', issuer: '', valid_from: '', valid_until: '' })} style={{ marginBottom: 16 }}>
                    {t('profile.licence.add')}
                  </Button>
                </div>
              )}
            </Form.List>}
            <Button type="primary" htmlType="submit" loading={saving}>
              {t('profile.save')}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {signs && <Card title={t('profile.signature')}>
            {p.has_signature ? (
              <Flex align="center" gap={12} wrap style={{ marginBottom: 12 }}>
                <img src={p.signature_url} alt={t('profile.currentSignature')} style={{ height: 64, maxWidth: 240, objectFit: 'contain', border: '1px solid #f0f0f0', background: '#fff' }} />
                <Button danger icon={<DeleteOutlined aria-hidden />} onClick={() => void removeOwnSignature()}>
                  {t('profile.removeSignature')}
                </Button>
              </Flex>
            ) : (
              <Alert type="warning" showIcon title={t('profile.noSignature')} style={{ marginBottom: 12 }} />
            )}
            <Typography.Paragraph type="secondary">{t('profile.drawHint')}</Typography.Paragraph>
            <SignatureCanvas ref={pad} label={t('profile.signaturePad')} height={160} />
            {sigError && <Alert type="error" showIcon title={sigError} style={{ marginTop: 8 }} data-testid="signature-error" />}
            <Space wrap style={{ marginTop: 12 }}>
              <Button type="primary" onClick={() => void saveDrawn()}>
                {t('profile.saveSignature')}
              </Button>
              <Button onClick={() => (pad.current?.clear(), setSigError(undefined))}>{t('profile.clearPad')}</Button>
              <Upload accept="image/png,image/jpeg,image/svg+xml" showUploadList={false} beforeUpload={(f) => (void upload('signature', f, f.name), false)}>
                <Button icon={<UploadOutlined aria-hidden />}>{t('profile.uploadSignature')}</Button>
              </Upload>
            </Space>
          </Card>}
          <PasswordCard />
          <TwoFactorCard />
        </Space>
      </Col>
      <Col xs={24}>
        <ApiTokensCard userId={p.id} />
      </Col>
    </Row>
  )
}

function PasswordCard() {
  const { t } = useTranslation()
  const changePassword = useChangePassword()
  const { message } = App.useApp()
  const [form] = Form.useForm()
  const newPassword = Form.useWatch('new_password', form) as string | undefined
  const { data: me } = useQuery(meQuery)
  const [busy, setBusy] = useState(false)
  const submit = async (v: { current_password: string; new_password: string }) => {
    setBusy(true)
    try {
      await changePassword(v.current_password, v.new_password)
      form.resetFields()
      message.success(t('profile.passwordChanged'))
    } catch (e) {
      showFormErrors(form, message, e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card title={t('profile.password')}>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} autoComplete="off">
        <Form.Item name="current_password" label={t('profile.currentPassword')} rules={[{ required: true, message: t('validation.required') }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="new_password" label={t('profile.newPassword')} extra={<PasswordStrength password={newPassword} inputs={[me?.username ?? '', me?.name ?? '']} />} rules={[{ required: true, min: 12, message: t('profile.passwordPolicy') }]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('profile.confirmPassword')}
          dependencies={['new_password']}
          rules={[{ required: true, message: t('validation.required') }, ({ getFieldValue }) => ({ validator: (_, v) => (v === getFieldValue('new_password') ? Promise.resolve() : Promise.reject(new Error(t('profile.passwordMismatch')))) })]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Typography.Paragraph type="secondary">{t('profile.otherSessionsEnd')}</Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('profile.changePassword')}
        </Button>
      </Form>
    </Card>
  )
}
