/**
 * English spelling, by Hunspell's en_US dictionary (`dictionary-en`, read by `nspell`): whether a
 * word of a question is a word at all. Only a word that is not may be read as a stored word it
 * nearly is; "rider", "exert" or "illegitimate" are words of their own, and a store without them
 * simply does not speak of them.
 *
 * Loaded on the first question that needs it (about 150 ms and 20 MB), then kept.
 */

/** What is used of nspell's checker. */
interface SpellChecker {
  correct(word: string): boolean;
}

let checker: Promise<SpellChecker> | null = null;

function loadChecker() {
  checker ??= Promise.all([import("nspell"), import("dictionary-en")]).then(
    ([{ default: nspell }, { default: dictionary }]): SpellChecker =>
      // The dictionary's files as bytes, which nspell reads as its typings' Buffers.
      nspell({ aff: Buffer.from(dictionary.aff), dic: Buffer.from(dictionary.dic) }),
  );
  checker.catch(() => (checker = null));
  return checker;
}

/** Whether a lower-case word is English as written, or as a name ("tampa" as "Tampa", "finnish" as "Finnish"). */
export async function isEnglishWord(word: string): Promise<boolean> {
  // Without the dictionary every word counts as English: nothing is corrected, the answer is as before.
  const spell = await loadChecker().catch(() => null);
  if (!spell) return true;
  return spell.correct(word) || spell.correct(word.charAt(0).toUpperCase() + word.slice(1));
}
