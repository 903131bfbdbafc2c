/** A size in bytes in the reader's language and units (12.5 MB, 12,5 МБ). */
export function formatSize(bytes: number, lang: string): string {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const
  let i = 0
  let n = bytes
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024
    i++
  }
  return new Intl.NumberFormat(lang, { style: 'unit', unit: units[i], unitDisplay: 'short', maximumFractionDigits: i === 0 ? 0 : 1 }).format(n)
}

/** An interval given in seconds, in whole days, hours or minutes, in the reader's language (24 hours, 24 часа). */
export function formatInterval(seconds: number, lang: string): string {
  const [n, unit] =
    seconds % 86400 === 0 && seconds >= 86400 * 2 ? [seconds / 86400, 'day'] : seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : [Math.round(seconds / 60), 'minute']
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long' }).format(n)
}
