// What the local mail server (cmd/mailsink, e2e/serve.sh) received, and axe's verdict on a page:
// the patient pages' end-to-end runs read both.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { port } from './ports'

const mailDir = join('.e2e', String(port), 'mail')

/** A message's body, its quoted-printable undone. */
function bodyOf(eml: string) {
  const body = eml.replace(/\r\n/g, '\n').split('\n\n').slice(1).join('\n\n')
  const bytes = body.replace(/=\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

/** The bodies of the messages mailed to an address so far, oldest first. */
export function mailTo(address: string) {
  if (!existsSync(mailDir)) return []
  return readdirSync(mailDir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => readFileSync(join(mailDir, f), 'utf8'))
    .filter((m) => m.includes(`X-Envelope-To: ${address}`))
    .map(bodyOf)
}

/** The six-digit codes mailed to an address so far, oldest first. */
export const codesTo = (address: string) => mailTo(address).map((b) => /\b\d{6}\b/.exec(b)?.[0]).filter((c): c is string => !!c)

/** axe's serious and critical findings on the page. */
export async function axe(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
}
