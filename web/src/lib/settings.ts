// Layout preferences. The spec keeps the sidebar state, the size and the language in cookies;
// the settings panel's choices (theme colour, tag tabs, fixed header, sidebar logo) are kept
// in this browser's local storage.
import Cookies from 'js-cookie'
import { DEFAULT_THEME_COLOR } from './theme'

export const SIZES = ['default', 'medium', 'small', 'mini'] as const
export type Size = (typeof SIZES)[number]
export const DEFAULT_SIZE: Size = 'medium'

export function getSize(): Size {
  const s = Cookies.get('size')
  return SIZES.includes(s as Size) ? (s as Size) : DEFAULT_SIZE
}
export const saveSize = (size: Size) => Cookies.set('size', size, { sameSite: 'Lax', expires: 365 })

/** Sidebar open (cookie sidebarStatus 1) or collapsed (0); open when never set. */
export const getSidebarOpened = () => Cookies.get('sidebarStatus') !== '0'
export const saveSidebarOpened = (opened: boolean) => Cookies.set('sidebarStatus', opened ? '1' : '0', { sameSite: 'Lax', expires: 365 })

export interface LayoutSettings {
  theme: string
  tagsView: boolean
  fixedHeader: boolean
  sidebarLogo: boolean
}

export const DEFAULT_SETTINGS: LayoutSettings = { theme: DEFAULT_THEME_COLOR, tagsView: true, fixedHeader: false, sidebarLogo: true }

const KEY = 'emr.layoutSettings'

export function getLayoutSettings(): LayoutSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<LayoutSettings>
    return {
      theme: typeof saved.theme === 'string' && /^#[0-9a-f]{6}$/i.test(saved.theme) ? saved.theme : DEFAULT_SETTINGS.theme,
      tagsView: typeof saved.tagsView === 'boolean' ? saved.tagsView : DEFAULT_SETTINGS.tagsView,
      fixedHeader: typeof saved.fixedHeader === 'boolean' ? saved.fixedHeader : DEFAULT_SETTINGS.fixedHeader,
      sidebarLogo: typeof saved.sidebarLogo === 'boolean' ? saved.sidebarLogo : DEFAULT_SETTINGS.sidebarLogo,
    }
  } catch {
    return DEFAULT_SETTINGS
  }
}

export const saveLayoutSettings = (s: LayoutSettings) => localStorage.setItem(KEY, JSON.stringify(s))
