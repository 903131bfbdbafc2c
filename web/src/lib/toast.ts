// Error toasts for failed API calls (spec §8: 5 seconds, longer while hovered): the light toasts (light/Toast),
// drawn at the app's root, so they survive navigation to /login, and load nothing more.
import { toast } from '../light/Toast'

/** One toast per text: the same failure twice shows once. */
export function toastError(text: string) {
  toast.error(text, { key: text })
}
