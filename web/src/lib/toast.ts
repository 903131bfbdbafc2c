// Error toasts for failed API calls (spec §8: 5 seconds). Ant Design's message is loaded on
// first use, so the login page does not carry it; toasts survive navigation to /login. Its style
// sheet comes with it: on a light screen in the light frame (docs/adr/0046) nothing else has
// loaded the library's sheet yet.
export const ERROR_TOAST_SECONDS = 5

export async function toastError(text: string) {
  const [{ default: message }] = await Promise.all([import('antd/es/message'), import('antd/dist/antd.css')])
  void message.error({ content: text, duration: ERROR_TOAST_SECONDS, key: text })
}
