// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { SearchSelect } from './SearchSelect'

const options = [
  { value: 'cert', label: 'Medical certificate' },
  { value: 'ref', label: 'Referral letter' },
  { value: 'fit', label: 'Fitness to work' },
]

function Pick() {
  const [value, setValue] = useState<string | undefined>('cert')
  return <SearchSelect label="Template" value={value} options={options} onChange={setValue} />
}

describe('SearchSelect', () => {
  it('shows the choice, narrows the list as one types, takes an option, and shows the choice again when left without one', async () => {
    const { container } = render(<Pick />)
    const box = screen.getByRole('combobox', { name: 'Template' }) as HTMLInputElement
    expect(box.value).toBe('Medical certificate')
    fireEvent.input(box, { target: { value: 'lett' } })
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Referral letter'])
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(box.value).toBe('Referral letter')
    fireEvent.input(box, { target: { value: 'zzz' } })
    fireEvent.blur(box)
    expect(box.value).toBe('Referral letter')
    expect(await axeViolations(container)).toEqual([])
  })
})
