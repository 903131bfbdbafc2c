import { describe, expect, it } from 'vitest'
import { screensOf } from './screens'
import { asyncRoutes, constantRoutes } from './table'

describe('screensOf', () => {
  const { byPermission, byRole } = screensOf([...constantRoutes, ...asyncRoutes])

  it('lists a page under its own permissions, or else its parent’s', () => {
    expect(byPermission['view patient'].map((s) => s.path)).toEqual(['/masterfile/patients', '/masterfile/profile/:id/:pid', '/documents/:id/print'])
    expect(byPermission['manage patient'].map((s) => s.path)).toEqual(['/masterfile/patient_form/:id', '/administrator/import-patients'])
    expect(byPermission['manage permission'].map((s) => s.path)).toContain('/permission/page')
    expect(byPermission['view audit log'].map((s) => s.path)).toEqual(['/administrator/audit'])
  })

  it('lists pages only a role opens separately', () => {
    expect(byRole['doctor'].map((s) => s.path)).toEqual(['/forms/blankPrescription', '/user-profile/user-profile'])
  })
})
