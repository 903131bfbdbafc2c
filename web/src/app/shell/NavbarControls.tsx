import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import type { Me } from '../../lib/auth/me'
import { useLogout } from '../../lib/auth/logout'
import { currentLanguage, LANGUAGE_NAMES, LANGUAGE_ORDER, setLanguage, type Language } from '../../lib/i18n'
import { SIZES, type Size } from '../../lib/settings'
import { IconButton } from '../../light/IconButton'
import { CompressIcon, DashboardIcon, DisconnectIcon, DownIcon, ExpandIcon, FontSizeIcon, GlobalIcon, LogoutIcon, UserIcon } from '../../light/icons'
import { MenuButton } from '../../light/MenuButton'
import { useToast } from '../../light/Toast'
import { usePushState } from '../push'
import { useShell } from './state'
import styles from './shell.module.css'

export function FullscreenToggle() {
  const { t } = useTranslation()
  const toast = useToast()
  const [full, setFull] = useState(Boolean(document.fullscreenElement))
  useEffect(() => {
    const onChange = () => setFull(Boolean(document.fullscreenElement))
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [])
  const toggle = () => {
    if (!document.fullscreenEnabled) {
      toast.warning(t('navbar.fullscreenUnsupported'))
      return
    }
    void (document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen())
  }
  return (
    <IconButton label={full ? t('navbar.exitFullscreen') : t('navbar.fullscreen')} onClick={toggle}>
      {full ? <CompressIcon /> : <ExpandIcon />}
    </IconButton>
  )
}

export function SizeSelect() {
  const { t } = useTranslation()
  const toast = useToast()
  const { size, setSize } = useShell()
  return (
    <MenuButton
      label={t('navbar.size')}
      tooltip
      items={SIZES.map((s) => ({ key: s, label: t(`size.${s}`), checked: s === size }))}
      onSelect={(key) => {
        setSize(key as Size)
        toast.success(t('navbar.switchSizeSuccess'))
      }}
    >
      <FontSizeIcon />
    </MenuButton>
  )
}

export function LanguageMenu() {
  const { t, i18n } = useTranslation()
  const toast = useToast()
  const lang = currentLanguage()
  return (
    <MenuButton
      label={t('language.label')}
      tooltip
      items={LANGUAGE_ORDER.map((l) => ({ key: l, label: <span lang={l}>{LANGUAGE_NAMES[l]}</span>, checked: l === lang }))}
      // i18n.t, not t: t speaks the language of the render before the switch.
      onSelect={(key) => void setLanguage(key as Language).then(() => toast.success(i18n.t('navbar.switchLanguageSuccess')))}
    >
      <GlobalIcon />
    </MenuButton>
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
    <MenuButton
      label={t('navbar.account', { name: me.name })}
      className={styles.avatarButton}
      items={[
        // The user's name leads to their own profile (and password), whatever their role.
        { key: 'name', label: me.name, icon: <UserIcon /> },
        { key: 'dashboard', label: t('route.dashboard'), icon: <DashboardIcon />, dividerBefore: true },
        { key: 'logout', label: t('navbar.logOut'), icon: <LogoutIcon />, danger: true },
      ]}
      onSelect={(key) => {
        if (key === 'name') navigate('/profile/edit')
        else if (key === 'dashboard') navigate('/')
        else onLogout()
      }}
    >
      <span className={styles.avatar} aria-hidden>
        {me.avatar ? <img src={me.avatar} alt="" /> : <UserIcon />}
      </span>
      <span className={styles.profileName}>{me.name}</span>
      <span className={styles.caret} aria-hidden>
        <DownIcon />
      </span>
    </MenuButton>
  )
}

/** A quiet sign that live updates are paused while the push connection comes back. */
export function LiveIndicator() {
  const { t } = useTranslation()
  if (usePushState() !== 'paused') return null
  return (
    <span className={styles.livePaused} role="status" data-testid="live-paused" title={t('navbar.livePausedHint')}>
      <DisconnectIcon /> {t('navbar.livePaused')}
    </span>
  )
}
