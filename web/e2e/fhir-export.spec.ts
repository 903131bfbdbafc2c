import { expect, test } from '@playwright/test'
import { MedplumClient } from '@medplum/core'
import { PASSWORD, api, day, doctorId, login, newPatient, unique } from './helpers'
import { port } from './ports'

interface Manifest {
  transactionTime: string
  requiresAccessToken: boolean
  output: { type: string; url: string; count: number }[]
  error: { type: string; url: string }[]
}

type Json = { [key: string]: unknown } | unknown[] | string | number | boolean | null

// references collects every reference a resource makes, wherever it sits in it.
function references(v: Json, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => references(x as Json, out))
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'reference' && typeof x === 'string') out.push(x)
      else references(x as Json, out)
    }
  }
  return out
}

// An integrator copies the clinic with Medplum's SDK: bulkExport() kicks the export off,
// polls it and answers the manifest; each file downloads with the same token, and every
// reference in it (the doctor, the clinic, its premises) is a resource of the export.
test("Medplum's bulkExport copies the clinic, and no exported reference dangles", async ({ page }) => {
  await login(page, 'admin')
  const patient = await newPatient(page, `Bulk${unique()}`)
  const doctor = await doctorId(page)
  const startsAt = new Date(`${day(6)}T15:00:00`)
  startsAt.setMinutes(Math.floor(Math.random() * 50))
  const booked = await api(page, 'post', '/api/appointments', {
    patient_id: patient.id, doctor_id: doctor, starts_at: startsAt.toISOString(), duration_minutes: 5, type: 'new', reason: 'cough',
  })
  expect(booked.status()).toBe(201)
  const me = (await (await api(page, 'get', '/api/user')).json()) as { id: number }
  const made = await api(page, 'post', '/api/api-tokens', { user_id: me.id, name: `Warehouse ${unique()}`, scopes: '', expires_in_days: 1, current_password: PASSWORD })
  expect(made.status()).toBe(201)
  const { token } = (await made.json()) as { token: string }

  const medplum = new MedplumClient({ baseUrl: `http://127.0.0.1:${port}/` })
  medplum.setAccessToken(token)
  const manifest = (await medplum.bulkExport('', undefined, undefined, { pollStatusOnAccepted: true, pollStatusPeriod: 200 })) as unknown as Manifest
  expect(manifest.requiresAccessToken).toBe(true)
  const types = manifest.output.map((o) => o.type)
  for (const kind of ['Patient', 'Encounter', 'Appointment', 'Practitioner', 'PractitionerRole', 'Organization', 'Location']) expect(types).toContain(kind)

  const held = new Set<string>()
  const lines: { resourceType: string; id: string }[] = []
  for (const o of manifest.output) {
    const text = await (await medplum.download(o.url)).text()
    const file = text.trim().split('\n').map((l) => JSON.parse(l) as { resourceType: string; id: string })
    expect(file).toHaveLength(o.count)
    for (const res of file) {
      expect(res.resourceType).toBe(o.type)
      held.add(`${res.resourceType}/${res.id}`)
      lines.push(res)
    }
  }
  expect(held).toContain(`Patient/${patient.id}`)
  const dangling = lines.flatMap((res) => references(res as unknown as Json).filter((r) => !held.has(r)).map((r) => `${res.resourceType}/${res.id} → ${r}`))
  expect(dangling).toEqual([])

  // The doctor's Group reads as a Group of their patients; the role and the premises read too.
  const group = (await medplum.readResource('Group', `doctor-${doctor}`)) as unknown as { quantity: number; member: { entity: { reference: string } }[] }
  expect(group.member.map((m) => m.entity.reference)).toContain(`Patient/${patient.id}`)
  expect(group.quantity).toBeGreaterThanOrEqual(group.member.length)
  const role = (await medplum.readResource('PractitionerRole', String(doctor))) as unknown as { code: { coding?: { code: string }[] }[] }
  expect(role.code.flatMap((c) => c.coding ?? []).map((c) => c.code)).toContain('doctor')
  expect((await medplum.readResource('Location', 'clinic')).resourceType).toBe('Location')

  // Narrowed by type, as the SDK sends it.
  const narrow = (await medplum.bulkExport('Patient', 'Patient,Practitioner', undefined, { pollStatusOnAccepted: true, pollStatusPeriod: 200 })) as unknown as Manifest
  expect(narrow.output.map((o) => o.type).sort()).toEqual(['Patient', 'Practitioner'])
})
