/**
 * Text cut to at most `max` UTF-16 units without splitting a character: a plain `slice` can keep
 * the first half of an emoji (a lone surrogate), which every UTF-8 encoder then writes as U+FFFD
 * (or, in `encodeURIComponent`, refuses outright).
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  const endsOnFirstHalf = code >= 0xd800 && code <= 0xdbff;
  return text.slice(0, endsOnFirstHalf ? max - 1 : max);
}

/**
 * Text of at most `max` characters (code points, so an emoji is never halved), a longer one cut
 * with "…" as its last: how a screen shows the start of something long.
 */
export function shortened(text: string, max: number): string {
  const characters = Array.from(text);
  return characters.length > max ? `${characters.slice(0, max - 1).join("")}…` : text;
}

/** Half of a surrogate pair, standing alone: `u` mode sees a whole pair as one character, never this. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Whether any string in a parsed JSON value holds a lone surrogate. JSON may spell one
 * (`"\ud83d"`), and storing it would silently turn it into U+FFFD on the way to the database.
 */
export function hasBrokenCharacters(value: unknown): boolean {
  if (typeof value === "string") return LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(hasBrokenCharacters);
  if (value && typeof value === "object")
    return Object.entries(value).some(([key, item]) => LONE_SURROGATE.test(key) || hasBrokenCharacters(item));
  return false;
}

/**
 * Control characters no one types, which the API refuses in any string: C0 but tab, line feed
 * and carriage return; DEL; C1.
 */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Unicode's explicit direction controls (embeddings, overrides and isolates, U+202A–U+202E and
 * U+2066–U+2069), which the API refuses too: invisible, they reorder the text after them, so an
 * agent named "Agent \u202Eevil" shows as "Agent live" and turns the rest of its History line
 * around. The marks U+200E and U+200F, which right-to-left text needs and which reorder nothing
 * after them, stay.
 */
export const DIRECTION_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;

/** The same two classes, every occurrence: for text to be made acceptable rather than refused (search boxes, the widget). */
// eslint-disable-next-line no-control-regex
export const REFUSED_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Nothing a reader would see: spaces, and format characters such as the zero-width space, the word joiner, the soft hyphen and the BOM. */
const SHOWS_NOTHING = /^[\s\p{Cf}]*$/u;

/**
 * A value that shows nothing, as the empty string: a required name, topic or message of zero-width
 * characters would pass a check for emptiness and show as a blank card, entry or reply.
 */
export const blankIfInvisible = (value: string) => (SHOWS_NOTHING.test(value) ? "" : value);
