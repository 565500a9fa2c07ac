/**
 * Words that keep their capitals when a name is title-cased ('ai-finetuning' ⇒ 'AI Finetuning'). A Map,
 * not an object literal: names come from addresses, and 'constructor' must not find Object's.
 */
const ACRONYMS = new Map([
  ["ai", "AI"],
  ["csv", "CSV"],
  ["crm", "CRM"],
  ["lms", "LMS"],
  ["pdf", "PDF"],
  ["url", "URL"],
  ["urls", "URLs"],
]);

/** 'knowledge-store' ⇒ 'Knowledge Store', 'file_type' ⇒ 'File Type', 'ai-personality' ⇒ 'AI Personality'. */
export function titleCase(value: string) {
  return value
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => ACRONYMS.get(word.toLowerCase()) ?? word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}

/** Decodes a path segment without throwing on malformed escapes. */
export function decodeSegment(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
