// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { Checkbox } from './Checkbox'

function Box() {
  const [on, setOn] = useState(true)
  return (
    <Checkbox checked={on} onChange={setOn}>
      Write a corrected bill to replace it
    </Checkbox>
  )
}

describe('Checkbox', () => {
  it('is named by its text, ticks from a click on the text, and passes axe', async () => {
    const { container } = render(<Box />)
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Write a corrected bill to replace it' })
    expect(box.checked).toBe(true)
    fireEvent.click(screen.getByText('Write a corrected bill to replace it'))
    expect(box.checked).toBe(false)
    expect(await axeViolations(container)).toEqual([])
  })
})
