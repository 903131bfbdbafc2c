// @vitest-environment jsdom
import { watchIconLabels } from './iconLabels'

const icon = (name: string) => `<span role="img" aria-label="${name}" class="anticon"></span>`

test('an icon-only button is named from its title, and its icon hidden', () => {
  document.body.innerHTML = `<button title="Close the tab">${icon('close')}</button>`
  const stop = watchIconLabels()
  expect(document.querySelector('button')?.getAttribute('aria-label')).toBe('Close the tab')
  expect(document.querySelector('.anticon')?.getAttribute('aria-hidden')).toBe('true')
  expect(document.querySelector('.anticon')?.hasAttribute('aria-label')).toBe(false)
  stop()
})

test('a link without href (the pager\'s "next 5 pages") is not named: its titled list item is the control', () => {
  document.body.innerHTML = `<ul><li title="Next 5 Pages" tabindex="0"><a class="ant-pagination-item-link">${icon('double-right')}</a></li></ul>`
  const stop = watchIconLabels()
  expect(document.querySelector('a')?.hasAttribute('aria-label')).toBe(false)
  expect(document.querySelector('.anticon')?.getAttribute('aria-hidden')).toBe('true')
  stop()
})
