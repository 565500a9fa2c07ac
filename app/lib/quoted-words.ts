/*
 * Words quoted in a sentence, apart from the rest of the answer trace's wording: a run's results
 * show only this, and a module's every export reaches each page that imports any of it.
 */

/** “a”, “a” and “b”, “a”, “b” and “c”: words quoted in a sentence. */
export function quotedList(words: string[]) {
  const quoted = words.map((word) => `“${word}”`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}` : quoted[0];
}

/** A question's words no passage held, in a sentence ("No passage held “car” and “parking”."); "" for none. */
export const noPassageHeldText = (words: string[]) => (words.length ? `No passage held ${quotedList(words)}.` : "");
