// The app's date fields: antd's pickers showing the interface language's short date and
// reading a date typed the way that language writes one (29/11/2026 in Vietnamese,
// 29.11.2026 in Russian), not only ISO.
import { DatePicker, type DatePickerProps, type GetProps } from 'antd'
import type { Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { dateInputFormats } from '../lib/time'

/** A date field in the user's format, which its empty field shows (ДД.ММ.ГГГГ); a format passed (a week's, a time's) replaces it. */
export function DateInput(props: DatePickerProps<Dayjs, false>) {
  const { t, i18n } = useTranslation()
  const placeholder = props.placeholder ?? (props.format || props.picker || props.showTime ? undefined : t('dateInput.placeholder'))
  return <DatePicker {...props} placeholder={placeholder} format={props.format ?? dateInputFormats(i18n.language)} />
}

/** A from–to date field in the user's format; withTime adds the hour and minute. */
export function DateRangeInput({ withTime, ...props }: GetProps<typeof DatePicker.RangePicker> & { withTime?: boolean }) {
  const { i18n } = useTranslation()
  const formats = dateInputFormats(i18n.language)
  return <DatePicker.RangePicker showTime={withTime ? { format: 'HH:mm' } : undefined} {...props} format={props.format ?? (withTime ? formats.map((f) => `${f} HH:mm`) : formats)} />
}
