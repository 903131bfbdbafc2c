import type { DocumentBlock, DocumentRun } from '../api/types'
import styles from './DocumentContent.module.css'

/** Runs drawn as text (React escapes it): whatever a name or a field holds stays text. */
function Runs({ runs }: { runs?: DocumentRun[] }) {
  return (
    <>
      {runs?.map((r, i) => (r.bold ? <strong key={i}>{r.text}</strong> : <span key={i}>{r.text}</span>))}
    </>
  )
}

/** A rendered document's blocks: headings, paragraphs, lists, tables and lines. */
/** small: a pocket card's (A6, and the immunisation card on any paper) compact type, padding and columns. */
export function DocumentContent({ blocks, small = false }: { blocks: DocumentBlock[]; small?: boolean }) {
  return (
    <div className={small ? `${styles.content} ${styles.small}` : styles.content}>
      {blocks.map((b, i) => {
        switch (b.type) {
          case 'h1':
            return (
              <h2 key={i} className={styles.h1}>
                <Runs runs={b.runs} />
              </h2>
            )
          case 'h2':
            return (
              <h3 key={i} className={styles.h2}>
                <Runs runs={b.runs} />
              </h3>
            )
          case 'ul':
            return (
              <ul key={i}>
                {b.items?.map((it, j) => (
                  <li key={j}>
                    <Runs runs={it} />
                  </li>
                ))}
              </ul>
            )
          case 'table':
            return (
              <table key={i} className={styles.table}>
                <tbody>
                  {b.rows?.map((row, j) => (
                    <tr key={j}>
                      {row.map((cell, k) => (
                        <td key={k}>
                          <Runs runs={cell} />
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          case 'hr':
            return <hr key={i} className={styles.hr} />
          default:
            return (
              <p key={i} className={styles.p}>
                <Runs runs={b.runs} />
              </p>
            )
        }
      })}
    </div>
  )
}
