/**
 * Whether this process is answering someone now: a console page or an API call. Work nobody waits
 * on (the job handlers: crawling, indexing, test runs) gives way to it on the embedded database,
 * whose one thread runs one statement at a time (PGliteOnThread.background). A page or an API call
 * runs several statements one after another; counting the answer as a whole, not each statement,
 * keeps background work from slipping in between them.
 */
let answering = 0;
const whenDone = new Set<() => void>();

/** Counts one answer from now; answers the function that ends it (calling it again does nothing). */
export function beginAnswering(): () => void {
  answering++;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    answering--;
    if (answering === 0) for (const listener of whenDone) listener();
  };
}

export const isAnswering = () => answering > 0;

/** Calls `listener` each time the last answer under way ends; answers the function that stops it. */
export function onAnsweringDone(listener: () => void): () => void {
  whenDone.add(listener);
  return () => whenDone.delete(listener);
}
