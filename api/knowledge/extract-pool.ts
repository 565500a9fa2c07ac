import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import type { ExtractedChunks, ExtractTask } from "./extract-worker";

/**
 * Extraction and chunking run on a small pool of worker threads, one per core: they are the
 * pipeline's CPU work, and off the main thread they neither hold up serving pages and chat
 * answers nor leave the second core idle.
 */
let pool: Piscina<ExtractTask, ExtractedChunks> | null = null;

function extractPool() {
  pool ??= new Piscina<ExtractTask, ExtractedChunks>({
    filename: new URL("./extract-worker.mjs", import.meta.url).href,
    maxThreads: Math.max(1, availableParallelism()),
    minThreads: 1,
    // Threads beyond the first leave after a quiet minute; the first stays for the next page.
    idleTimeout: 60_000,
  });
  return pool;
}

/** The page's title, main text and chunks, computed on a pool thread. */
export function extractInPool(task: ExtractTask): Promise<ExtractedChunks> {
  return extractPool().run(task);
}

/** Ends the pool's threads (a server or test host closing); the next page starts a new pool. */
export async function closeExtractPool() {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
