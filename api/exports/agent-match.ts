import { and, desc, eq, sql } from "drizzle-orm";
import { agents, configChanges } from "../db/schema";
import type { Executor } from "../controls/scope";
import { badRequest } from "../http/errors";
import type { AppExportFile } from "./format";

type AgentRow = typeof agents.$inferSelect;
type FileAgent = AppExportFile["agents"][number];

const sameCode = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The agent of the client that History shows last gave up this site code (renamed, not deleted). */
async function renamedFrom(appId: number, siteCode: string, db: Executor) {
  const [change] = await db
    .select({ target: configChanges.target })
    .from(configChanges)
    .where(
      and(
        eq(configChanges.appId, appId),
        eq(configChanges.kind, "agent"),
        sql`lower(${configChanges.before}->>'site_code') = lower(${siteCode})`,
        sql`lower(${configChanges.after}->>'site_code') <> lower(${siteCode})`,
      ),
    )
    .orderBy(desc(configChanges.id))
    .limit(1);
  return change ? Number(change.target) : null;
}

/**
 * Which of the client's agents each agent of the file is (null: one the import adds), so an agent
 * renamed since the export is updated rather than added again. In this order: the agent of the id
 * the export carries, with the time it was created (an id alone may name another agent in another
 * console's database); the client's agent of its site code, in any case; or the agent History shows
 * renamed away from that code (exports written before they carried ids). Each agent once.
 */
async function matchAgents(appId: number, fileAgents: FileAgent[], live: AgentRow[], db: Executor) {
  const claimed = new Set<number>();
  const claim = (row: AgentRow | undefined) => {
    if (!row || claimed.has(row.id)) return null;
    claimed.add(row.id);
    return row;
  };
  const matches = fileAgents.map((agent) =>
    claim(live.find((row) => row.id === agent.id && row.createdAt.toISOString() === agent.created_at)),
  );
  fileAgents.forEach((agent, i) => {
    matches[i] ??= claim(live.find((row) => !claimed.has(row.id) && sameCode(row.siteCode, agent.site_code)));
  });
  for (const [i, agent] of fileAgents.entries()) {
    if (matches[i]) continue;
    const id = await renamedFrom(appId, agent.site_code, db);
    matches[i] = claim(live.find((row) => row.id === id));
  }
  return matches;
}

/**
 * The file as the import writes it into an existing client: each agent matched to the client's
 * agent it is (`matched`, by position; null for one to add), keeping the site code it has here,
 * since the embed scripts on the client's pages carry it, and with what the file kept under the
 * code it was exported with moved to that code. Refused (400, nothing written) where that would
 * put two things under one code.
 */
export async function placeAgents(appId: number, file: AppExportFile, db: Executor) {
  const live = await db.select().from(agents).where(eq(agents.appId, appId));
  const matches = await matchAgents(appId, file.agents, live, db);
  const codes = new Map<string, string>();
  file.agents.forEach((agent, i) => {
    const row = matches[i];
    if (row && row.siteCode !== agent.site_code) codes.set(agent.site_code, row.siteCode);
  });
  const usedInFile = new Set([
    ...file.app.trigger_points,
    ...file.agents.map((agent) => agent.site_code),
    ...[
      ...file.controls,
      ...file.ai_probings,
      ...file.input_prompts,
      ...file.finetunings,
      ...file.appearances,
      ...file.test_questions,
    ].map((row) => row.trigger_point),
  ]);
  file.agents.forEach((agent, i) => {
    const holder = matches[i] ? undefined : live.find((other) => sameCode(other.siteCode, agent.site_code));
    if (holder)
      throw badRequest(
        `Agent ${agent.name} of the file has site code ${agent.site_code}, which agent ${holder.name} has here now: change one of them first`,
      );
  });
  file.agents.forEach((agent, i) => {
    const row = matches[i];
    if (row && codes.has(agent.site_code) && usedInFile.has(row.siteCode) && !codes.has(row.siteCode))
      throw badRequest(
        `Agent ${agent.name} of the file has site code ${row.siteCode} here now, under which the file keeps other settings: change its site code first`,
      );
  });
  const placed = <T extends { trigger_point: string }>(rows: T[]) =>
    rows.map((row) => ({ ...row, trigger_point: codes.get(row.trigger_point) ?? row.trigger_point }));
  return {
    matched: matches.map((row) => row?.id ?? null),
    // Every section kept per trigger point.
    file: codes.size
      ? {
          ...file,
          agents: file.agents.map((agent) => ({ ...agent, site_code: codes.get(agent.site_code) ?? agent.site_code })),
          controls: placed(file.controls),
          ai_probings: placed(file.ai_probings),
          input_prompts: placed(file.input_prompts),
          finetunings: placed(file.finetunings),
          appearances: placed(file.appearances),
          test_questions: placed(file.test_questions),
        }
      : file,
  };
}
