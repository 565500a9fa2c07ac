import { LONE_SURROGATE } from "@contract";

/** NUL and the other C0 controls but tab and line breaks, and DEL (a character class's inside). */
const CONTROLS = "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F";
/**
 * The text-direction embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which the
 * API refuses in what people type: in a crawled title they make `gpj.exe` read as `exe.jpg` in
 * every list, trace and answer that shows it. Marks (U+200E, U+200F) stay: they reorder nothing
 * beyond a character.
 */
const DIRECTION_CONTROLS = "\\u202A-\\u202E\\u2066-\\u2069";
// Those controls, and halves of surrogate pairs.
const UNSTORABLE = new RegExp(`[${CONTROLS}${DIRECTION_CONTROLS}]|${LONE_SURROGATE.source}`, "g");
/**
 * Any such control character or any surrogate at all, paired or not: one quick scan of a class
 * decides for nearly every text that nothing is to be removed (the full expression's look-arounds
 * cost several times as much on every character).
 */
const MAYBE_UNSTORABLE = new RegExp(`[${CONTROLS}${DIRECTION_CONTROLS}\\ud800-\\udfff]`);

/**
 * Text of a fetched page or PDF as PostgreSQL can store it: a stray NUL (which text columns refuse)
 * or half a surrogate pair would otherwise fail the page's write, and other control characters are
 * never meant to be read, nor are direction controls shown. Tabs and line breaks are kept.
 */
export const storableText = (text: string) => (MAYBE_UNSTORABLE.test(text) ? text.replace(UNSTORABLE, "") : text);
