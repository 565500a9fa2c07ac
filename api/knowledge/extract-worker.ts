import { chunkBlocks, type Chunk } from "./chunk";
import { extractHtml, type CleanupRules } from "./extract-html";

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
  const chunks = chunkBlocks(page.blocks).map((chunk) => ({ ...chunk, text: storable(chunk.text), headingPath: chunk.headingPath.map(storable) }));
  return { title: storable(page.title), text: storable(page.text), chunks };
}

/**
 * Text PostgreSQL can store: a page's stray NUL or other control characters (tabs and line breaks
 * kept) and halves of surrogate pairs would otherwise fail the page's write.
 */
const storable = (text: string) =>
  // eslint-disable-next-line no-control-regex
  text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");
