import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { RecommendationStatus } from "@contract";
import { chunks, knowledgeFiles, profileFields, programRecords, recommendationBuilds, urls } from "../db/schema";
import type { ApiDeps } from "../deps";
import { extractPrograms, type ModelField, type SourcePassage } from "./extract-programs";
import { fillWithModel } from "./llm";
import { failedJobLine } from "../jobs/shown-output";
import { FinalFailure } from "../jobs/final-failure";

type BuildDeps = Pick<ApiDeps, "db" | "config" | "log">;

/** Sources read per step; progress is written after each. */
const SOURCES_PER_STEP = 50;

export async function programFields(appId: number, deps: Pick<ApiDeps, "db">): Promise<ModelField[]> {
  const rows = await deps.db
    .select()
    .from(profileFields)
    .where(and(eq(profileFields.appId, appId), eq(profileFields.modelType, "program_profile")))
    .orderBy(asc(profileFields.id));
  return rows.map((r) => ({
    name: r.name,
    definition: r.definition,
    field_type: r.fieldType as ModelField["field_type"],
  }));
}

/** Every indexed page and file of the client, as (source, title) pairs, pages first. */
async function indexedSources(appId: number, deps: Pick<ApiDeps, "db">) {
  const pages = await deps.db
    .select({ id: urls.id, url: urls.url, title: urls.title })
    .from(urls)
    .where(and(eq(urls.appId, appId), eq(urls.status, "indexed")))
    .orderBy(asc(urls.id));
  const files = await deps.db
    .select({ id: knowledgeFiles.id, name: knowledgeFiles.fileName, title: knowledgeFiles.title })
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.appId, appId), eq(knowledgeFiles.status, "indexed")))
    .orderBy(asc(knowledgeFiles.id));
  return [
    ...pages.map((p) => ({ kind: "url" as const, id: p.id, sourceUrl: p.url, title: p.title })),
    ...files.map((f) => ({ kind: "file" as const, id: f.id, sourceUrl: `file:${f.name}`, title: f.title || f.name })),
  ];
}

async function passagesOf(
  sources: Awaited<ReturnType<typeof indexedSources>>,
  deps: Pick<ApiDeps, "db">,
): Promise<SourcePassage[]> {
  const urlIds = sources.filter((s) => s.kind === "url").map((s) => s.id);
  const fileIds = sources.filter((s) => s.kind === "file").map((s) => s.id);
  const rows = [
    ...(urlIds.length
      ? await deps.db
          .select()
          .from(chunks)
          .where(inArray(chunks.urlId, urlIds))
          .orderBy(asc(chunks.urlId), asc(chunks.position), asc(chunks.id))
      : []),
    ...(fileIds.length
      ? await deps.db
          .select()
          .from(chunks)
          .where(inArray(chunks.fileId, fileIds))
          .orderBy(asc(chunks.fileId), asc(chunks.position), asc(chunks.id))
      : []),
  ];
  const byKey = new Map(sources.map((s) => [`${s.kind}:${s.id}`, s]));
  return rows.map((row) => {
    const source = byKey.get(row.urlId !== null ? `url:${row.urlId}` : `file:${row.fileId}`)!;
    return { sourceUrl: source.sourceUrl, pageTitle: source.title, headingPath: row.headingPath, text: row.text };
  });
}

/**
 * The recommendation model build (job `recommendation-model-build`): reads the client's indexed
 * pages and files, finds the programs they describe and fills the program model's fields, rule-
 * based by default or with the configured language model; the records replace the previous build's.
 */
export async function buildRecommendationModel(buildId: number, deps: BuildDeps) {
  const [build] = await deps.db
    .update(recommendationBuilds)
    .set({ state: "running", method: deps.config.llm ? "llm" : "rules" })
    .where(eq(recommendationBuilds.id, buildId))
    .returning();
  if (!build) return { skipped: "build gone" };
  try {
    const fields = await programFields(build.appId, deps);
    if (!fields.length) throw new Error("The program profile data model has no fields yet");
    const sources = await indexedSources(build.appId, deps);
    const passages: SourcePassage[] = [];
    for (let i = 0; i < sources.length; i += SOURCES_PER_STEP) {
      passages.push(...(await passagesOf(sources.slice(i, i + SOURCES_PER_STEP), deps)));
      const found = extractPrograms(passages, fields).length;
      await deps.db
        .update(recommendationBuilds)
        .set({ pages: Math.min(i + SOURCES_PER_STEP, sources.length), programs: found })
        .where(eq(recommendationBuilds.id, buildId));
    }
    const programs = extractPrograms(passages, fields);
    if (deps.config.llm) {
      for (const program of programs) {
        const text = passages
          .filter((p) => p.sourceUrl === program.sourceUrl)
          .map((p) => p.text)
          .join("\n");
        const filled = await fillWithModel(deps.config.llm, program.name, text, fields);
        for (const [name, value] of Object.entries(filled)) {
          program.values[name] = value;
          program.evidence[name] = "Filled by the language model from the program's page";
        }
      }
    }
    await deps.db.transaction(async (tx) => {
      await tx.delete(programRecords).where(eq(programRecords.appId, build.appId));
      if (programs.length) {
        await tx.insert(programRecords).values(
          programs.map((p) => ({
            appId: build.appId,
            name: p.name,
            sourceUrl: p.sourceUrl,
            values: p.values,
            evidence: p.evidence,
          })),
        );
      }
      await tx
        .update(recommendationBuilds)
        .set({ state: "completed", pages: sources.length, programs: programs.length, finishedAt: new Date() })
        .where(eq(recommendationBuilds.id, buildId));
    });
    return { programs: programs.length, sources: sources.length };
  } catch (error) {
    const message = (error as Error).message || String(error);
    await deps.db
      .update(recommendationBuilds)
      // Read on the data model's page by anyone who may read the client: one plain line, as a failed job's.
      .set({ state: "failed", error: failedJobLine(error), finishedAt: new Date() })
      .where(eq(recommendationBuilds.id, buildId));
    throw new FinalFailure(message);
  }
}

export async function latestBuild(appId: number, deps: Pick<ApiDeps, "db">): Promise<RecommendationStatus> {
  const [build] = await deps.db
    .select()
    .from(recommendationBuilds)
    .where(eq(recommendationBuilds.appId, appId))
    .orderBy(desc(recommendationBuilds.id))
    .limit(1);
  if (!build)
    return {
      state: "never",
      job_id: null,
      started_at: null,
      finished_at: null,
      progress: null,
      error: null,
      method: null,
    };
  return {
    state: build.state as RecommendationStatus["state"],
    job_id: build.jobId,
    started_at: build.startedAt.toISOString(),
    finished_at: build.finishedAt?.toISOString() ?? null,
    progress: { pages: build.pages, programs: build.programs },
    error: build.error,
    method: build.method as RecommendationStatus["method"],
  };
}

/** Builds left queued or running by a crashed worker are closed as failed (a new build can start). */
export async function closeAbandonedBuilds(deps: Pick<ApiDeps, "db">, olderThanSeconds: number) {
  await deps.db
    .update(recommendationBuilds)
    .set({ state: "failed", error: "The build was interrupted; start it again", finishedAt: new Date() })
    .where(
      sql`${recommendationBuilds.state} in ('queued', 'running') and ${recommendationBuilds.startedAt} < now() - make_interval(secs => ${olderThanSeconds})`,
    );
}
