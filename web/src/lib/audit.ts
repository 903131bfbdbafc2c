import type { TFunction } from 'i18next'

/** An audited action in words ("Opened a patient's chart"); its code only for one the app does not know. */
export function auditActionLabel(t: TFunction, action: string): string {
  return t(`activity.${action}`, { defaultValue: action })
}

/**
 * The record an audited action concerns, in words ("Lab order 6", "Settings: critical results"), '' for none.
 * A settings record is named by its section, whose key the server stores.
 */
export function auditRecordLabel(t: TFunction, type: string, id: string): string {
  if (!type) return ''
  const shown = type === 'settings' ? t(`audit.settingsSections.${id}`, { defaultValue: id }) : id
  return t(`audit.entities.${type}`, { id: shown, defaultValue: `${type} ${id}` }).trim()
}

/** The FHIR API's actions and the app's, apart: the audit log's action filter offers them in two groups. */
export function auditActionGroups(actions: string[]): { app: string[]; fhir: string[] } {
  return { app: actions.filter((a) => !a.startsWith('fhir.')), fhir: actions.filter((a) => a.startsWith('fhir.')) }
}
