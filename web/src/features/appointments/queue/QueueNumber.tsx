import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons'
import { Button, Space, Typography } from 'antd'
import { useTranslation } from 'react-i18next'

/** A row's queue number, with buttons that move it up or down when the queue may be reordered. */
export function QueueNumber({ n, index, last, move, busy }: { n: number; index: number; last: boolean; move?: (index: number, delta: number) => void; busy: boolean }) {
  const { t } = useTranslation()
  return (
    <Space size={2}>
      <Typography.Text strong style={{ minWidth: 22, display: 'inline-block' }}>
        {n}
      </Typography.Text>
      {move && (
        <>
          <Button size="small" type="text" icon={<ArrowUpOutlined aria-hidden />} disabled={index === 0 || busy} onClick={() => move(index, -1)} aria-label={t('appointments.moveUp', { number: n })} />
          <Button size="small" type="text" icon={<ArrowDownOutlined aria-hidden />} disabled={last || busy} onClick={() => move(index, 1)} aria-label={t('appointments.moveDown', { number: n })} />
        </>
      )}
    </Space>
  )
}
