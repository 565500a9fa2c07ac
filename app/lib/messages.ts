/** Texts the spec fixes word for word, shared by server and browser code. */
export const SOMETHING_WENT_WRONG = "Something went wrong. Please refresh page and try again.";
export const NOT_FOUND_TEXT = "404 Page Not Found";
/** What a refused change says (a read-only user's post): the page was theirs to see, the change is not theirs to make. */
export const NOT_YOURS_TO_CHANGE = "You do not have permission to change this.";
export const INVALID_PAGE_TYPE = "Invalid page type";
export const LOGIN_TITLE = "Welcome";
export const LOGIN_TEXT = "Please sign in with your Google account to continue.";
/** On the sign-in page after a form was posted once the session had ended (a save, a run, a download): nothing was done. */
export const UNSAVED_WHEN_SIGNED_OUT =
  "Your session ended before that could be done, so nothing was saved. Sign in, then try again.";
/** The same, when what the form held was kept: the page offers it again after the sign-in. */
export const UNSAVED_KEPT_WHEN_SIGNED_OUT =
  "Your session ended before that could be done, so nothing was saved yet. Sign in, and what you sent is offered again.";
/** Above the page the sign-in returned to, with the kept form. */
export const UNSENT_OFFERED_AGAIN = "Your session ended before this was sent, so it was not saved. Send it again now?";
export const TOO_MANY_SIGN_INS = "Too many sign-in attempts; wait a minute and try again.";
export const LOGOUT_QUESTION = "Are you sure you want to logout?";
/** A form posted to a page that has none to take it: a stale page, or a request no screen sends. */
export const NOT_A_FORM_PAGE = "This page does not take forms. Reload it and use its own buttons.";

/** What stands where a Copy button would be, with JavaScript off: the clipboard needs a script. */
export const copyWithoutJavaScript = (what: string, button: string) =>
  `Select the ${what} and copy it (${button} needs JavaScript).`;

/**
 * A change posted while the API could not reach its data (its 503): nothing was saved, and the same
 * post will do once it answers again.
 */
export const NOT_SAVED_JUST_NOW =
  "This could not be saved just now: the console cannot reach its data. Nothing was changed; try again in a few seconds.";
/**
 * Whether an error screen's message says a post was not saved just now (an outage's, or a limit's),
 * to offer it again. The opening is written out in each message rather than shared through a name:
 * every page's script carries this check, and the name alone took the chunks drawer past its
 * JavaScript budget (tests/e2e/fast-pages.spec.ts). A test holds each message to it.
 */
export const saysNotSavedJustNow = (message: string) => message.startsWith("This could not be saved just now:");
/** What could not be read just now (the API's 503): a page, or a part of one. */
export const NOT_SHOWN_JUST_NOW = "The console cannot reach its data just now; try again in a few seconds.";

const inSeconds = (seconds: number) => `${seconds} ${seconds === 1 ? "second" : "seconds"}`;
/**
 * A page the API's limit would not renew the sign-in for (its 429: too many sign-in renewals from
 * this address just now), with the limit's wait. The sign-in stands.
 */
export const refreshLimitedNotShown = (seconds: number) =>
  `Too many sign-in renewals came from this address just now, so this page cannot be shown yet. You are still signed in; try again in ${inSeconds(seconds)}.`;
/** The same after a post: nothing was saved, and the same post will do once the wait is over. */
export const refreshLimitedNotSaved = (seconds: number) =>
  `This could not be saved just now: too many sign-in renewals came from this address. Nothing was changed; try again in ${inSeconds(seconds)}.`;
/** A post the API could not take just now: where it went and its text fields, to send again (resend-page.server.ts). */
export interface Resend {
  to: string;
  fields: [string, string][];
}
