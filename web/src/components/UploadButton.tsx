import { useRef, type ChangeEvent } from 'react'
import { Button } from '../light/Button'
import { UploadIcon } from '../light/icons'

/**
 * A file picker behind a light button: the browser's own file input, out of sight and out of
 * the Tab order, opened by the button, which is the control the keyboard and a screen reader
 * reach. The input is cleared after each pick, so that the same file can be sent again.
 */
export function UploadButton({ accept, loading, small, onFile, children }: { accept: string; loading: boolean; small?: boolean; onFile: (f: File) => void; children: string }) {
  const input = useRef<HTMLInputElement>(null)
  const picked = (e: ChangeEvent<HTMLInputElement>) => {
    const f = e.target.files?.[0]
    e.target.value = ''
    if (f) onFile(f)
  }
  return (
    <>
      <input ref={input} type="file" accept={accept} hidden tabIndex={-1} onChange={picked} />
      <Button size={small ? 'small' : undefined} icon={<UploadIcon />} loading={loading} onClick={() => input.current?.click()}>
        {children}
      </Button>
    </>
  )
}
