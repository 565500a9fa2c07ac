import { chunkBlocks } from "./chunk";
import { extractHtml, type CleanupRules } from "./extract-html";
import { extracted, type ExtractedChunks } from "./extracted";
import { storableText } from "./storable-text";

export interface ExtractTask {
  html: string;
  rules: CleanupRules;
}

/** Runs in a pool thread: the page's main content, chunked, so only the result crosses threads. */
export default function extractAndChunk({ html, rules }: ExtractTask): ExtractedChunks {
  const page = extractHtml(html, rules);
  return extracted(storableText(page.title), page.text, chunkBlocks(page.blocks));
}
