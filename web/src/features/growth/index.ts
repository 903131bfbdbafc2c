// The growth feature's public part: the chart's Growth card, loaded with the chart (app/slots.tsx).
export const PatientGrowth = () => import('./PatientGrowth').then((m) => ({ default: m.PatientGrowth }))
