// How every screen names a patient and links to the chart.

/** "Last First Middle", as lists show a name. */
export const fullName = (p: { first_name: string; middle_name: string; last_name: string }) =>
  [p.last_name, p.first_name, p.middle_name].filter(Boolean).join(' ')

/** The chart's address: /masterfile/profile/{id}/{patient number}. */
export const chartPath = (p: { id: number; mrn: string }) => `/masterfile/profile/${p.id}/${p.mrn}`
