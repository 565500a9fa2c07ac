import type { Block } from "./extract-html";

export interface Chunk {
  position: number;
  /** The headings above the chunk's first words, outermost first. */
  headingPath: string[];
  text: string;
}

export interface ChunkOptions {
  /** Aim for chunks of about this many characters. */
  targetChars?: number;
  /** Repeat about this many characters of the previous chunk's end, on sentence boundaries. */
  overlapChars?: number;
}

/** Sentence ends: whitespace after . ! or ? (and a closing quote or bracket); no character is lost. */
const SENTENCE_END = /(?<=[.!?]["')\]]?)\s+/;

function sentencesOf(text: string) {
  return text.split(SENTENCE_END).map((s) => s.trim()).filter(Boolean);
}

/** Pieces no longer than `max`: sentences, and over-long sentences cut at word boundaries. */
function pieces(text: string, max: number): string[] {
  const out: string[] = [];
  for (const sentence of sentencesOf(text)) {
    if (sentence.length <= max) {
      out.push(sentence);
      continue;
    }
    let rest = sentence;
    while (rest.length > max) {
      const cut = rest.lastIndexOf(" ", max);
      const at = cut > max / 2 ? cut : max;
      out.push(rest.slice(0, at).trim());
      rest = rest.slice(at).trim();
    }
    if (rest) out.push(rest);
  }
  return out;
}

/**
 * Splits a page's blocks into overlapping chunks for retrieval. Each chunk records the heading
 * path it sits under, so an answer can say where on the page it came from; a new section starts
 * a new chunk, so one chunk never mixes two sections' headings.
 */
export function chunkBlocks(blocks: Block[], options: ChunkOptions = {}): Chunk[] {
  const target = options.targetChars ?? 1200;
  const overlap = options.overlapChars ?? 200;
  const chunks: Chunk[] = [];
  const headings: { level: number; text: string }[] = [];
  let current: string[] = [];
  let currentLength = 0;
  let currentPath: string[] = [];
  let carried = 0; // sentences at the start of `current` repeated from the previous chunk

  const flush = (keepOverlap: boolean) => {
    if (current.length > carried) {
      chunks.push({ position: chunks.length, headingPath: currentPath, text: current.join(" ") });
    }
    const tail: string[] = [];
    if (keepOverlap) {
      let length = 0;
      for (let i = current.length - 1; i >= 0 && length + current[i].length <= overlap; i--) {
        tail.unshift(current[i]);
        length += current[i].length + 1;
      }
    }
    current = tail;
    currentLength = tail.reduce((sum, s) => sum + s.length + 1, 0);
    carried = tail.length;
  };

  for (const block of blocks) {
    if (block.kind === "heading") {
      flush(false);
      while (headings.length && headings[headings.length - 1].level >= (block.level ?? 1)) headings.pop();
      headings.push({ level: block.level ?? 1, text: block.text });
      currentPath = headings.map((h) => h.text);
      continue;
    }
    for (const piece of pieces(block.text, target)) {
      if (currentLength + piece.length > target && current.length > carried) flush(true);
      if (current.length === 0) currentPath = headings.map((h) => h.text);
      current.push(piece);
      currentLength += piece.length + 1;
    }
  }
  flush(false);
  return chunks;
}
