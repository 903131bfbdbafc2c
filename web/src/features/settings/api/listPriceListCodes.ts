import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { servicesKey } from '../../../lib/queryKeys'

/** The price list's codes and names, for linking a test to the service it is charged as
 * (empty for who may not read the price list: the code is then typed). */
export const usePriceListCodes = () =>
  useQuery({
    queryKey: [...servicesKey, 'codes'],
    queryFn: () => get<{ data: { code: string; name: string; active: boolean }[] }>('/services', { all: 1 }, { silent: true }).then((l) => l.data),
    retry: false,
  })
