import { readlinkSync } from "node:fs";
import { getPriority, setPriority } from "node:os";
import { chunkBlocks } from "../index/chunk";
import { decodeHtml } from "../extract/decode-html";
import { extractHtml, type CleanupRules } from "../extract/extract-html";
import { extracted, type ExtractedChunks } from "./extracted";
import { storableText } from "../extract/storable-text";

/**
 * How much lower than the process this thread runs (a Unix nice value): extraction is the largest
 * part of indexing's CPU, and nobody waits on any one page of it, so pages, API calls and visitors'
 * questions on the other threads go first while a site is indexed.
 */
const EXTRACTION_NICENESS = 10;

/** Lowers this thread's priority on Linux, where a thread's id is what the kernel's priority call takes. */
function yieldToRequests() {
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(threadId)) setPriority(threadId, Math.min(19, getPriority(threadId) + EXTRACTION_NICENESS));
  } catch {
    // Another system, or a sandbox that refuses: the thread keeps the process's priority.
  }
}
yieldToRequests();

export interface ExtractTask {
  /**
   * The page as fetched (bytes, in whatever charset it came), or its markup. Bytes are read on the thread: the fetching
   * thread then never holds the page as a string, which lived there until the page was extracted
   * (a hundred milliseconds and more under load) and was most of what its collector had to copy.
   */
  html: Uint8Array | string;
  /** The charset of the page's Content-Type header, for bytes (decode-html.ts weighs it with the page's own). */
  charset?: string | null;
  rules: CleanupRules;
}

/** Runs in a pool thread: the page's main content, chunked, so only the result crosses threads. */
export default function extractAndChunk({ html, charset, rules }: ExtractTask): ExtractedChunks {
  const page = extractHtml(typeof html === "string" ? html : decodeHtml(html, charset ?? null), rules);
  const title = storableText(page.title);
  return extracted(title, page.text, chunkBlocks(page.blocks, { title }));
}
