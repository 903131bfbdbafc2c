// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { App } from 'antd'
import { useState } from 'react'
import { initI18n } from '../../lib/i18n'
import AntdProvider, { ToastHost } from './AntdProvider'
import { ShellStateProvider } from './state'

/** A screen on the library that says it saved and closes itself, as the template editor gives way to the saved template. */
function SavesAndCloses({ close }: { close: () => void }) {
  const { message } = App.useApp()
  return (
    <button
      type="button"
      onClick={() => {
        void message.success('Template saved')
        close()
      }}
    >
      Save
    </button>
  )
}

function Harness() {
  const [open, setOpen] = useState(true)
  return (
    <ShellStateProvider affixViews={[]}>
      <ToastHost />
      {open ? (
        <AntdProvider>
          <SavesAndCloses close={() => setOpen(false)} />
        </AntdProvider>
      ) : (
        <p>Another screen</p>
      )}
    </ShellStateProvider>
  )
}

describe('AntdProvider', () => {
  it('keeps a toast a screen raised as it closed: the shell holds the toasts, not the screen', async () => {
    await initI18n('en')
    render(<Harness />)
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Another screen')).toBeTruthy()
    expect(await screen.findByText('Template saved')).toBeTruthy()
  })
})
