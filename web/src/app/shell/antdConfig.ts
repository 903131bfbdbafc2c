import type { ConfigProviderProps } from 'antd'

/**
 * Buttons as written: the library spaces a two-character Chinese label ("退 款"), which
 * Chinese staff read as a typo; the words are the translators'.
 */
export const buttonConfig: ConfigProviderProps['button'] = { autoInsertSpace: false }
