// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { RadioGroup } from './RadioGroup'

function Method({ look }: { look: 'button' | 'radio' }) {
  const [method, setMethod] = useState<'cash' | 'card' | 'transfer'>('cash')
  return (
    <>
      <RadioGroup
        legend="Method"
        look={look}
        value={method}
        onChange={setMethod}
        options={[
          { value: 'cash', label: 'Cash' },
          { value: 'card', label: 'Card' },
          { value: 'transfer', label: 'Bank transfer' },
        ]}
      />
      <output>{method}</output>
    </>
  )
}

describe('RadioGroup', () => {
  it.each(['button', 'radio'] as const)('as %s: a group named by its legend, a choice by its label, and passes axe', async (look) => {
    const { container } = render(<Method look={look} />)
    expect(screen.getByRole('group', { name: 'Method' })).toBeTruthy()
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Cash' }).checked).toBe(true)
    fireEvent.click(screen.getByText('Card'))
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Card' }).checked).toBe(true)
    expect(screen.getByText('card', { selector: 'output' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })

  it('inline: the legend still names the group, unseen, and small buttons pass axe', async () => {
    const { container } = render(
      <RadioGroup legend="Guardian by" look="button" inline size="small" value="email" onChange={() => {}} options={[{ value: 'email', label: 'Email' }, { value: 'sms', label: 'SMS' }]} />,
    )
    const group = screen.getByRole('group', { name: 'Guardian by' })
    expect(group.querySelector('legend')?.className).toBe('visually-hidden')
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Email' }).checked).toBe(true)
    expect(await axeViolations(container)).toEqual([])
  })

  it('a disabled option is shown and cannot be chosen', async () => {
    let chosen = 'personal'
    const { container } = render(
      <RadioGroup legend="Who uses it" value="personal" onChange={(v) => (chosen = v)} options={[{ value: 'personal', label: 'Only me' }, { value: 'clinic', label: 'The whole clinic', disabled: true }]} />,
    )
    const clinic = screen.getByRole<HTMLInputElement>('radio', { name: 'The whole clinic' })
    expect(clinic.disabled).toBe(true)
    fireEvent.click(screen.getByText('The whole clinic'))
    expect(chosen).toBe('personal')
    expect(await axeViolations(container)).toEqual([])
  })

  it('as a required field: marked, its message and help said with each radio, and passes axe', async () => {
    const { container } = render(
      <RadioGroup legend="How was the patient reached?" required error="Choose how the patient was reached." help="The alert stays open." value="" onChange={() => {}} options={[{ value: 'phone', label: 'By phone' }, { value: 'in_person', label: 'In person' }]} />,
    )
    const group = screen.getByRole('group', { name: 'How was the patient reached?' })
    expect(group.querySelector('legend')?.className).toMatch(/required/)
    const phone = screen.getByRole('radio', { name: 'By phone' })
    expect(phone.getAttribute('aria-invalid')).toBe('true')
    const described = (phone.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent)
    expect(described).toEqual(['The alert stays open.', 'Choose how the patient was reached.'])
    expect(await axeViolations(container)).toEqual([])
  })
})
