// What features may use of the live push connection (app/push.ts owns it): who else is on a
// presence channel. Features never touch the connection itself.
import type Pusher from 'pusher-js'
import type { PresenceChannel } from 'pusher-js'
import { useEffect, useState, useSyncExternalStore } from 'react'

let client: Pusher | undefined
const watchers = new Set<() => void>()

/** Called by the app when its connection opens (with it) and closes (without). */
export function setLiveClient(next: Pusher | undefined) {
  client = next
  watchers.forEach((w) => w())
}

function useLiveClient() {
  return useSyncExternalStore(
    (w) => {
      watchers.add(w)
      return () => watchers.delete(w)
    },
    () => client,
  )
}

interface Member {
  id: string
  info: { name?: string }
}

/**
 * The names of the other users on a presence channel while the component is mounted (the
 * server admits and names them; the current user's own other tabs are not "others").
 * Empty when live updates are off or the channel is refused.
 */
export function useOthersPresent(channel: string | undefined): string[] {
  const live = useLiveClient()
  const [others, setOthers] = useState<string[]>([])
  useEffect(() => {
    if (!live || !channel) return
    const ch = live.subscribe(channel) as PresenceChannel
    const update = () => {
      const names: string[] = []
      ch.members.each((m: Member) => {
        if (m.id !== ch.members.myID) names.push(m.info.name || m.id)
      })
      setOthers(names)
    }
    ch.bind('pusher:subscription_succeeded', update)
    ch.bind('pusher:member_added', update)
    ch.bind('pusher:member_removed', update)
    return () => {
      ch.unbind('pusher:subscription_succeeded', update)
      ch.unbind('pusher:member_added', update)
      ch.unbind('pusher:member_removed', update)
      live.unsubscribe(channel)
      setOthers([])
    }
  }, [live, channel])
  return others
}

/** How far the user's own catalogue import has got, as the server reports it after each batch. */
export interface ImportProgress {
  list: string
  done: number
  total: number
}

/**
 * The latest progress of an import of list by this user while active (its upload is running),
 * undefined before the first report or when live updates are off.
 */
export function useImportProgress(userId: number | undefined, list: string, active: boolean): ImportProgress | undefined {
  const live = useLiveClient()
  const [progress, setProgress] = useState<ImportProgress>()
  useEffect(() => {
    if (!live || !userId || !active) return
    const channel = live.channel(`private-App.Models.User.${userId}`) ?? live.subscribe(`private-App.Models.User.${userId}`)
    const heard = (p: ImportProgress) => p.list === list && setProgress(p)
    channel.bind('App.Events.ImportProgress', heard)
    return () => {
      channel.unbind('App.Events.ImportProgress', heard)
      setProgress(undefined)
    }
  }, [live, userId, list, active])
  return active ? progress : undefined
}
