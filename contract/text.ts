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
