/** The page to go to after login: the redirect parameter when it is a path of this site, else /. */
export function safeRedirect(param: string | null): string {
  if (!param || !param.startsWith('/') || param.startsWith('//') || param.startsWith('/\\')) return '/'
  return param
}
