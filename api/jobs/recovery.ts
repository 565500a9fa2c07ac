import type { ApiDeps } from "../deps";
import { recoverWaitingFiles, takeBackAbandonedFiles } from "../files/pipeline";
import { takeBackAbandonedUrls, websitesAwaitingDiscovery } from "../knowledge/crawl/pipeline-recovery";
import { relexemeStalePassages } from "../knowledge/index/relexeme";
import { takeBackAbandonedRuns } from "../testing/abandoned-runs";

/**
 * URLs, files and sitemap generations held by workers whose lease lapsed go back in line, and
 * their jobs are sent again; so do test runs whose job is gone. Cheap (partial indexes over what is in flight): every job-handling
 * process runs it after each lease renewal, so a killed worker's work restarts within a lease and a renewal.
 * With the sweeping process's `workerId`, so do its own URLs and files no job has in hand any more (jobs/in-hand.ts).
 */
export async function takeBackAbandonedWork(deps: ApiDeps & { workerId?: string }) {
  const runs = await takeBackAbandonedRuns(deps);
  if (runs.requeued || runs.interrupted)
    deps.log.info(
      `test runs without a job: ${runs.requeued} sent again, ${runs.interrupted} interrupted and queued again`,
    );
  const { toProcess, toDiscover } = await takeBackAbandonedUrls(deps);
  const files = await takeBackAbandonedFiles(deps);
  for (const websiteId of toProcess) await deps.jobs.send("website-process", { websiteId });
  for (const websiteId of toDiscover) await deps.jobs.send("website-discover", { websiteId });
  for (const fileId of files) await deps.jobs.send("file-index", { fileId });
  if (toProcess.length || toDiscover.length || files.length) {
    deps.log.info(
      `took back abandoned work: ${toProcess.length} website(s) to process, ${toDiscover.length} to discover, ${files.length} file(s)`,
    );
  }
  return { processing: toProcess.length, discovering: toDiscover.length, files: files.length };
}

/**
 * The scheduled recovery: abandoned work as above, websites and files whose job was lost (waiting
 * longer than `lostAfterSeconds` with no worker on them), uploads never finished, and passages
 * whose lexemes an older word breaker made (relexeme.ts).
 */
export async function recoverPipeline(deps: ApiDeps & { workerId?: string }, lostAfterSeconds: number) {
  const abandoned = await takeBackAbandonedWork(deps);
  const toDiscover = await websitesAwaitingDiscovery(deps, lostAfterSeconds);
  for (const websiteId of toDiscover) await deps.jobs.send("website-discover", { websiteId });
  const files = await recoverWaitingFiles(deps, lostAfterSeconds);
  for (const fileId of files.toIndex) await deps.jobs.send("file-index", { fileId });
  const relexemed = await relexemeStalePassages(deps.db);
  if (relexemed) deps.log.info(`made the lexemes of ${relexemed} passage(s) again`);
  return {
    processing: abandoned.processing,
    discovering: abandoned.discovering + toDiscover.length,
    files: abandoned.files + files.toIndex.length,
    abandonedUploads: files.abandoned,
    relexemed,
  };
}
