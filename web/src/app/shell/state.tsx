import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useState, type ReactNode } from 'react'
import { getLayoutSettings, getSidebarOpened, getSize, saveLayoutSettings, saveSidebarOpened, saveSize, type LayoutSettings, type Size } from '../../lib/settings'
import { tagsReducer, type TagsAction, type TagsState, type View } from './tags'

/** The navbar's sidebar toggle, where focus goes back when the phone's sidebar closes. */
export const SIDEBAR_TOGGLE_ID = 'emr-sidebar-toggle'

/** Below this width the layout is the mobile one (spec §9). */
export const MOBILE_BREAKPOINT = 992

export interface ShellState {
  sidebarOpened: boolean
  toggleSidebar: () => void
  closeSidebar: () => void
  mobile: boolean
  size: Size
  setSize: (s: Size) => void
  settings: LayoutSettings
  setSettings: (s: LayoutSettings) => void
  tags: TagsState
  dispatchTags: (a: TagsAction) => void
}

const Ctx = createContext<ShellState | null>(null)

export function useShell(): ShellState {
  const s = useContext(Ctx)
  if (!s) throw new Error('useShell outside ShellStateProvider')
  return s
}

const isMobile = () => window.innerWidth < MOBILE_BREAKPOINT

export function ShellStateProvider({ affixViews, children }: { affixViews: View[]; children: ReactNode }) {
  const [mobile, setMobile] = useState(isMobile)
  const [opened, setOpened] = useState(() => (isMobile() ? false : getSidebarOpened()))
  const [size, setSizeState] = useState(getSize)
  const [settings, setSettingsState] = useState(getLayoutSettings)
  const [tags, dispatchTags] = useReducer(tagsReducer, { views: affixViews, refresh: {} })

  useEffect(() => {
    const onResize = () => {
      const m = isMobile()
      setMobile((was) => {
        if (m && !was) setOpened(false) // entering the mobile layout closes the sidebar
        return m
      })
    }
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [])

  const toggleSidebar = useCallback(() => {
    setOpened((o) => {
      if (!isMobile()) saveSidebarOpened(!o)
      return !o
    })
  }, [])
  const closeSidebar = useCallback(() => setOpened(false), [])
  const setSize = useCallback((s: Size) => {
    saveSize(s)
    setSizeState(s)
  }, [])
  const setSettings = useCallback((s: LayoutSettings) => {
    saveLayoutSettings(s)
    setSettingsState(s)
  }, [])

  const value = useMemo(
    () => ({ sidebarOpened: opened, toggleSidebar, closeSidebar, mobile, size, setSize, settings, setSettings, tags, dispatchTags }),
    [opened, toggleSidebar, closeSidebar, mobile, size, setSize, settings, setSettings, tags],
  )
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>
}
