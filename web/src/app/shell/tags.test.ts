import { afterClose, tagsReducer, type TagsState, type View } from './tags'

const dash: View = { path: '/dashboard', search: '', title: 'dashboard', affix: true }
const pts: View = { path: '/masterfile/patients', search: '', title: 'patients' }
const appt: View = { path: '/appointments/appointments', search: '?day=1', title: 'appointments' }
const start: TagsState = { views: [dash, pts, appt], refresh: {} }

describe('tag tabs (spec §4)', () => {
  it('keeps one tab per path, updating its query', () => {
    const s = tagsReducer(start, { type: 'visit', view: { ...pts, search: '?page=2' } })
    expect(s.views.map((v) => v.path)).toEqual([dash.path, pts.path, appt.path])
    expect(s.views[1].search).toBe('?page=2')
    expect(tagsReducer(start, { type: 'visit', view: pts })).toBe(start)
  })
  it('never closes pinned tabs', () => {
    expect(tagsReducer(start, { type: 'close', path: dash.path }).views).toHaveLength(3)
    expect(tagsReducer(start, { type: 'closeOthers', path: appt.path }).views).toEqual([dash, appt])
    expect(tagsReducer(start, { type: 'closeAll' }).views).toEqual([dash])
  })
  it('goes to the last remaining tab, or / when none is left', () => {
    const s = tagsReducer(start, { type: 'close', path: appt.path })
    expect(afterClose(s.views)).toBe('/masterfile/patients')
    expect(afterClose([])).toBe('/')
    expect(afterClose([appt])).toBe('/appointments/appointments?day=1')
  })
  it('refreshes a view by bumping its key', () => {
    const s = tagsReducer(tagsReducer(start, { type: 'refresh', path: pts.path }), { type: 'refresh', path: pts.path })
    expect(s.refresh[pts.path]).toBe(2)
  })
})
