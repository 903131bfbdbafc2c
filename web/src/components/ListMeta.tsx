import type { ReactNode } from 'react'

/**
 * Ant Design's List.Item.Meta without its h4: a list item's title is not a heading of the
 * screen. Under a screen's h1 an h4 skips two levels (Lighthouse's heading-order audit took
 * the chart's accessibility score to 99 for it), and a list of fifty files is not fifty
 * sections for a screen reader's headings list. Same classes, so the same look; the weight an
 * h4 had by default is kept.
 */
export function ListMeta({ avatar, title, description }: { avatar?: ReactNode; title?: ReactNode; description?: ReactNode }) {
  return (
    <div className="ant-list-item-meta">
      {avatar && <div className="ant-list-item-meta-avatar">{avatar}</div>}
      <div className="ant-list-item-meta-content">
        {title && (
          <div className="ant-list-item-meta-title" style={{ fontWeight: 'bold' }}>
            {title}
          </div>
        )}
        {description && <div className="ant-list-item-meta-description">{description}</div>}
      </div>
    </div>
  )
}
