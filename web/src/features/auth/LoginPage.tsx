import { LockOutlined, UserOutlined } from '@ant-design/icons'
import { Alert, Button, Card, Form, Input, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { LanguageSelect } from '../../components/LanguageSelect'
import { usePageTitle } from '../../components/usePageTitle'
import { ApiError } from '../../lib/api'
import { useLogin, type Credentials } from '../../lib/auth/login'
import { safeRedirect } from './redirect'
import styles from './LoginPage.module.css'

export default function LoginPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const loginMutation = useLogin()
  usePageTitle(t('login.title'))

  const onFinish = (values: Credentials) => {
    loginMutation.mutate(values, {
      onSuccess: () => navigate(safeRedirect(params.get('redirect')), { replace: true }),
    })
  }

  const error = loginMutation.error
  const errorText = error instanceof ApiError && error.display ? error.display : error ? t('errors.generic') : null

  return (
    <main className={styles.page}>
      <div className={styles.language}>
        <LanguageSelect />
      </div>
      <Card className={styles.card}>
        <div className={styles.brand}>
          <img src="/favicon.svg" alt="" width={40} height={40} />
          <Typography.Title level={1} className={styles.title}>
            {t('app.name')}
          </Typography.Title>
        </div>
        <Typography.Paragraph type="secondary" className={styles.subtitle}>
          {t('login.subtitle')}
        </Typography.Paragraph>
        {errorText && <Alert type="error" title={errorText} showIcon className={styles.alert} role="alert" />}
        <Form<Credentials> name="login" layout="vertical" onFinish={onFinish} requiredMark={false} size="large">
          <Form.Item label={t('login.username')} name="username" rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label={t('login.password')} name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
            <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={loginMutation.isPending}>
            {t('login.submit')}
          </Button>
        </Form>
      </Card>
    </main>
  )
}
