import { send } from '../../../lib/api'

export type CardPaper = 'a6-portrait' | 'a5-portrait'

/** Issues the child's immunisation card (a numbered, QR-verifiable document) on a paper, in a language; the document issued. */
export const issueCard = (patientId: number, paper: CardPaper, language: string) =>
  send<{ id: number }>('post', `/patients/${patientId}/immunisation-card`, { paper, language }, { silent: true })
