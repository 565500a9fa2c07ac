import { and, eq, inArray } from "drizzle-orm";
import type { ModelType } from "@contract";
import { agentChange } from "../agents/agent-change";
import { clientCreatedChange, clientProfileChange } from "../apps/client-change";
import type { Executor } from "../controls/scope";
import { knowledgeFiles } from "../db/schema";
import { filesChange } from "../files/file-change";
import { websitesChange } from "../knowledge/website-change";
import { testQuestionsImportChange } from "../testing/questions-change";
import {
  appearanceChange,
  controlsChange,
  dataModelChange,
  finetuningChange,
  inputPromptsChange,
  probingChange,
} from "../history/kinds";
import type { Change } from "../history/record";
import { integrationsChange } from "../integrations/history-state";
import type { SecretBox } from "../integrations/secrets";
import { accessChange } from "../users/access-change";
import type { AppExportFile } from "./format";
import { freshTestQuestions, websitesOfFile } from "./knowledge-sections";

/** What an import's write answers: the ids of the agents it created or updated, which History records. */
export interface ImportWritten {
  agentIds: number[];
  /** The websites it added, and those (added or changed in what they take in) to discover. */
  websitesCreated: number[];
  websitesToDiscover: number[];
}

const distinct = <T>(values: T[]) => [...new Set(values)];

/**
 * Everything an import may change, each kind as its own save records it, so History shows an
 * import as the changes it made (an agent added, a rule changed, a file's tags) and restores them
 * as it restores any other. Read before the import writes: the client's files the file names are
 * matched here as the import matches them, and `matchedAgents` are the agents placeAgents matched.
 */
export async function importChanges(
  appId: number,
  file: AppExportFile,
  matchedAgents: (number | null)[],
  created: boolean,
  box: SecretBox,
  db: Executor,
): Promise<Change<ImportWritten>[]> {
  const fileNames = file.files.map((uploaded) => uploaded.file_name);
  const agentIds = matchedAgents.filter((id): id is number => id !== null);
  // The client's websites the import changes, matched as the import matches them.
  const websiteIds = distinct(
    (await websitesOfFile(appId, file.websites, db)).flatMap((site) => (site ? [site.id] : [])),
  ).map((id) => ({ id }));
  // Only where the import adds questions: one that brings none adds no History entry.
  const questionPlaces = distinct(
    (await freshTestQuestions(appId, file.test_questions, db)).map((question) => question.trigger_point),
  );
  const questionChanges = [];
  for (const triggerPoint of questionPlaces)
    questionChanges.push(await testQuestionsImportChange(appId, triggerPoint, db));
  const fileIds = fileNames.length
    ? await db
        .select({ id: knowledgeFiles.id })
        .from(knowledgeFiles)
        .where(and(eq(knowledgeFiles.appId, appId), inArray(knowledgeFiles.fileName, fileNames)))
    : [];
  const changes: Change<ImportWritten>[] = [
    created ? clientCreatedChange(appId) : clientProfileChange(appId),
    {
      ...agentChange(appId, agentIds),
      created: (written: ImportWritten) => written.agentIds.map(String),
    },
    controlsChange(appId, distinct(file.controls.map((row) => row.trigger_point))),
    probingChange(appId, distinct(file.ai_probings.map((row) => row.trigger_point))),
    inputPromptsChange(appId, distinct(file.input_prompts.map((row) => row.trigger_point))),
    ...(file.finetunings.length ? [finetuningChange(appId)] : []),
    ...(file.access.length ? [accessChange(appId)] : []),
    ...distinct(file.appearances.map((look) => JSON.stringify([look.environment, look.trigger_point]))).map((key) => {
      const [environment, triggerPoint] = JSON.parse(key) as ["stage" | "prod", string];
      return appearanceChange(appId, environment, triggerPoint);
    }),
    dataModelChange(appId, distinct(file.profile_fields.map((field) => field.model_type as ModelType))),
    ...(file.integrations.length ? [integrationsChange(appId, box)] : []),
    filesChange(
      appId,
      fileIds.map((row) => row.id),
    ),
    {
      ...websitesChange(
        appId,
        websiteIds.map((row) => row.id),
      ),
      created: (written: ImportWritten) => written.websitesCreated.map(String),
    },
    ...(questionChanges as Change<ImportWritten>[]),
  ];
  // A new client has nothing to read before the import writes it (its reads would find no client):
  // every target is one the import creates.
  return created ? changes.map(createdByTheSave) : changes;
}

const createdByTheSave = <T>(change: Change<T>): Change<T> => ({
  ...change,
  targets: [],
  created: (result) => [...change.targets, ...(change.created?.(result) ?? [])],
});
