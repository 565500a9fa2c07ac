/**
 * A test run's words, apart from the run components so that a screen naming an environment (the
 * production gate's summary on Websites and Files) does not download the runs' table with them.
 */
export const environmentLabel = (environment: string) => (environment === "prod" ? "Production" : "Stage");

/** What queued a run, as an operator reads it ("manual" is someone pressing Run). */
export const triggerLabel = (trigger: string) => (trigger === "manual" ? "Run by hand" : trigger);
