import { useParams } from 'react-router'
import { BillById } from './bill/BillPanel'

/** /bills/:id — one bill: from a report, the outstanding list or a replaced bill. */
export default function BillPage() {
  return <BillById id={Number(useParams().id)} />
}
