// The spec's logged-in flag: a cookie isLogged=1, set after login and removed at logout or
// when the session is reset. The session itself is an HttpOnly cookie the page never sees.
import Cookies from 'js-cookie'

export const FLAG = 'isLogged'

export const isLoggedIn = () => Cookies.get(FLAG) === '1'
export const markLoggedIn = () => Cookies.set(FLAG, '1', { sameSite: 'Lax' })
export const clearLoggedIn = () => Cookies.remove(FLAG)

// Why the app sent the user to the login page (an ended session, a failed check), shown there
// once. Kept in sessionStorage so that it survives however the page gets there.
const NOTICE = 'emr.loginNotice'
export const setLoginNotice = (message: string) => sessionStorage.setItem(NOTICE, message)
export const peekLoginNotice = () => sessionStorage.getItem(NOTICE) ?? undefined
export const clearLoginNotice = () => sessionStorage.removeItem(NOTICE)
