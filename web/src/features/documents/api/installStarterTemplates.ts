import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { templatesKey } from './templates'

export function useInstallStarter() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => send<{ added: number }>('post', '/document-templates/starter'),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: templatesKey }),
  })
}
