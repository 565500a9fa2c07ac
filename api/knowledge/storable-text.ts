import { LONE_SURROGATE } from "../http/input-guard";

// NUL and the other C0 controls but tab and line breaks, DEL, and halves of surrogate pairs.
const UNSTORABLE = new RegExp(`[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]|${LONE_SURROGATE.source}`, "g");

/**
 * Text of a fetched page or PDF as PostgreSQL can store it: a stray NUL (which text columns refuse)
 * or half a surrogate pair would otherwise fail the page's write, and other control characters are
 * never meant to be read. Tabs and line breaks are kept.
 */
export const storableText = (text: string) => text.replace(UNSTORABLE, "");
