// Axe (the rules @axe-core/playwright runs in the browser tests) on a component rendered in
// jsdom: the violations' rule ids and targets, [] when there are none. jsdom lays nothing out,
// so the rules that need layout (colour contrast) are the browser tests' (e2e/accessibility),
// and a component alone sits in no landmark (the region rule is the page's).
import axe from 'axe-core'

export async function axeViolations(container: Element): Promise<string[]> {
  const result = await axe.run(container, {
    rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
  })
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}
