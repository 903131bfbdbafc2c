// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { buttonClass } from './Button'
import { MenuButton } from './MenuButton'

const items = [
  { key: 'en', label: 'English', checked: true },
  { key: 'ru', label: 'Русский', checked: false },
  { key: 'zh', label: '中文', checked: false, disabled: true },
  { key: 'vi', label: 'Tiếng Việt', checked: false },
]

function setup() {
  const onSelect = vi.fn()
  const result = render(
    <>
      <MenuButton label="Language" items={items} onSelect={onSelect}>
        L
      </MenuButton>
      <button type="button">elsewhere</button>
    </>,
  )
  return { onSelect, ...result, button: screen.getByRole('button', { name: 'Language' }) }
}

describe('MenuButton', () => {
  it('opens on a click with focus on the first item, and chooses by click', async () => {
    const { onSelect, button, container } = setup()
    expect(button.getAttribute('aria-haspopup')).toBe('menu')
    expect(button.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(button)
    expect(button.getAttribute('aria-expanded')).toBe('true')
    const menu = screen.getByRole('menu', { name: 'Language' })
    expect(button.getAttribute('aria-controls')).toBe(menu.id)
    expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'English' }))
    expect(screen.getByRole('menuitemradio', { name: 'English' }).getAttribute('aria-checked')).toBe('true')
    // Marked by a tick too, not by its colour alone; the others not.
    expect(screen.getByRole('menuitemradio', { name: 'English' }).querySelector('[data-menu-check] svg')).toBeTruthy()
    expect(screen.getByRole('menuitemradio', { name: 'Русский' }).querySelector('[data-menu-check]')).toBeNull()
    expect(await axeViolations(container)).toEqual([])
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Русский' }))
    expect(onSelect).toHaveBeenCalledWith('ru')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('moves with the arrow keys, Home and End, passing over a disabled item', () => {
    const { onSelect, button } = setup()
    fireEvent.keyDown(button, { key: 'ArrowUp' })
    const item = (name: string) => screen.getByRole('menuitemradio', { name })
    expect(document.activeElement).toBe(item('Tiếng Việt'))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(item('English'))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(item('Tiếng Việt'))
    fireEvent.keyDown(document.activeElement!, { key: 'Home' })
    expect(document.activeElement).toBe(item('English'))
    fireEvent.keyDown(document.activeElement!, { key: 'End' })
    expect(document.activeElement).toBe(item('Tiếng Việt'))
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' })
    expect(onSelect).toHaveBeenCalledWith('vi')
  })

  it('closes on Escape with focus back on the button, and on a press outside', () => {
    const { button, onSelect } = setup()
    fireEvent.keyDown(button, { key: 'ArrowDown' })
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(button)
    fireEvent.click(button)
    fireEvent.pointerDown(screen.getByRole('button', { name: 'elsewhere' }))
    expect(screen.queryByRole('menu')).toBeNull()
    fireEvent.click(button)
    fireEvent.click(screen.getByRole('menuitemradio', { name: '中文' }))
    expect(onSelect).not.toHaveBeenCalled()
  })

  it('drawn as a light button of the usual size among a screen\'s buttons, named by its label, with no axe finding', async () => {
    const { container } = render(
      <MenuButton label="Apps" look="button" items={items} onSelect={() => {}}>
        Apps
      </MenuButton>,
    )
    const button = screen.getByRole('button', { name: 'Apps' })
    expect(button.getAttribute('aria-haspopup')).toBe('menu')
    expect(button.className).toBe(buttonClass())
    fireEvent.keyDown(button, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'English' }))
    expect(await axeViolations(container)).toEqual([])
  })

  it('floating: the menu is placed in the window under the button, and a scroll of the page closes it', () => {
    render(
      <MenuButton label="More actions for An" look="small" floating items={items} onSelect={() => {}}>
        More
      </MenuButton>,
    )
    const button = screen.getByRole('button', { name: 'More actions for An' })
    button.getBoundingClientRect = () => ({ top: 100, bottom: 124, left: 600, right: 660, width: 60, height: 24, x: 600, y: 100, toJSON: () => ({}) })
    fireEvent.click(button)
    const menu = screen.getByRole('menu')
    expect(menu.style.position).toBe('fixed')
    expect(menu.style.top).toBe('128px')
    expect(menu.style.right).toBe(`${window.innerWidth - 660}px`)
    fireEvent.scroll(window)
    expect(screen.queryByRole('menu')).toBeNull()
    // A button in the window's left half (a phone's): the menu lines up with its start.
    button.getBoundingClientRect = () => ({ top: 100, bottom: 124, left: 20, right: 80, width: 60, height: 24, x: 20, y: 100, toJSON: () => ({}) })
    fireEvent.click(button)
    expect(screen.getByRole('menu').style.left).toBe('20px')
  })

  describe('floating, in a short or narrow window', () => {
    const box = (top: number, left = 20) => ({ top, bottom: top + 24, left, right: left + 60, width: 60, height: 24, x: left, y: top, toJSON: () => ({}) })
    const floating = (top: number) => {
      render(
        <>
          <MenuButton label="More actions for An" look="small" floating items={items} onSelect={() => {}}>
            More
          </MenuButton>
          <button type="button">elsewhere</button>
        </>,
      )
      const button = screen.getByRole('button', { name: 'More actions for An' })
      button.getBoundingClientRect = () => box(top)
      return button
    }
    // The menu's drawn height (jsdom lays nothing out).
    const menuHeight = (px: number) => Object.defineProperty(HTMLElement.prototype, 'scrollHeight', { configurable: true, get: () => px })
    afterEach(() => {
      Reflect.deleteProperty(HTMLElement.prototype, 'scrollHeight')
    })

    it('stays open while the menu itself scrolls; a page scroll closes it with focus back on the button', () => {
      const button = floating(100)
      fireEvent.click(button)
      const menu = screen.getByRole('menu')
      fireEvent.scroll(menu)
      expect(screen.getByRole('menu')).toBe(menu)
      expect(document.activeElement).toBe(screen.getByRole('menuitemradio', { name: 'English' }))
      fireEvent.scroll(window)
      expect(screen.queryByRole('menu')).toBeNull()
      expect(document.activeElement).toBe(button)
      // Opened by the pointer with focus then taken elsewhere: a page scroll closes it and leaves focus there.
      fireEvent.click(button)
      const elsewhere = screen.getByRole('button', { name: 'elsewhere' })
      elsewhere.focus()
      fireEvent.scroll(document)
      expect(screen.queryByRole('menu')).toBeNull()
      expect(document.activeElement).toBe(elsewhere)
    })

    it('is no taller than the room under the button, and scrolls', () => {
      menuHeight(100)
      fireEvent.click(floating(100))
      const menu = screen.getByRole('menu')
      expect(menu.style.top).toBe('128px')
      expect(menu.style.maxHeight).toBe(`${window.innerHeight - 124 - 4 - 8}px`)
      expect(menu.style.overflow).toBe('auto')
      expect(menu.style.maxWidth).toBe('calc(100vw - 16px)')
    })

    it('opens above the button where it does not fit under it and there is more room above', () => {
      menuHeight(200)
      const top = window.innerHeight - 60
      fireEvent.click(floating(top))
      const menu = screen.getByRole('menu')
      expect(menu.style.top).toBe('auto')
      expect(menu.style.bottom).toBe(`${window.innerHeight - top + 4}px`)
      expect(menu.style.maxHeight).toBe(`${top - 4 - 8}px`)
    })
  })
})
