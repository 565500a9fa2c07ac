// Where the end-to-end lanes find Debian's Chromium (never a downloaded browser), and the Debian
// package that puts each there: the full browser, and its headless shell built from the same source
// (decision 042).

/** The full browser: the route sweep reads every screen in it. */
export const CHROMIUM = "/usr/bin/chromium";
/** Chromium's headless shell: the journeys and the hostile sweep run in it. */
export const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";

/** Each executable with the Debian package that installs it. */
export const DEBIAN_PACKAGES = { [CHROMIUM]: "chromium", [HEADLESS_SHELL]: "chromium-headless-shell" };
