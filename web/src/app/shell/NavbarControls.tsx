import { CheckOutlined, CompressOutlined, DisconnectOutlined, DownOutlined, ExpandOutlined, FontSizeOutlined, GlobalOutlined, LogoutOutlined, DashboardOutlined, UserOutlined } from '@ant-design/icons'
import { App, Avatar, Button, Dropdown, Tooltip } from 'antd'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import type { Me } from '../../lib/auth/me'
import { useLogout } from '../../lib/auth/logout'
import { currentLanguage, LANGUAGE_NAMES, LANGUAGE_ORDER, setLanguage, type Language } from '../../lib/i18n'
import { SIZES, type Size } from '../../lib/settings'
import { usePushState } from '../push'
import { useShell } from './state'
import styles from './shell.module.css'

export function FullscreenToggle() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [full, setFull] = useState(Boolean(document.fullscreenElement))
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement))
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [])
  const toggle = () => {
    if (!document.fullscreenEnabled) {
      void message.warning(t('navbar.fullscreenUnsupported'))
      return
    }
    void (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen())
  }
  const label = full ? t('navbar.exitFullscreen') : t('navbar.fullscreen')
  return (
    <Tooltip title={label}>
      <Button type="text" icon={full ? <CompressOutlined aria-hidden /> : <ExpandOutlined aria-hidden />} onClick={toggle} aria-label={label} />
    </Tooltip>
  )
}

export function SizeSelect() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { size, setSize } = useShell()
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [size],
        items: SIZES.map((s) => ({ key: s, label: t(`size.${s}`), icon: s === size ? <CheckOutlined aria-hidden /> : <span style={{ width: 14, display: 'inline-block' }} /> })),
        onClick: ({ key }) => {
          setSize(key as Size)
          void message.success(t('navbar.switchSizeSuccess'))
        },
      }}
    >
      <Button type="text" icon={<FontSizeOutlined aria-hidden />} aria-label={t('navbar.size')} />
    </Dropdown>
  )
}

export function LanguageMenu() {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const lang = currentLanguage()
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectedKeys: [lang],
        items: LANGUAGE_ORDER.map((l) => ({ key: l, label: <span lang={l}>{LANGUAGE_NAMES[l]}</span> })),
        // i18n.t, not t: t speaks the language of the render before the switch.
        onClick: ({ key }) => void setLanguage(key as Language).then(() => message.success(i18n.t('navbar.switchLanguageSuccess'))),
      }}
    >
      <Button type="text" icon={<GlobalOutlined aria-hidden />} aria-label={t('language.label')} />
    </Dropdown>
  )
}

export function AvatarMenu({ me }: { me: Me }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  const logout = useLogout()
  const onLogout = () =>
    logout.mutate(undefined, {
      onSettled: () => navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`, { replace: true }),
    })
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: [
          // The user's name leads to their own profile (and password), whatever their role.
          { key: 'name', label: me.name, icon: <UserOutlined aria-hidden />, onClick: () => navigate('/profile/edit') },
          { type: 'divider' },
          { key: 'dashboard', label: t('route.dashboard'), icon: <DashboardOutlined aria-hidden />, onClick: () => navigate('/') },
          { key: 'logout', label: t('navbar.logOut'), icon: <LogoutOutlined aria-hidden />, danger: true, onClick: onLogout },
        ],
      }}
    >
      <Button type="text" className={styles.avatarButton} aria-label={t('navbar.account', { name: me.name })}>
        <Avatar size="small" src={me.avatar || undefined} icon={me.avatar ? undefined : <UserOutlined aria-hidden />} />
        <span className={styles.profileName}>{me.name}</span>
        <DownOutlined className={styles.caret} aria-hidden />
      </Button>
    </Dropdown>
  )
}

/** A quiet sign that live updates are paused while the push connection comes back. */
export function LiveIndicator() {
  const { t } = useTranslation()
  if (usePushState() !== 'paused') return null
  return (
    <Tooltip title={t('navbar.livePausedHint')}>
      <span className={styles.livePaused} role="status" data-testid="live-paused">
        <DisconnectOutlined aria-hidden /> {t('navbar.livePaused')}
      </span>
    </Tooltip>
  )
}
