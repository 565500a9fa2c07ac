import { isDeepStrictEqual } from "node:util";
import { and, asc, eq, inArray, sql, TransactionRollbackError } from "drizzle-orm";
import { z } from "zod";
import {
  ExportFiles,
  ExportResult,
  IdParam,
  IMPORT_PREVIEW_CHANGES,
  ImportBody,
  ImportPreview,
  ImportResult,
  isPenaltyType,
  TOPIC_CONTROL_TYPES,
  unsafeStringsOf,
} from "@contract";
import { decodeTextFile } from "@contract/text-file";
import { agentColumns } from "../agents/agent-change";
import { nextClientId } from "../apps/client-change";
import { appColumns, loadClientApp } from "../apps/queries";
import { assignableAppRoles, requireApp, requireStaff } from "../auth/permissions";
import type { Caller } from "../auth/caller";
import {
  agents,
  aiProbings,
  appUsers,
  clientApps,
  configChanges,
  controls,
  controlTopics,
  finetunings,
  inputPrompts,
  knowledgeFiles,
  storedFiles,
  users,
} from "../db/schema";
import type { Executor } from "../controls/scope";
import type { ApiDeps } from "../deps";
import { badRequest, fieldErrorsOf, notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { recordChanges, type Author } from "../history/record";
import { secretBoxOf } from "../integrations/secrets";
import { placeAgents } from "./agent-match";
import { copyImages, withOwnImages } from "./appearance-images";
import { importChanges, type ImportWritten } from "./import-changes";
import { importDigest, type PreviewedChange } from "./import-digest";
import { exportProfileSections, importProfileSections } from "./profile-sections";
import { exportKnowledgeSections, importKnowledgeSections, repeatedWebsites } from "./knowledge-sections";
import {
  AppExportFile,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  EXPORTS_FOLDER,
  exportFileName,
  isExportFileName,
} from "./format";
import type { StorageWrites } from "../http/storage-writes";

/** Everything configured under a client, in the export format. */
async function buildExport(appId: number, deps: Pick<ApiDeps, "db">): Promise<AppExportFile> {
  const app = await loadClientApp(appId, deps);
  const agentRows = await deps.db.select().from(agents).where(eq(agents.appId, appId)).orderBy(asc(agents.id));
  const controlRows = await deps.db.select().from(controls).where(eq(controls.appId, appId)).orderBy(asc(controls.id));
  const topicRows = await deps.db
    .select()
    .from(controlTopics)
    .where(eq(controlTopics.appId, appId))
    .orderBy(asc(controlTopics.id));
  const probingRows = await deps.db
    .select()
    .from(aiProbings)
    .where(eq(aiProbings.appId, appId))
    .orderBy(asc(aiProbings.id));
  const promptRows = await deps.db
    .select()
    .from(inputPrompts)
    .where(eq(inputPrompts.appId, appId))
    .orderBy(asc(inputPrompts.id));
  const ruleRows = await deps.db
    .select()
    .from(finetunings)
    .where(eq(finetunings.appId, appId))
    .orderBy(asc(finetunings.id));
  const accessRows = await deps.db
    // The name this client gave each person, not the account's (docs/decisions/032).
    .select({ email: users.email, name: appUsers.name, role: appUsers.role })
    .from(appUsers)
    .innerJoin(users, eq(users.id, appUsers.userId))
    .where(eq(appUsers.appId, appId))
    .orderBy(asc(users.email));
  const fileRows = await deps.db
    .select({ file: knowledgeFiles, addedBy: users.email })
    .from(knowledgeFiles)
    .leftJoin(users, eq(users.id, knowledgeFiles.addedBy))
    .where(eq(knowledgeFiles.appId, appId))
    .orderBy(asc(knowledgeFiles.id));
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    app: {
      client_name: app.client_name,
      primary_website: app.primary_website,
      notes: app.notes,
      url_code: app.url_code,
      project_url: app.project_url,
      market: app.market,
      logo_url: app.logo_url,
      country: app.country,
      copy_market: app.copy_market,
      client_type: app.client_type as AppExportFile["app"]["client_type"],
      onboard_existing_client: app.onboard_existing_client,
      trigger_points: app.trigger_points,
      mode_env: app.mode_env as AppExportFile["app"]["mode_env"],
      insync_prod_app_id: app.insync_prod_app_id,
      status: app.status as AppExportFile["app"]["status"],
    },
    agents: agentRows.map((a) => ({
      id: a.id,
      created_at: a.createdAt.toISOString(),
      name: a.name,
      agent_type: a.agentType as AppExportFile["agents"][number]["agent_type"],
      site_code: a.siteCode,
      logo: a.logo,
      url: a.url,
      status: a.status as AppExportFile["agents"][number]["status"],
      mode_env: a.modeEnv as AppExportFile["agents"][number]["mode_env"],
      metadata: a.metadata,
    })),
    // Topic list rows travel with the other controls, as on the wire.
    controls: [...controlRows, ...topicRows].map((c) => ({
      internal_name: c.internalName,
      display_name: c.displayName,
      prompt_input_raw: c.promptInputRaw,
      trigger_point: c.triggerPoint,
      metadata: c.metadata,
    })),
    access: accessRows.map((a) => ({
      email: a.email,
      name: a.name,
      role: a.role as AppExportFile["access"][number]["role"],
    })),
    files: fileRows.map(({ file, addedBy }) => ({
      file_name: file.fileName,
      tags: file.tags as AppExportFile["files"][number]["tags"],
      status: file.status,
      size: file.size,
      page_count: file.pageCount,
      title: file.title,
      added_by: addedBy,
      uploaded_at: file.createdAt.toISOString(),
    })),
    ai_probings: probingRows.map((p) => ({
      internal_name: p.internalName as AppExportFile["ai_probings"][number]["internal_name"],
      display_name: p.displayName,
      prompt_input_raw: p.promptInputRaw,
      trigger_point: p.triggerPoint,
    })),
    input_prompts: promptRows.map((p) => ({
      internal_name: p.internalName,
      prompt_input_raw: p.promptInputRaw,
      trigger_point: p.triggerPoint,
    })),
    finetunings: ruleRows.map((r) => ({
      trigger_point: r.triggerPoint,
      finetuning_type: r.finetuningType as AppExportFile["finetunings"][number]["finetuning_type"],
      pattern: r.pattern,
      penalty: r.penalty,
      metadata: r.metadata,
    })),
    ...(await exportProfileSections(appId, deps)),
    ...(await exportKnowledgeSections(appId, deps)),
  };
}

const isTopic = (name: string) => (TOPIC_CONTROL_TYPES as readonly string[]).includes(name);

/**
 * The controls, probing, prompts and finetuning sections. Like the rest of an import, rows are
 * upserted by what identifies them, so importing twice changes nothing; a topic list (at most 8
 * rows) in the file replaces that list, since merging two lists could overflow it, in place: the
 * topics it already holds keep their rows.
 */
async function importControls(appId: number, file: AppExportFile, tx: Executor) {
  for (const control of file.controls.filter((c) => !isTopic(c.internal_name))) {
    const values = {
      displayName: control.display_name,
      promptInputRaw: control.prompt_input_raw,
      metadata: control.metadata,
    };
    await tx
      .insert(controls)
      .values({ ...values, appId, internalName: control.internal_name, triggerPoint: control.trigger_point })
      .onConflictDoUpdate({
        target: [controls.appId, controls.triggerPoint, controls.internalName],
        set: { ...values, updatedAt: new Date() },
      });
  }
  const topicLists = new Map<string, AppExportFile["controls"]>();
  for (const row of file.controls.filter((c) => isTopic(c.internal_name))) {
    const key = JSON.stringify([row.trigger_point, row.internal_name]);
    topicLists.set(key, [...(topicLists.get(key) ?? []), row]);
  }
  for (const [key, rows] of topicLists) {
    const [triggerPoint, internalName] = JSON.parse(key) as [string, string];
    await replaceTopicList(appId, triggerPoint, internalName, rows, tx);
  }
  for (const probing of file.ai_probings) {
    const values = { displayName: probing.display_name, promptInputRaw: probing.prompt_input_raw };
    await tx
      .insert(aiProbings)
      .values({ ...values, appId, internalName: probing.internal_name, triggerPoint: probing.trigger_point })
      .onConflictDoUpdate({
        target: [aiProbings.appId, aiProbings.triggerPoint, aiProbings.internalName],
        set: { ...values, updatedAt: new Date() },
      });
  }
  for (const prompt of file.input_prompts) {
    await tx
      .insert(inputPrompts)
      .values({
        appId,
        internalName: prompt.internal_name,
        promptInputRaw: prompt.prompt_input_raw,
        triggerPoint: prompt.trigger_point,
      })
      .onConflictDoUpdate({
        target: [inputPrompts.appId, inputPrompts.triggerPoint, inputPrompts.internalName],
        set: { promptInputRaw: prompt.prompt_input_raw, updatedAt: new Date() },
      });
  }
  for (const rule of file.finetunings) {
    const values = {
      appId,
      triggerPoint: rule.trigger_point,
      finetuningType: rule.finetuning_type,
      pattern: rule.pattern,
      penalty: rule.penalty,
      metadata: rule.metadata,
    };
    if (isPenaltyType(rule.finetuning_type)) {
      await tx
        .insert(finetunings)
        .values(values)
        .onConflictDoUpdate({
          target: [finetunings.appId, finetunings.triggerPoint, finetunings.finetuningType, finetunings.pattern],
          targetWhere: sql`${finetunings.finetuningType} <> 'html_tags_to_remove'`,
          set: { penalty: rule.penalty, metadata: rule.metadata, updatedAt: new Date() },
        });
      continue;
    }
    // A clean-up rule is identified by its metadata (its list of tags).
    const [same] = await tx
      .select({ id: finetunings.id })
      .from(finetunings)
      .where(
        and(
          eq(finetunings.appId, appId),
          eq(finetunings.triggerPoint, rule.trigger_point),
          eq(finetunings.finetuningType, rule.finetuning_type),
          sql`${finetunings.metadata} = ${JSON.stringify(rule.metadata)}::jsonb`,
        ),
      );
    if (!same) await tx.insert(finetunings).values(values);
  }
}

type TopicRow = typeof controlTopics.$inferSelect;
type FileTopic = AppExportFile["controls"][number];

/** A topic's identity in its list: its text, whatever its case (as the list's unique index has it) or the spaces an import trims. */
const topicKeyOf = (text: string) => text.trim().toLowerCase();

/**
 * Makes one topic list the file's, touching only what differs: a topic the client already lists
 * keeps its row (and id, which an open Controls screen saves by), updated only where the file's
 * differs; the file's other topics take the rows of the client's other topics in order (a topic
 * whose text the file changed keeps its place), and what is left over is inserted or deleted.
 */
async function replaceTopicList(
  appId: number,
  triggerPoint: string,
  internalName: string,
  rows: FileTopic[],
  tx: Executor,
) {
  const live = await tx
    .select()
    .from(controlTopics)
    .where(
      and(
        eq(controlTopics.appId, appId),
        eq(controlTopics.triggerPoint, triggerPoint),
        eq(controlTopics.internalName, internalName),
      ),
    )
    .orderBy(asc(controlTopics.id));
  const liveByKey = new Map(live.map((row) => [topicKeyOf(row.promptInputRaw), row]));
  const fileKeys = new Set(rows.map((row) => topicKeyOf(row.prompt_input_raw)));
  const freeRows = live.filter((row) => !fileKeys.has(topicKeyOf(row.promptInputRaw)));
  const newTopics = rows.filter((row) => !liveByKey.has(topicKeyOf(row.prompt_input_raw)));
  for (const row of rows) {
    const same = liveByKey.get(topicKeyOf(row.prompt_input_raw));
    if (same) await updateTopic(same, row, tx);
  }
  for (const [i, row] of newTopics.entries()) {
    const free = freeRows[i];
    if (free) await updateTopic(free, row, tx);
    else await tx.insert(controlTopics).values({ appId, triggerPoint, internalName, ...topicValues(row) });
  }
  const removed = freeRows.slice(newTopics.length).map((row) => row.id);
  if (removed.length) await tx.delete(controlTopics).where(inArray(controlTopics.id, removed));
}

const topicValues = (row: FileTopic) => ({
  displayName: row.display_name,
  promptInputRaw: row.prompt_input_raw.trim(),
  metadata: row.metadata,
});

/** Writes the file's topic into a row of the client's, when they differ. */
async function updateTopic(live: TopicRow, row: FileTopic, tx: Executor) {
  const values = topicValues(row);
  const same =
    live.displayName === values.displayName &&
    live.promptInputRaw === values.promptInputRaw &&
    isDeepStrictEqual(live.metadata, values.metadata);
  if (!same)
    await tx
      .update(controlTopics)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(controlTopics.id, live.id));
}

/**
 * Creates or updates the client by url_code from an export, all or nothing, and records in its
 * History what the import changed, as the screens' own saves would (a new client's id is taken
 * first, so its creation is recorded too).
 */
async function importExport(
  file: AppExportFile,
  fileName: string,
  author: Author,
  deps: Pick<ApiDeps, "db" | "config" | "storage">,
) {
  return deps.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: clientApps.id })
      .from(clientApps)
      .where(eq(clientApps.urlCode, file.app.url_code));
    const created = !existing;
    const appId = existing?.id ?? (await nextClientId(tx));
    const { file: agentsPlaced, matched } = created
      ? { file, matched: file.agents.map(() => null) }
      : await placeAgents(appId, file, tx);
    // Images named in this client's folder, copied there once the import is committed.
    const { file: placed, copies } = await withOwnImages(appId, agentsPlaced, deps.storage);
    const changes = await importChanges(appId, placed, matched, created, secretBoxOf(deps), tx);
    const { result, recorded } = await recordChanges(
      { db: tx },
      author,
      changes,
      (db) => writeImport(appId, created, placed, matched, db),
      importVia(fileName),
    );
    return { appId, created, recorded, changed: recorded.length > 0, toDiscover: result.websitesToDiscover, copies };
  });
}

/**
 * An import grants the file's access list as Access Control would, so it gives only the roles its
 * caller may give there, and changes no member whose role the caller may not change: an Admin
 * (staff, not a System Admin) imports no super_admin role and no change to a super_admin's access.
 * Checked before anything is written, for the preview with the same answer.
 */
async function refuseUngivableAccess(file: AppExportFile, fileName: string, caller: Caller, db: Executor) {
  const [existing] = await db
    .select({ id: clientApps.id })
    .from(clientApps)
    .where(eq(clientApps.urlCode, file.app.url_code));
  // Staff give roles by their own type, whichever client: a new client's id does not matter.
  const roles: readonly string[] = assignableAppRoles(caller, existing?.id ?? 0);
  const members = existing
    ? await db
        .select({ email: users.email, role: appUsers.role, name: appUsers.name })
        .from(appUsers)
        .innerJoin(users, eq(users.id, appUsers.userId))
        .where(eq(appUsers.appId, existing.id))
    : [];
  for (const grant of file.access) {
    const email = grant.email.toLowerCase();
    if (!roles.includes(grant.role))
      throw badRequest(`${fileName} gives ${email} the role ${grant.role}, which you may not give`);
    const member = members.find((row) => row.email === email);
    if (member && !roles.includes(member.role) && (member.role !== grant.role || member.name !== grant.name))
      throw badRequest(`${fileName} changes the access of ${email}, a ${member.role}, which you may not change`);
  }
}

/** What History names as having made an import's changes, ahead of each one's summary. */
const importVia = (fileName: string) => `Import of ${fileName}`;

/**
 * What importing the file would change, each change as History would record it: the import is
 * run and recorded, its History read, and all of it rolled back, so the answer is exactly what the
 * import would do to the client as it is now.
 */
async function previewImport(
  file: AppExportFile,
  fileName: string,
  author: Author,
  deps: Pick<ApiDeps, "db" | "config" | "storage">,
) {
  let changes: PreviewedChange[] = [];
  try {
    await deps.db.transaction(async (tx) => {
      const { recorded } = await importExport(file, fileName, author, { ...deps, db: tx });
      const rows = recorded.length
        ? await tx
            .select({
              kind: configChanges.kind,
              target: configChanges.target,
              summary: configChanges.summary,
              before: configChanges.before,
              after: configChanges.after,
            })
            .from(configChanges)
            .where(inArray(configChanges.id, recorded))
            .orderBy(asc(configChanges.id))
        : [];
      const prefix = `${importVia(fileName)}: `;
      changes = rows.map((row) => ({
        ...row,
        summary: row.summary.startsWith(prefix) ? row.summary.slice(prefix.length) : row.summary,
      }));
      tx.rollback();
    });
  } catch (error) {
    if (!(error instanceof TransactionRollbackError)) throw error;
  }
  return changes;
}

/** The import's writes, on the transaction that records them; `matched` is the client's agent each of the file's is. */
async function writeImport(
  appId: number,
  created: boolean,
  file: AppExportFile,
  matched: (number | null)[],
  tx: Executor,
): Promise<ImportWritten> {
  const columns = appColumns(file.app);
  if (created) await tx.insert(clientApps).values({ id: appId, ...columns });
  else
    await tx
      .update(clientApps)
      .set({ ...columns, updatedAt: new Date() })
      .where(eq(clientApps.id, appId));
  const agentIds: number[] = [];
  for (const [i, agent] of file.agents.entries()) {
    const values = agentColumns(agent);
    const id = matched[i];
    const [saved] =
      id === null
        ? await tx
            .insert(agents)
            .values({ ...values, appId })
            .returning({ id: agents.id })
        : await tx
            .update(agents)
            .set({ ...values, updatedAt: new Date() })
            .where(and(eq(agents.appId, appId), eq(agents.id, id)))
            .returning({ id: agents.id });
    agentIds.push(saved.id);
  }
  await importControls(appId, file, tx);
  for (const grant of file.access) {
    const email = grant.email.toLowerCase();
    await tx.insert(users).values({ email, name: grant.name }).onConflictDoNothing();
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    await tx
      .insert(appUsers)
      .values({ appId, userId: user.id, role: grant.role, name: grant.name })
      .onConflictDoUpdate({ target: [appUsers.appId, appUsers.userId], set: { role: grant.role, name: grant.name } });
  }
  await importProfileSections(appId, file, tx);
  const knowledge = await importKnowledgeSections(appId, file, tx);
  // A file's tags say where it answers. The file's tags are added where the client's file of that
  // name lacks them, and none is taken away: a file put into Production since the export was taken
  // stays there (an older export cannot know of it). Taking a file out is the Files screen's.
  for (const uploaded of file.files) {
    const live = await tx
      .select({ id: knowledgeFiles.id, tags: knowledgeFiles.tags })
      .from(knowledgeFiles)
      .where(and(eq(knowledgeFiles.appId, appId), eq(knowledgeFiles.fileName, uploaded.file_name)));
    for (const row of live) {
      const added = uploaded.tags.filter((tag) => !row.tags.includes(tag));
      if (added.length)
        await tx
          .update(knowledgeFiles)
          .set({ tags: [...row.tags, ...added], updatedAt: new Date() })
          .where(eq(knowledgeFiles.id, row.id));
    }
  }
  return { agentIds, ...knowledge };
}

export function exportRoutes(route: RouteBuilder, storageWrites: StorageWrites) {
  route({
    method: "post",
    path: "/v1/apps/:appId/exports/export",
    tag: "Clients",
    summary: "Writes a versioned JSON export of the client and everything configured under it into storage.",
    params: z.object({ appId: IdParam }),
    response: ExportResult,
    handler: async ({ params, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      await storageWrites.take(caller);
      const content = await buildExport(params.appId, deps);
      const fileName = exportFileName(content.app.url_code);
      const key = `${EXPORTS_FOLDER}/${fileName}`;
      const { size } = await deps.storage.put(key, JSON.stringify(content, null, 2));
      await deps.db
        .insert(storedFiles)
        .values({ appId: params.appId, fileType: "app_export", fileName, storageKey: key, size })
        .onConflictDoUpdate({
          target: storedFiles.storageKey,
          set: { appId: params.appId, size, createdAt: new Date() },
        });
      return { message: "Export completed successfully", file_name: fileName };
    },
  });

  route({
    method: "get",
    path: "/v1/export_files",
    tag: "Clients",
    summary: "Export files that can be imported (staff only), newest first.",
    response: ExportFiles,
    handler: async ({ caller, deps }) => {
      requireStaff(caller);
      const objects = await deps.storage.list(EXPORTS_FOLDER);
      return { files: objects.map((o) => o.key.slice(EXPORTS_FOLDER.length + 1)).filter(isExportFileName) };
    },
  });

  route({
    method: "post",
    path: "/v1/import_from_file",
    tag: "Clients",
    summary: "Creates or updates a client (by url_code) from an export file; idempotent, all or nothing.",
    body: ImportBody,
    response: ImportResult,
    handler: async ({ body, caller, deps }) => {
      requireStaff(caller);
      const file = await readExportFile(body.file_name, deps);
      await refuseUngivableAccess(file, body.file_name, caller, deps.db);
      const { appId, created, changed, toDiscover, copies } = await importExport(file, body.file_name, caller, deps);
      // Queued once the import is committed, as a website's save queues its discovery.
      for (const websiteId of toDiscover) await deps.jobs.send("website-discover", { websiteId });
      await copyImages(copies, deps.storage);
      const app = await loadClientApp(appId, deps);
      // An import the client already matched changed nothing, and says so.
      const message = created
        ? `Imported ${app.client_name}`
        : changed
          ? `Updated ${app.client_name}`
          : `${app.client_name} already holds what the file holds: nothing changed`;
      return { message, app, created };
    },
  });

  route({
    method: "post",
    path: "/v1/import_from_file/preview",
    tag: "Clients",
    summary:
      "What importing an export file would change in the client of its url_code, if that client exists, each change as History would record it, and a digest of it all that changes when what the import would replace does; writes nothing. Refuses a file the import would refuse, with the same answer.",
    body: ImportBody,
    response: ImportPreview,
    handler: async ({ body, caller, deps }) => {
      requireStaff(caller);
      const file = await readExportFile(body.file_name, deps);
      await refuseUngivableAccess(file, body.file_name, caller, deps.db);
      const [existing] = await deps.db
        .select({ id: clientApps.id, client_name: clientApps.clientName })
        .from(clientApps)
        .where(eq(clientApps.urlCode, file.app.url_code));
      const changes = existing ? await previewImport(file, body.file_name, caller, deps) : [];
      const summaries = changes.map((change) => change.summary);
      return {
        file_name: body.file_name,
        existing: existing ?? null,
        changes: summaries.slice(0, IMPORT_PREVIEW_CHANGES),
        change_count: summaries.length,
        digest: importDigest(existing?.id ?? null, file, changes),
      };
    },
  });
}

/** An export file read and checked as an import reads it: a 4xx that says what is wrong with it, or the file. */
async function readExportFile(fileName: string, deps: Pick<ApiDeps, "storage">) {
  if (!isExportFileName(fileName)) throw badRequest("Invalid request body", { file_name: ["Not an export file name"] });
  const bytes = await deps.storage.get(`${EXPORTS_FOLDER}/${fileName}`);
  if (!bytes) throw notFound(`No export file named ${fileName}`);
  // A file saved again by an editor may start with a byte order mark, or be UTF-16 ("Unicode" in Notepad).
  const text = decodeTextFile(bytes, null);
  if (!text.ok) throw badRequest(`${fileName} is not UTF-8 or UTF-16 text`);
  let json: unknown;
  try {
    json = JSON.parse(text.text);
  } catch {
    throw badRequest(`${fileName} is not valid JSON`);
  }
  // A file edited by hand is outside input too: the same text is refused in it as in any request.
  const unsafe = unsafeStringsOf(json);
  if (Object.keys(unsafe).length) throw badRequest(`${fileName} holds text the console does not store`, unsafe);
  const parsed = AppExportFile.safeParse(json);
  if (!parsed.success)
    throw badRequest(`${fileName} is not a client export this console can import`, fieldErrorsOf(parsed.error));
  const repeated = repeatedWebsites(parsed.data.websites);
  if (Object.keys(repeated).length) throw badRequest(`${fileName} names one website in two rows`, repeated);
  return parsed.data;
}
