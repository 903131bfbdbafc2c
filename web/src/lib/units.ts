// UCUM units as people write them: the results' values, trends and forms, and the results
// catalogue, read them alike (in Russian, in Cyrillic).
import type { TFunction } from 'i18next'

/** The UCUM units of the catalogue, by the key their written form has in every locale. */
export const UNIT_KEYS: Record<string, string> = {
  'mmol/L': 'mmolL',
  'umol/L': 'umolL',
  'pmol/L': 'pmolL',
  'mmol/mol': 'mmolMol',
  'g/L': 'gL',
  'g/dL': 'gdL',
  'mg/dL': 'mgdL',
  'mg/dL{BUN}': 'mgdLBun',
  'mg/L': 'mgL',
  'ug/L': 'ugL',
  'ng/mL': 'ngmL',
  'ng/dL': 'ngdL',
  'mm/h': 'mmh',
  '10*9/L': 'e9L',
  '10*12/L': 'e12L',
  '10*3/uL': 'e3uL',
  '10*6/uL': 'e6uL',
  'L/L': 'LL',
  fL: 'fL',
  pg: 'pg',
  s: 's',
  '%': 'percent',
  'U/L': 'UL',
  'm[IU]/L': 'mIUL',
  'mL/min/{1.73_m2}': 'egfr',
  'meq/L': 'meqL',
  '[pH]': 'none',
  '{INR}': 'none',
  '1': 'none',
  unit: 'none',
}

/** A unit as the reader writes it ('' for a unit without a symbol: pH, INR, a ratio). */
export function unitLabel(t: TFunction, unit: string): string {
  const key = UNIT_KEYS[unit]
  if (key === 'none') return ''
  return key ? t(`results.units.${key}`) : unit
}
