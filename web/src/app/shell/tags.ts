// Tag tabs of visited views (spec §4): one per path; affix (pinned) tabs are never closed by
// Close Others or Close All; closing the active tab goes to the last remaining tab, or /.

export interface View {
  path: string
  search: string
  title: string
  affix?: boolean
  noCache?: boolean
}

export interface TagsState {
  views: View[]
  /** Bumped to remount (refresh) a view. */
  refresh: Record<string, number>
  /** What each view shows, named by the view itself ("Anderson Mike"): its tab says "Anderson Mike · Visit". */
  subjects?: Record<string, string | undefined>
}

export type TagsAction =
  | { type: 'visit'; view: View }
  | { type: 'close'; path: string }
  | { type: 'closeOthers'; path: string }
  | { type: 'closeAll' }
  | { type: 'refresh'; path: string }
  | { type: 'subject'; path: string; subject: string | undefined }
  | { type: 'reset'; views: View[] }

export function tagsReducer(state: TagsState, action: TagsAction): TagsState {
  switch (action.type) {
    case 'visit': {
      const i = state.views.findIndex((v) => v.path === action.view.path)
      if (i < 0) return { ...state, views: [...state.views, action.view] }
      const old = state.views[i]
      if (old.search === action.view.search && old.title === action.view.title) return state
      const views = [...state.views]
      views[i] = { ...old, search: action.view.search, title: action.view.title }
      return { ...state, views }
    }
    case 'close':
      return { ...state, views: state.views.filter((v) => v.path !== action.path || v.affix) }
    case 'closeOthers':
      return { ...state, views: state.views.filter((v) => v.affix || v.path === action.path) }
    case 'closeAll':
      return { ...state, views: state.views.filter((v) => v.affix) }
    case 'subject':
      if (state.subjects?.[action.path] === action.subject) return state
      return { ...state, subjects: { ...state.subjects, [action.path]: action.subject } }
    case 'refresh':
      return { ...state, refresh: { ...state.refresh, [action.path]: (state.refresh[action.path] ?? 0) + 1 } }
    case 'reset':
      return { views: action.views, refresh: {} }
  }
}

/** Where to go after the active tab was closed: the last remaining tab, or /. */
export function afterClose(views: View[]): string {
  const last = views.at(-1)
  return last ? last.path + last.search : '/'
}

/** A tab's label: its route's title, after the view's subject when it names one. */
export const viewLabel = (subject: string | undefined, title: string) => (subject ? `${subject} · ${title}` : title)
