import { describe, expect, it } from 'vitest'
import en from '../../locales/en.json'
import { PERMISSIONS } from './permissions'

describe('permission catalogue', () => {
  it('names every permission the screens translate, and only those', () => {
    expect([...PERMISSIONS].sort()).toEqual(Object.keys(en.permissions).sort())
    expect([...PERMISSIONS].sort()).toEqual(Object.keys(en.directive.actions).sort())
  })
})
