// Error toasts for failed API calls (spec §8: 5 seconds). Ant Design's message is loaded on
// first use, so the login page does not carry it; toasts survive navigation to /login.
export const ERROR_TOAST_SECONDS = 5

export async function toastError(text: string) {
  const { default: message } = await import('antd/es/message')
  void message.error({ content: text, duration: ERROR_TOAST_SECONDS, key: text })
}
