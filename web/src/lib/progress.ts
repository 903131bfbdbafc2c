// The navigation progress bar (spec §4), on nprogress. Its stock markup carries an invalid
// ARIA role, so the template is given here, without one.
import NProgress from 'nprogress'

NProgress.configure({ showSpinner: false, barSelector: '.bar', template: '<div class="bar"><div class="peg"></div></div>' })

export const startProgress = () => NProgress.start()
export const doneProgress = () => NProgress.done()
