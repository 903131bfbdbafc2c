import { ClockCircleOutlined } from '@ant-design/icons'
import { Result } from 'antd'
import { useTranslation } from 'react-i18next'

/** Shown on routes whose screens belong to a later release; the route, menu and permissions are already real. */
export default function LaterPage() {
  const { t } = useTranslation()
  return <Result icon={<ClockCircleOutlined />} title={t('later.title')} subTitle={t('later.text')} />
}
