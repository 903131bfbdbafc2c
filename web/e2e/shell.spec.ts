import { expect, test, type Page } from '@playwright/test'
import { activeView, chooseMenuItem, authenticate, login, menuItem, openTabMenu, sidebar, tab, toasts } from './helpers'

/**
 * Opens a page from the sidebar by its item's name: the item itself (a link) when it shows, else its
 * group's title first (Appointments is a group beside the message log for who may read it).
 */
async function openFromSidebar(page: Page, name: string) {
  const items = sidebar(page).getByRole('menuitem', { name, exact: true })
  const leaf = items.and(page.locator('a'))
  if (!(await leaf.isVisible())) await items.first().click()
  await leaf.click()
}


test.describe('menus follow roles and permissions (spec §6)', () => {
  const menu = async (page: import('@playwright/test').Page) => {
    await sidebar(page).getByRole('menuitem').first().waitFor()
    return sidebar(page).getByRole('menuitem').allInnerTexts()
  }

  test('admin sees everything but hidden routes', async ({ page }) => {
    await login(page, 'admin')
    expect(await menu(page)).toEqual(['Dashboard', 'Master File', 'Appointments', 'Results', 'Fees', 'Administrator', 'Forms', 'My Profile'])
    await sidebar(page).getByRole('menuitem', { name: 'Administrator' }).click()
    await sidebar(page).getByRole('menuitem', { name: 'Roles & Permissions' }).click()
    await expect(page).toHaveURL('/administrator/roles')
    await expect(page).toHaveTitle('Roles & Permissions - EMR')
  })

  test('a doctor sees Forms and My Profile, not Administrator', async ({ page }) => {
    await login(page, 'doctor')
    expect(await menu(page)).toEqual(['Dashboard', 'Master File', 'Appointments', 'Results', 'Forms', 'My Profile'])
    await sidebar(page).getByRole('menuitem', { name: 'Forms' }).click()
    await sidebar(page).getByRole('menuitem', { name: 'Blank Prescription' }).click()
    await expect(page).toHaveURL('/forms/blankPrescription')
    // A route the doctor lacks is not generated; the page says so, and who to ask.
    await page.goto('/administrator/users')
    await expect(activeView(page).getByText('You do not have access to this page')).toBeVisible()
  })

  test('a receptionist sees neither Forms nor administration', async ({ page }) => {
    await login(page, 'receptionist')
    expect(await menu(page)).toEqual(['Dashboard', 'Master File', 'Appointments', 'Fees'])
    await page.goto('/forms/blankPrescription')
    await expect(activeView(page).getByText('You do not have access to this page')).toBeVisible()
  })
})

test('redirects, numeric ids and unknown paths', async ({ page }) => {
  await authenticate(page, 'admin')
  for (const [from, to] of [['/', '/dashboard'], ['/masterfile', '/masterfile/patients'], ['/appointments', '/appointments/appointments'], ['/profile', '/profile/edit'], ['/administrator', '/administrator/users'], ['/forms', '/forms/blankPrescription']]) {
    await page.goto(from)
    await expect(page).toHaveURL(to)
  }
  await page.goto('/administrator/users/edit/999999')
  await expect(page).toHaveTitle('Edit User - EMR')
  await expect(activeView(page).getByText('This account does not exist.')).toBeVisible()
  await page.goto('/administrator/users/edit/abc')
  await expect(activeView(page).getByText('This page does not exist, or it has moved.')).toBeVisible()
  await page.goto('/no/such/page')
  await expect(activeView(page).getByText('This page does not exist, or it has moved.')).toBeVisible()
  await expect(page.getByRole('complementary', { name: 'Main menu' })).toBeVisible() // still inside the layout
})

test('tag tabs: one per page, context menu, pinned tabs stay, views kept alive', async ({ page }) => {
  // Tall enough that no page scrolls: a scroll while a context menu is open moves it away
  // from under the pointer (the header is not fixed by default).
  await page.setViewportSize({ width: 1280, height: 1400 })
  await authenticate(page, 'admin')
  const profileReads: string[] = []
  page.on('request', (r) => void (new URL(r.url()).pathname === '/api/get-profile' && profileReads.push(r.url())))
  await page.goto('/masterfile/patients')
  await openFromSidebar(page, 'Appointments')
  await openFromSidebar(page, 'Patients')
  await openFromSidebar(page, 'Appointments')
  const tabs = page.getByRole('navigation', { name: 'Open pages' }).getByRole('link')
  await expect(tabs).toHaveText(['Dashboard', 'My Profile', 'Patients', 'Appointments'])
  await expect(tab(page, 'Appointments')).toHaveAttribute('aria-current', 'page')
  // A pinned tab not yet opened is not mounted: the screens opened did not load or ask for it.
  await expect(page.locator('#main > div[data-path="/user-profile/user-profile"]')).toHaveCount(0)
  expect(profileReads).toEqual([])

  // The Patients view stays mounted while hidden: something done in it survives switching.
  const patientsView = page.locator('#main > div[data-path="/masterfile/patients"]')
  await expect(patientsView).toHaveAttribute('hidden')
  await patientsView.evaluate((el) => el.setAttribute('data-marker', 'kept'))
  await tab(page, 'Patients').click()
  await expect(activeView(page)).toHaveAttribute('data-marker', 'kept')

  // Refresh remounts it.
  await openTabMenu(page, 'Patients')
  await chooseMenuItem(page, 'Refresh')
  await expect(activeView(page)).not.toHaveAttribute('data-marker', 'kept')

  // Close Others keeps the pinned tabs and the chosen one.
  await openTabMenu(page, 'Patients')
  await chooseMenuItem(page, 'Close Others')
  await expect(tabs).toHaveText(['Dashboard', 'My Profile', 'Patients'])

  // Closing the active tab goes to the last remaining one.
  await page.getByRole('button', { name: 'Close Patients' }).click()
  await expect(tabs).toHaveText(['Dashboard', 'My Profile'])
  await expect(page).toHaveURL('/user-profile/user-profile')

  // Close All never closes pinned tabs, and pinned tabs have no close button. (Once the page
  // opened is on screen: a Close All while its navigation is still in flight can lose to it.)
  await openFromSidebar(page, 'Appointments')
  await expect(tab(page, 'Appointments')).toHaveAttribute('aria-current', 'page')
  await expect(activeView(page).getByRole('heading', { name: 'Appointments', level: 2 })).toBeVisible()
  await openTabMenu(page, 'Dashboard')
  await expect(menuItem(page, 'Close')).toHaveAttribute('aria-disabled', 'true')
  await chooseMenuItem(page, 'Close All')
  await expect(tabs).toHaveText(['Dashboard', 'My Profile'])
  await expect(page).toHaveURL('/user-profile/user-profile')
  await expect(page.getByRole('button', { name: 'Close Dashboard' })).toHaveCount(0)
})

test('a screen whose code cannot be fetched says so and offers a reload; the other tabs stay', async ({ page }) => {
  await authenticate(page, 'admin')
  await page.goto('/dashboard')
  await expect(activeView(page).getByRole('heading', { name: /Welcome/, level: 2 })).toBeVisible()
  // As after an upgrade under an open page: the patients list's code is gone from the server.
  await page.route(/\/assets\/PatientListPage-[^/]*\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }))
  await page.goto('/dashboard')
  await expect(activeView(page).getByRole('heading', { name: /Welcome/, level: 2 })).toBeVisible()
  await sidebar(page).getByRole('menuitem', { name: 'Master File' }).click()
  await sidebar(page).getByRole('menuitem', { name: 'Patients' }).click()
  await expect(activeView(page).getByText('This screen could not be loaded')).toBeVisible()
  await expect(activeView(page).getByRole('button', { name: 'Reload' })).toBeVisible()
  await expect(sidebar(page)).toBeVisible()
  await tab(page, 'Dashboard').click()
  await expect(activeView(page).getByRole('heading', { name: /Welcome/, level: 2 })).toBeVisible()
  // Once the code is back, the reload brings the screen.
  await page.unroute(/\/assets\/PatientListPage-[^/]*\.js$/)
  await tab(page, 'Patients').click()
  await activeView(page).getByRole('button', { name: 'Reload' }).click()
  await expect(activeView(page).getByRole('heading', { name: 'Patients', level: 2 })).toBeVisible()
})

test('header search finds a page by fuzzy title and opens it', async ({ page }) => {
  await login(page, 'admin')
  await page.getByRole('combobox', { name: 'Search pages' }).fill('prescriptoin')
  await page.getByTitle('Forms > Blank Prescription').click()
  await expect(page).toHaveURL('/forms/blankPrescription')
  await page.getByRole('combobox', { name: 'Search pages' }).fill('/administrator/roles')
  await page.getByTitle('Administrator > Roles & Permissions').click()
  await expect(page).toHaveURL('/administrator/roles')
})

test('language switch changes menu, title and date picker, and persists across reload', async ({ page }) => {
  await login(page, 'doctor')
  await expect(page.getByRole('grid', { name: /\d{4}/ })).toBeVisible()
  const monthBefore = await page.getByTestId('calendar-month').innerText()
  await page.getByRole('button', { name: 'Language' }).click()
  await page.getByRole('menuitemradio', { name: 'Русский' }).click()
  await expect(toasts(page).getByText('Язык изменён')).toBeVisible()
  await expect(sidebar(page).getByRole('menuitem', { name: 'Приёмы' })).toBeVisible()
  await expect(page).toHaveTitle('Панель - EMR')
  await expect(page.getByTestId('calendar-month')).not.toHaveText(monthBefore) // the month's name, in Russian now
  await expect(page.getByRole('grid', { name: /\d{4}/ }).getByRole('row').first()).toContainText(/пн/i)

  await page.reload()
  await expect(sidebar(page).getByRole('menuitem', { name: 'Картотека' })).toBeVisible()
  await expect(page).toHaveTitle('Панель - EMR')
  await expect(page.getByRole('grid', { name: /\d{4}/ }).getByRole('row').first()).toContainText(/пн/i)
})

test('size switch changes the controls and persists', async ({ page, context }) => {
  await login(page, 'nurse')
  const hamburger = page.getByRole('button', { name: 'Show or hide the menu' })
  const heightOf = async () => (await hamburger.boundingBox())!.height
  expect(await heightOf()).toBe(32) // medium, the default
  const heights: number[] = []
  for (const size of ['Default', 'Small', 'Mini']) {
    await page.getByRole('button', { name: 'Text and control size' }).click()
    await page.getByRole('menuitemradio', { name: size }).click()
    await expect(toasts(page).getByText('Switch Size Success').first()).toBeVisible()
    await expect.poll(heightOf).not.toBe(heights.at(-1) ?? 32)
    // The controls animate to their new size: read it once it has settled.
    let last = -1
    await expect.poll(async () => {
      const [before, h] = [last, await heightOf()]
      last = h
      return h === before
    }).toBe(true)
    heights.push(last)
  }
  // Default > Medium > Small > Mini: four visibly different sizes.
  expect(heights[0]).toBeGreaterThan(32)
  expect(heights[1]).toBeLessThan(32)
  expect(heights[2]).toBeLessThan(heights[1])
  expect((await context.cookies()).find((c) => c.name === 'size')?.value).toBe('mini')
  await page.reload()
  await expect.poll(async () => Math.round(await heightOf())).toBe(Math.round(heights[2]))
})

test('the sidebar collapses and remembers it', async ({ page, context }) => {
  await login(page, 'admin')
  const aside = sidebar(page)
  expect((await aside.boundingBox())!.width).toBe(210)
  await page.getByRole('button', { name: 'Show or hide the menu' }).click()
  await expect.poll(async () => (await aside.boundingBox())!.width).toBe(54)
  expect((await context.cookies()).find((c) => c.name === 'sidebarStatus')?.value).toBe('0')
  await page.reload()
  await expect.poll(async () => (await aside.boundingBox())!.width).toBe(54)
})

test('mobile: the sidebar starts closed and opens over a backdrop', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await login(page, 'receptionist')
  const aside = sidebar(page)
  await expect.poll(async () => (await aside.boundingBox())!.x).toBeLessThan(0)
  await page.getByRole('button', { name: 'Show or hide the menu' }).click()
  await expect.poll(async () => (await aside.boundingBox())!.x).toBe(0)
  await openFromSidebar(page, 'Appointments')
  await expect(page).toHaveURL('/appointments/appointments')
  await expect.poll(async () => (await aside.boundingBox())!.x).toBeLessThan(0) // closes after choosing
  await page.getByRole('button', { name: 'Show or hide the menu' }).click()
  await page.mouse.click(370, 600) // the backdrop, beside the open sidebar
  await expect.poll(async () => (await aside.boundingBox())!.x).toBeLessThan(0)
})

test('settings panel: theme colour and tag tabs switch', async ({ page }) => {
  await login(page, 'admin')
  await page.getByRole('button', { name: 'Layout settings' }).click()
  const drawer = page.getByRole('dialog', { name: 'Layout settings' })
  await drawer.getByRole('switch').first().click() // page tabs off
  await expect(page.getByRole('navigation', { name: 'Open pages' })).toHaveCount(0)
  await drawer.getByRole('group', { name: 'Suggested colours' }).getByRole('button', { name: '#11A983' }).click()
  await expect(toasts(page).getByText('Theme has been changed!')).toBeVisible()
  await expect(drawer.getByRole('button', { name: '#11A983' })).toHaveAttribute('aria-pressed', 'true')
  // Escape closes the drawer and gives focus back to the button that opened it.
  await page.keyboard.press('Escape')
  await expect(drawer).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Layout settings' })).toBeFocused()
  const primary = () => page.evaluate(() => document.documentElement.style.getPropertyValue('--emr-primary'))
  await expect.poll(primary).toBe('#0d8667') // #11A983, darkened until white text on it reads at 4.5:1
  await page.reload()
  await expect(page.getByRole('navigation', { name: 'Open pages' })).toHaveCount(0)
  await expect.poll(primary).toBe('#0d8667')
})
