// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { Field } from './Field'
import { Input, Select, TextArea } from './Input'

function Form() {
  const [doctor, setDoctor] = useState(0)
  const [reason, setReason] = useState('')
  return (
    <form>
      <Field label="Doctor" help="Whose queue">
        {(c) => (
          <Select
            {...c}
            value={doctor}
            onChange={setDoctor}
            options={[
              { value: 0, label: 'All doctors' },
              { value: 7, label: 'Dr Lee' },
            ]}
          />
        )}
      </Field>
      <Field label="Reason" required error={reason ? undefined : 'Say why the appointment is cancelled.'}>
        {(c) => <TextArea {...c} value={reason} onChange={(e) => setReason(e.target.value)} />}
      </Field>
      <Field label="Remarks">{(c) => <Input {...c} />}</Field>
      <output>{typeof doctor}:{doctor}</output>
    </form>
  )
}

describe('Field, Input, Select', () => {
  it('names each control by its label, says it is required and what is wrong, and passes axe', async () => {
    const { container } = render(<Form />)
    const reason = screen.getByRole('textbox', { name: 'Reason' })
    expect(reason.getAttribute('aria-required')).toBe('true')
    expect(reason.getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(reason.getAttribute('aria-describedby')!)?.textContent).toBe('Say why the appointment is cancelled.')
    expect(screen.getByRole('combobox', { name: 'Doctor' }).getAttribute('aria-describedby')).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
    fireEvent.input(reason, { target: { value: 'Patient rang' } })
    expect(reason.getAttribute('aria-invalid')).toBeNull()
    expect(screen.queryByText('Say why the appointment is cancelled.')).toBeNull()
  })

  it('keeps a select’s values typed: a number stays a number', () => {
    render(<Form />)
    fireEvent.change(screen.getByRole('combobox', { name: 'Doctor' }), { target: { value: '7' } })
    expect(screen.getByText('number:7')).toBeTruthy()
  })
})
