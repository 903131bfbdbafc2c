// The root query keys. Every API operation's key starts with the root of what it reads, so
// that a change — one's own, or one the live channel announces (app/push.ts) — refreshes every
// view of it at once. Operations own their full keys (their queryOptions); nothing else spells
// a key out.
export const appointmentsKey = ['appointments'] as const
export const visitsKey = ['visit'] as const
export const doctorsKey = ['doctors'] as const
export const patientsKey = ['patients'] as const
export const prescriptionsKey = ['prescriptions'] as const
export const medicinesKey = ['medicines'] as const
export const servicesKey = ['services'] as const
export const labTestsKey = ['lab-tests'] as const
export const resultsKey = ['results'] as const
export const billsKey = ['bills'] as const
export const documentsKey = ['documents'] as const
export const documentTemplatesKey = ['document-templates'] as const
export const accountsKey = ['accounts'] as const
export const rolesKey = ['roles'] as const
export const permissionsKey = ['permissions'] as const
export const auditEventsKey = ['audit-events'] as const
export const profileKey = ['profile'] as const
export const settingsKey = ['settings'] as const
export const configKey = ['config'] as const
export const meKey = ['me'] as const
export const backupsKey = ['backups'] as const
export const medicineSafetyKey = ['medicine-safety'] as const
export const orderSetsKey = ['order-sets'] as const
export const snippetsKey = ['snippets'] as const
export const favouritesKey = ['favourites'] as const
export const apiTokensKey = ['api-tokens'] as const
export const patientMessagesKey = ['patient-messages'] as const
/** The vaccine catalogue (its names by language, and the clinic's schedules and stocked vaccines). */
export const immunisationCatalogueKey = ['immunisation-catalogue'] as const
/** Immunisation reads of no one patient's record: the safety check of a dose being typed, and the clinic's due list. */
export const immunisationChecksKey = ['immunisation-check'] as const
export const immunisationDueKey = ['immunisation-due'] as const
