import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import type { ExtractTask } from "./extract-worker";
import type { ExtractedChunks } from "./extracted";

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
    minThreads: 0,
    // A thread is handed its next pages while it works on one: on embedded PGlite the main thread
    // is often inside a database statement (a grouped write takes ~20 ms), and a thread that had to
    // wait for it to hand over the next page sat idle meanwhile: with 4 pages in hand the threads
    // were idle half the time, with 16 the pipeline ran 0.57× → 0.61× Crawlee (docs/decisions/017).
    concurrentTasksPerWorker: 16,
    // Threads leave after a quiet minute: an idle console holds no extraction thread's memory
    // (about 40 MB each); the next page starts one again in a fraction of a second.
    idleTimeout: 60_000,
  });
  return pool;
}

/** The page's title, main text and chunks, computed on a pool thread. */
export function extractInPool(task: ExtractTask): Promise<ExtractedChunks> {
  return extractPool().run(task);
}

/**
 * Ends the pool's threads; the next page starts a new pool. A host's close leaves the pool to the
 * process (api/host.ts); a test that must see threads start calls this first.
 */
export async function closeExtractPool() {
  const closing = pool;
  pool = null;
  await closing?.destroy();
}
