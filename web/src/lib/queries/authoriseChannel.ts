import { send } from '../api'

/** The server's signature for joining a private or presence channel (the server decides who may). */
export const authoriseChannel = (socketId: string, channelName: string) =>
  send<{ auth: string; channel_data?: string }>('post', '/broadcasting/auth', { socket_id: socketId, channel_name: channelName }, { silent: true })
