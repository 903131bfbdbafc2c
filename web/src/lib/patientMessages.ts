import type { Schema } from './schema'

/** A message to a patient in the outbox (the recipient masked). */
export type PatientMessage = Schema<'PatientMessage'>
export type MessageStatus = PatientMessage['status']
export type MessageTopic = PatientMessage['topic']
export type MessageChannel = PatientMessage['channel']

export const MESSAGE_STATUSES: MessageStatus[] = ['pending', 'sent', 'failed', 'no_address', 'cancelled']
export const MESSAGE_CHANNELS: MessageChannel[] = ['email', 'sms']

/** The i18n keys of a message's topic, status and channel. */
export const messageTopicLabel: Record<MessageTopic, string> = {
  'appointment.booked': 'patientMessages.topic.booked',
  'appointment.changed': 'patientMessages.topic.changed',
  'appointment.cancelled': 'patientMessages.topic.cancelled',
  'appointment.reminder': 'patientMessages.topic.reminder',
  'patient.code': 'patientMessages.topic.code',
  'booking.declined': 'patientMessages.topic.booking_declined',
  'patient.contact_changed': 'patientMessages.topic.contact_changed',
  'immunisation.due': 'patientMessages.topic.immunisation_due',
}
export const messageStatusLabel: Record<MessageStatus, string> = {
  pending: 'patientMessages.status.pending',
  sent: 'patientMessages.status.sent',
  failed: 'patientMessages.status.failed',
  no_address: 'patientMessages.status.no_address',
  cancelled: 'patientMessages.status.cancelled',
}
export const messageStatusColor: Record<MessageStatus, string> = {
  pending: 'processing',
  sent: 'success',
  failed: 'error',
  no_address: 'warning',
  cancelled: 'default',
}
export const messageChannelLabel: Record<MessageChannel, string> = {
  email: 'patientMessages.channel.email',
  sms: 'patientMessages.channel.sms',
}
