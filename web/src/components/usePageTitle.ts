import { useEffect } from 'react'

/** Sets the document title to '{title} - EMR' (spec §4). */
export function usePageTitle(title: string | undefined) {
  useEffect(() => {
    document.title = title ? `${title} - EMR` : 'EMR'
  }, [title])
}
