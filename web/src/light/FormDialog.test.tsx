// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { Field } from './Field'
import { useForm } from './form'
import { FormDialog } from './FormDialog'
import { Input } from './Input'

function Reason({ onSubmit, enterSubmits }: { onSubmit: () => void; enterSubmits?: boolean }) {
  const form = useForm({ reason: '' }, { reason: (v) => (v.trim() ? undefined : 'Give a reason.') })
  return (
    <FormDialog title="Stop Aspirin" okText="Stop" cancelText="Cancel" danger busy={false} form={form} onSubmit={onSubmit} onClose={() => {}} enterSubmits={enterSubmits}>
      <Field label="Reason" error={form.errors.reason}>
        {(c) => <Input {...c} value={form.values.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
    </FormDialog>
  )
}

describe('FormDialog', () => {
  it('sends only a form that passes its checks, by its OK (a danger button here), with no axe finding', async () => {
    const sent = vi.fn()
    const { container } = render(<Reason onSubmit={sent} />)
    const dialog = screen.getByRole('dialog', { name: 'Stop Aspirin' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }))
    expect(sent).not.toHaveBeenCalled()
    expect(await within(dialog).findByText('Give a reason.')).toBeTruthy()
    fireEvent.input(within(dialog).getByLabelText('Reason'), { target: { value: 'Side effect' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }))
    expect(sent).toHaveBeenCalledTimes(1)
    expect(within(dialog).getByRole('button', { name: 'Stop' }).className).toMatch(/danger/)
    expect(await axeViolations(container)).toEqual([])
  })

  it('keeps Enter in a field from sending it when enterSubmits is false', () => {
    render(<Reason onSubmit={() => {}} enterSubmits={false} />)
    // fireEvent answers false when the event's default (the form's implicit submission) was prevented.
    expect(fireEvent.keyDown(screen.getByLabelText('Reason'), { key: 'Enter' })).toBe(false)
  })

  it('holds its OK when told (okDisabled), found by its test id, and keeps the mask from closing it', () => {
    const sent = vi.fn()
    const closed = vi.fn()
    function Held() {
      const form = useForm({ reason: 'x' })
      return (
        <FormDialog title="Acknowledge" okText="Acknowledge" cancelText="Later" busy={false} form={form} onSubmit={sent} onClose={closed} okDisabled okTestId="ok" maskClosable={false}>
          <p>Value changed</p>
        </FormDialog>
      )
    }
    render(<Held />)
    const ok = screen.getByTestId('ok') as HTMLButtonElement
    expect(ok.disabled).toBe(true)
    fireEvent.click(ok)
    expect(sent).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('dialog').previousElementSibling!)
    expect(closed).not.toHaveBeenCalled()
  })
})
