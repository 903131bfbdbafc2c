// The live push channel: pusher-js connected to the server's own endpoint, or to the hosted
// provider the server names (the settings come from /api/config, so none is built in). Changes other people make refresh what is on screen;
// our own requests carry X-Socket-ID so we do not hear our own echo.
import type { QueryClient } from '@tanstack/react-query'
import type Pusher from 'pusher-js'
import { setSocketId } from '../lib/api'
import { authoriseChannel } from '../lib/queries/authoriseChannel'
import { configQuery, type ClientConfig } from '../lib/queries/config'
import { accountsKey, appointmentsKey, billsKey, documentsKey, documentTemplatesKey, patientsKey, resultsKey, rolesKey } from '../lib/queryKeys'
import { setLiveClient } from '../lib/live'
import { createStore } from '../lib/store'
import { meQueryKey } from '../lib/auth/me'

type PushConfig = Pick<ClientConfig, 'push'>

/** pusher-js's connection options for the server's settings. */
export function connectionOptions(push: NonNullable<PushConfig['push']>) {
  // WebSocket only: the content security policy admits the provider's socket origin alone.
  if (push.cluster) return { cluster: push.cluster, forceTLS: true, enabledTransports: ['ws', 'wss'] as ('ws' | 'wss')[] }
  const tls = push.host ? !!push.tls : location.protocol === 'https:'
  const port = push.port || Number(location.port) || (tls ? 443 : 80)
  return {
    cluster: 'local', // required by pusher-js; unused with wsHost
    wsHost: push.host || location.hostname,
    wsPort: port,
    wssPort: port,
    forceTLS: tls,
    enabledTransports: ['ws', 'wss'] as ('ws' | 'wss')[],
  }
}

/**
 * The channels a user listens to, by the permissions of which one admits them (as the server's
 * channel authorisation does), and what each refreshes: one channel and one key root a domain.
 */
export const CHANNELS = [
  { channel: 'private-appointments', permissions: ['view appointment'], event: 'App.Events.AppointmentChanged', refresh: [appointmentsKey] },
  { channel: 'private-patients', permissions: ['view patient'], event: 'App.Events.PatientChanged', refresh: [patientsKey] },
  { channel: 'private-users', permissions: ['manage user'], event: 'App.Events.UserChanged', refresh: [accountsKey, rolesKey] },
  // Orders, results, reviews and critical alerts: the alert reaches the ordering doctor at once.
  { channel: 'private-results', permissions: ['review results', 'acknowledge critical results'], event: 'App.Events.ResultsChanged', refresh: [resultsKey] },
  // Bills, payments and drawers: the queue's bill tags, open bills, the cash-up and fee reports.
  {
    channel: 'private-bills',
    permissions: ['record charges', 'record payment', 'view financial reports', 'cash up own drawer'],
    event: 'App.Events.BillChanged',
    refresh: [billsKey],
  },
  // Documents issued or cancelled, and the templates they are issued from.
  { channel: 'private-documents', permissions: ['view patient'], event: 'App.Events.DocumentChanged', refresh: [documentsKey, documentTemplatesKey] },
  // Role permissions changed: everyone re-reads who they are, so menus and routes regenerate.
  { channel: 'private-roles', permissions: [], event: 'App.Events.RolesChanged', refresh: [meQueryKey, rolesKey] },
]

// Whether live updates are arriving, for the navbar's indicator: "live" once connected,
// "paused" when a connection that worked has dropped (pusher-js is reconnecting), "off"
// before the first connection.
type PushState = 'off' | 'live' | 'paused'
const state = createStore<PushState>('off')
const setState = state.set

/** The push connection's state, for showing that live updates are paused. */
export const usePushState = (): PushState => state.use()

interface Access {
  roles: string[]
  permissions: string[]
}

/**
 * Connects for a logged-in user. follow() keeps the shared channels in step with what the
 * user may see (after a role change) on the same connection, so nothing is missed meanwhile;
 * stop() disconnects.
 */
export function connectPush(userId: number, queryClient: QueryClient): { follow: (access: Access) => void; stop: () => void } {
  let pusher: Pusher | undefined
  let stopped = false
  let wanted: Access | undefined
  const joined = new Set<string>()
  const refresh = (keys: readonly (readonly unknown[])[]) => keys.forEach((queryKey) => void queryClient.invalidateQueries({ queryKey }))
  const follow = (access: Access) => {
    wanted = access
    if (!pusher) return
    const admin = access.roles.includes('admin')
    for (const c of CHANNELS) {
      const may = c.permissions.length === 0 || admin || c.permissions.some((p) => access.permissions.includes(p))
      if (may && !joined.has(c.channel)) {
        pusher.subscribe(c.channel).bind(c.event, () => refresh(c.refresh))
        joined.add(c.channel)
      } else if (!may && joined.has(c.channel)) {
        pusher.unsubscribe(c.channel)
        joined.delete(c.channel)
      }
    }
  }
  // pusher-js is fetched beside the settings, once the first screen has started, not before it.
  void Promise.all([queryClient.fetchQuery(configQuery()), import('pusher-js')]).then(([cfg, { default: PusherClient }]) => {
    if (stopped || !cfg.push?.key) return
    pusher = new PusherClient(cfg.push.key, {
      ...connectionOptions(cfg.push),
      disableStats: true,
      channelAuthorization: {
        endpoint: '/api/broadcasting/auth',
        transport: 'ajax',
        customHandler: ({ socketId, channelName }, callback) => {
          authoriseChannel(socketId, channelName).then(
            (r) => callback(null, r),
            (e: Error) => callback(e, null),
          )
        },
      },
    })
    let wasConnected = false
    pusher.connection.bind('state_change', ({ current }: { current: string }) => {
      if (current === 'connected') {
        setSocketId(pusher?.connection.socket_id)
        // Back after a drop: re-read everything, since events may have been missed.
        if (wasConnected) void queryClient.invalidateQueries()
        wasConnected = true
        setState('live')
      } else {
        setSocketId(undefined)
        if (wasConnected) setState('paused')
      }
      document.documentElement.dataset.push = current
    })
    // The user's own account changed (roles, deactivation, a reset): re-reading who they are
    // regenerates the menus, or finds the session ended and goes to login.
    pusher.subscribe(`private-App.Models.User.${userId}`).bind('App.Events.UserChanged', () => refresh([meQueryKey]))
    if (wanted) follow(wanted)
    setLiveClient(pusher)
  })
  return {
    follow,
    stop: () => {
      stopped = true
      setLiveClient(undefined)
      pusher?.disconnect()
      setSocketId(undefined)
      setState('off')
    },
  }
}
