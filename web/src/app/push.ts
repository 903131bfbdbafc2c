// The live push channel: pusher-js connected to the server's own endpoint (its key comes from
// /api/config, so none is built in). Changes other people make refresh what is on screen;
// our own requests carry X-Socket-ID so we do not hear our own echo.
import type { QueryClient } from '@tanstack/react-query'
import Pusher from 'pusher-js'
import { get, send, setSocketId } from '../lib/api'

interface PushConfig {
  push?: { key: string }
}

/** The channels a user listens to, by the permission that admits them, and what each refreshes. */
const CHANNELS = [
  { channel: 'private-appointments', permission: 'view appointment', event: 'App.Events.AppointmentChanged', refresh: ['appointments'] },
  { channel: 'private-patients', permission: 'view patient', event: 'App.Events.PatientChanged', refresh: ['patients'] },
]

/** Connects for a logged-in user; returns the disconnect. */
export function connectPush(me: { roles: string[]; permissions: string[] }, queryClient: QueryClient): () => void {
  let pusher: Pusher | undefined
  let stopped = false
  void get<PushConfig>('/config').then((cfg) => {
    if (stopped || !cfg.push?.key) return
    const tls = location.protocol === 'https:'
    const port = Number(location.port) || (tls ? 443 : 80)
    pusher = new Pusher(cfg.push.key, {
      cluster: 'local', // required by the type; unused with wsHost
      wsHost: location.hostname,
      wsPort: port,
      wssPort: port,
      forceTLS: tls,
      enabledTransports: ['ws', 'wss'],
      disableStats: true,
      channelAuthorization: {
        endpoint: '/api/broadcasting/auth',
        transport: 'ajax',
        customHandler: ({ socketId, channelName }, callback) => {
          send<{ auth: string }>('post', '/broadcasting/auth', { socket_id: socketId, channel_name: channelName }, { silent: true }).then(
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
      } else {
        setSocketId(undefined)
      }
      document.documentElement.dataset.push = current
    })
    const admin = me.roles.includes('admin')
    for (const c of CHANNELS) {
      if (!admin && !me.permissions.includes(c.permission)) continue
      pusher.subscribe(c.channel).bind(c.event, () => void queryClient.invalidateQueries({ queryKey: c.refresh }))
    }
  })
  return () => {
    stopped = true
    pusher?.disconnect()
    setSocketId(undefined)
  }
}
