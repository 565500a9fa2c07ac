import { createHash } from "node:crypto";
import type { Chunk } from "../index/chunk";

export interface ExtractedChunks {
  title: string;
  /** Whether the page holds any readable text at all. */
  hasText: boolean;
  /** The hash of the title and main text, which says whether a page changed since it was indexed. */
  contentHash: string;
  chunks: Chunk[];
}

/** A page's title and main text as one hash (the text itself need not cross threads). */
function contentHashOf(title: string, text: string) {
  return createHash("sha256").update(title).update("\n").update(text).digest("hex");
}

/** What extraction answers for a page's title, text and chunks. */
export const extracted = (title: string, text: string, chunks: Chunk[]): ExtractedChunks => ({
  title,
  hasText: text.trim() !== "",
  contentHash: contentHashOf(title, text),
  chunks,
});
