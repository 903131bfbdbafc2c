import type { TFunction } from 'i18next'
import type { ReactNode } from 'react'
import type { Licence } from '../../lib/types'
import { formatDay } from '../../lib/time'
import styles from './print.module.css'

/** The doctor as a paper prints them: the server's one shape for a prescriber, an issuer or a bill's doctor. */
export interface PrintedDoctor {
  name: string
  specialisations?: string[] | null
  licences?: Licence[] | null
}

interface Props {
  doctor?: PrintedDoctor | null
  /** The drawn signature's address, when the paper carries one; a blank space to sign otherwise. */
  signature?: string
  signatureAlt: string
  /** The paper's language (a document prints in its own, whatever the interface's). */
  t: TFunction
  /** The day the paper speaks for (YYYY-MM-DD): licences show their validity against it. */
  validOn?: string
  /** Above the signature: a caption, the seal's place. */
  caption?: ReactNode
  testId?: string
}

/** The signature block: the drawn signature over the line, the doctor's name, specialisations and licences. */
export function SignedBy({ doctor, signature, signatureAlt, t, validOn, caption, testId }: Props) {
  return (
    <div>
      {caption}
      {signature ? <img className={styles.signature} src={signature} alt={signatureAlt} data-testid={testId} /> : <div style={{ height: 60 }} />}
      <div className={styles.signatureLine}>
        <strong>{doctor?.name}</strong>
        {!!doctor?.specialisations?.length && <div>{doctor.specialisations.join(', ')}</div>}
        {doctor?.licences?.map((l) => (
          <div key={l.number} className={styles.small}>
            {t('rx.licence', { number: l.number })}
            {l.issuer && `, ${l.issuer}`}
            {validOn && l.valid_until && ` — ${t('rx.validUntil', { date: formatDay(l.valid_until) })}`}
            {validOn && l.valid_until && l.valid_until < validOn && ` (${t('rx.expired')})`}
          </div>
        ))}
      </div>
    </div>
  )
}
