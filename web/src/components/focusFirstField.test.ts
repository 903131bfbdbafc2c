// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest'
import { focusFirstField } from './focusFirstField'

/** A shown modal body with two fields (jsdom has no layout: offsetParent is faked). */
function modal() {
  document.body.innerHTML = '<div class="ant-modal-body"><input id="first" /><input id="second" /></div><button id="opener">open</button>'
  const body = document.querySelector<HTMLElement>('.ant-modal-body')!
  Object.defineProperty(body, 'offsetParent', { get: () => document.body })
  return { first: document.getElementById('first')!, second: document.getElementById('second')!, opener: document.getElementById('opener')! }
}

afterEach(() => (document.body.innerHTML = ''))

describe('focusFirstField', () => {
  it('starts in the first field once the dialog has opened', () => {
    const { first, opener } = modal()
    opener.focus()
    focusFirstField(true)
    expect(document.activeElement).toBe(first)
  })

  it('leaves a user who is already in a field of the dialog where they are', () => {
    const { second } = modal()
    second.focus()
    focusFirstField(true)
    expect(document.activeElement).toBe(second)
  })

  it('does nothing as the dialog closes', () => {
    const { opener } = modal()
    opener.focus()
    focusFirstField(false)
    expect(document.activeElement).toBe(opener)
  })
})
