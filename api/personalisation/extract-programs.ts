import type { FieldType } from "@contract";
import { sentencesOf } from "../knowledge/words/sentences";

/** A passage of indexed content with where it sits: what the build reads. */
export interface SourcePassage {
  sourceUrl: string;
  pageTitle: string;
  headingPath: string[];
  text: string;
}

export interface ModelField {
  name: string;
  definition: string;
  field_type: FieldType;
}

export interface FoundProgram {
  name: string;
  sourceUrl: string;
  values: Record<string, unknown>;
  /** The sentence each value was read from, so an operator can check it. */
  evidence: Record<string, string>;
}

/**
 * A heading that names a program: a credential word (Bachelor of…, Master's, Certificate…), or a
 * degree abbreviation on its own or in brackets ("Nursing (BSN)", "MBA").
 */
const PROGRAM_HEADING =
  /\b(bachelor|master|doctor(ate)?|associate|certificate|diploma|degree|major|minor|programme?)\b|\((?:[A-Z][A-Za-z.]{1,6})\)|\b(?:BSc|BA|BS|BSN|BBA|BEng|MSc|MS|MA|MBA|MEd|MEng|MPH|MFA|PhD|EdD|DNP|LLM|JD)\b/i;
/** Page furniture that is never a program section. */
const NOT_A_SECTION = /^(page \d+|programs?|programmes?|overview|introduction|contents)$/i;
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
/** Words too common in program pages to tell one field from another. */
const STOP_WORDS = new Set([
  "the",
  "and",
  "for",
  "with",
  "that",
  "this",
  "from",
  "into",
  "what",
  "which",
  "when",
  "where",
  "whether",
  "their",
  "there",
  "program",
  "programs",
  "programme",
  "student",
  "students",
  "course",
  "courses",
  "number",
  "value",
  "field",
  "name",
  "type",
  "text",
  "offered",
  "offer",
  "offers",
  "about",
  "list",
  "other",
  "does",
  "have",
  "has",
  "will",
  "must",
  "can",
  "are",
  "its",
  "how",
]);

const stem = (word: string) => word.toLowerCase().replace(/(ing|ed|es|s)$/, "");

const wordsOf = (text: string) =>
  (text.toLowerCase().match(/[a-z]{3,}/g) ?? []).filter((w) => !STOP_WORDS.has(w)).map(stem);

/**
 * Word stems of a field's name (strong evidence) and of its definition (weaker), without the
 * words every program page uses.
 */
export function keywordsOf(field: ModelField) {
  const name = [...new Set(wordsOf(field.name.replace(/_/g, " ")))];
  const definition = [...new Set(wordsOf(field.definition))].filter((w) => !name.includes(w));
  return { name, definition };
}

/** Same word: equal stems, or the same first five letters (admits, admitted; enrol, enrolment). */
const sameWord = (a: string, b: string) =>
  a === b || (a.length >= 5 && b.length >= 5 && a.slice(0, 5) === b.slice(0, 5));

function hitsOf(sentence: string, keywords: { name: string[]; definition: string[] }) {
  const stems = wordsOf(sentence);
  const count = (list: string[]) => list.filter((k) => stems.some((s) => sameWord(s, k))).length;
  return { name: count(keywords.name), definition: count(keywords.definition) };
}

/** A sentence is about the field when it uses a word of its name, or two of its definition. */
const isAbout = (hits: { name: number; definition: number }) => hits.name > 0 || hits.definition >= 2;
const scoreOf = (hits: { name: number; definition: number }) => hits.name * 2 + hits.definition;

/** Where the first word of the field appears in the sentence (lists and numbers are read after it). */
function firstMention(sentence: string, keywords: { name: string[]; definition: string[] }) {
  const all = [...keywords.name, ...keywords.definition];
  for (const match of sentence.matchAll(/[A-Za-z]{3,}/g)) {
    if (all.some((k) => sameWord(stem(match[0]), k))) return match.index ?? 0;
  }
  return 0;
}

/** The number written nearest to `at` (digits or one…twelve), or null when the text has none. */
function numberNear(text: string, at: number): number | null {
  let best: { value: number; distance: number } | null = null;
  for (const match of text.matchAll(
    /\b(\d{1,3}(?:,\d{3})*(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/gi,
  )) {
    const token = match[1].toLowerCase();
    const value = NUMBER_WORDS[token] ?? Number(token.replace(/,/g, ""));
    const distance = Math.abs((match.index ?? 0) - at);
    if (!best || distance < best.distance) best = { value, distance };
  }
  return best?.value ?? null;
}

function listIn(text: string): string[] | null {
  const tail = text
    .replace(/^.*?(?:\b(?:include|includes|including|in|such as|are|is)\b|:)/i, "")
    .replace(/[.!?]$/, "");
  const items = tail
    .split(/,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+/)
    .map((s) => s.trim())
    .filter((s) => s && s.split(" ").length <= 5);
  return items.length >= 2 ? items : null;
}

/** The field's value as this section states it, with the sentence it came from; null when the text does not say. */
export function readField(
  field: ModelField,
  programName: string,
  text: string,
): { value: unknown; sentence: string } | null {
  const words = field.name.toLowerCase().replace(/_/g, " ");
  if (/^(program )?(name|title)$|^program$/.test(words)) return { value: programName, sentence: programName };
  const keywords = keywordsOf(field);
  if (!keywords.name.length && !keywords.definition.length) return null;
  // "Label: value" lines state a field outright.
  for (const sentence of sentencesOf(text)) {
    const labelled = sentence.match(/^([A-Za-z][A-Za-z /&-]{2,40}):\s*(.+)$/);
    if (labelled && isAbout(hitsOf(labelled[1], keywords)))
      return coerce(field, labelled[2].replace(/[.]$/, ""), sentence);
  }
  const ranked = sentencesOf(text)
    .map((sentence) => ({ sentence, hits: hitsOf(sentence, keywords) }))
    .filter((s) => isAbout(s.hits))
    .sort((a, b) => scoreOf(b.hits) - scoreOf(a.hits));
  for (const { sentence } of ranked) {
    const read = coerce(field, sentence, sentence, firstMention(sentence, keywords));
    if (read) return read;
  }
  return null;
}

/** The field's value from `raw` (the sentence, or a label's value); `at` is where the field is mentioned. */
function coerce(field: ModelField, raw: string, sentence: string, at = 0): { value: unknown; sentence: string } | null {
  switch (field.field_type) {
    case "number": {
      const value = numberNear(raw, at);
      return value === null ? null : { value, sentence };
    }
    case "boolean":
      return { value: !/\b(not|no|never|without|isn't|aren't|optional)\b/i.test(raw), sentence };
    case "array": {
      const value = listIn(raw.slice(at));
      return value ? { value, sentence } : null;
    }
    case "json":
      return null;
    default:
      return { value: raw.trim(), sentence };
  }
}

/** The program a section heading names, or null: "Nursing (BSN)" yes, "Page 2" or "Programs" no. */
export function programNameOf(heading: string) {
  const clean = heading.replace(/\s+/g, " ").trim();
  if (!clean || clean.length > 120 || NOT_A_SECTION.test(clean)) return null;
  return PROGRAM_HEADING.test(clean) ? clean : null;
}

/**
 * Rule-based extraction: every section whose heading names a program becomes a program, and each
 * field of the program model takes the value its section states (see readField). Sections of the
 * same program on several pages merge; the first page to state a field wins.
 */
export function extractPrograms(passages: SourcePassage[], fields: ModelField[]): FoundProgram[] {
  const sections = new Map<string, { name: string; sourceUrl: string; texts: string[] }>();
  for (const passage of passages) {
    const headings = passage.headingPath.filter((h) => !/^Page \d+$/.test(h));
    const name =
      [...headings].reverse().map(programNameOf).find(Boolean) ??
      (headings.length === 0 ? programNameOf(passage.pageTitle.split(/\s[|·–-]\s/)[0]) : null);
    if (!name) continue;
    const key = name.toLowerCase();
    const section = sections.get(key) ?? { name, sourceUrl: passage.sourceUrl, texts: [] };
    section.texts.push(passage.text);
    sections.set(key, section);
  }
  return [...sections.values()].map((section) => {
    const text = section.texts.join(" ");
    const values: Record<string, unknown> = {};
    const evidence: Record<string, string> = {};
    for (const field of fields) {
      const read = readField(field, section.name, text);
      if (!read) continue;
      values[field.name] = read.value;
      evidence[field.name] = read.sentence;
    }
    return { name: section.name, sourceUrl: section.sourceUrl, values, evidence };
  });
}
