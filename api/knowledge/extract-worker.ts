import { chunkBlocks, type Chunk } from "./chunk";
import { extractHtml, type CleanupRules } from "./extract-html";
import { storableText } from "./storable-text";

export interface ExtractTask {
  html: string;
  rules: CleanupRules;
}

export interface ExtractedChunks {
  title: string;
  /** The page's main text, for the unchanged-content hash. */
  text: string;
  chunks: Chunk[];
}

/** Runs in a pool thread: the page's main content, chunked, so only the result crosses threads. */
export default function extractAndChunk({ html, rules }: ExtractTask): ExtractedChunks {
  const page = extractHtml(html, rules);
  return { title: storableText(page.title), text: page.text, chunks: chunkBlocks(page.blocks) };
}
