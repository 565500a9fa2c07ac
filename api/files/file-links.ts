import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { AnswerTrace, ConversationSource, TracePassage } from "@contract";
import { knowledgeFiles } from "../db/schema";
import type { ApiDeps } from "../deps";

/*
 * An answer drawn from an uploaded file gave the visitor a link to it signed for a day, and that
 * link is what its message keeps: read later in the transcript, it no longer opened, and it named a
 * file that may have been deleted since. The transcript now signs a link anew for each file that is
 * still one of the conversation's client's, and says of the others that they were deleted
 * (docs/decisions/028, "Later: a file's link signed when the transcript is read"). A test run's
 * results keep their answers' sources the same way and are read through the same code
 * (docs/decisions/023, "Later: a result's file link signed when the run is read").
 */

type FileLinkDeps = Pick<ApiDeps, "db" | "storage" | "config">;

/** How long a link to a file signed when an answer is read works: as long as the Files list's. */
export const FILE_LINK_SECONDS = 60 * 60;

/** The storage key of an uploaded file (api/files/store.ts, finalKeyOf): `apps/{client}/files/{id}/{name}`. */
const FILE_KEY = /(?:^|\/)apps\/(\d{1,9})\/files\/(\d{1,9})\/[^/]+$/;

/**
 * The uploaded file a signed link names, read from its storage key, for answers stored before
 * their sources kept the file's id: the `key` of a link of the local storage, or the path of an S3
 * link. Only a link that carries a signature (a web page's address is never read as a file) and
 * only a file of `appId`: null otherwise.
 */
export function fileIdOfLink(link: string, appId: number): number | null {
  let url: URL;
  let key: string;
  try {
    url = new URL(link);
    const local = url.pathname.endsWith("/storage/download") && url.searchParams.has("sig");
    if (!local && !url.searchParams.has("X-Amz-Signature")) return null;
    key = local ? (url.searchParams.get("key") ?? "") : decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  const match = FILE_KEY.exec(key);
  return match && Number(match[1]) === appId ? Number(match[2]) : null;
}

/** A source as an answer keeps it: an uploaded file's with the file's id (api/chat/chat-answer.ts). */
interface StoredSource {
  title: string;
  url: string;
  file_id?: number;
}

/**
 * A stored answer as it is read: its sources and, for a conversation's answer, its trace and when
 * it was given (a test run's result keeps no trace).
 */
type StoredAnswer = { sources: StoredSource[] } & ({ trace?: undefined } | { trace: AnswerTrace | null; at: Date });

/** A passage of an uploaded file (a web page's has its address). */
const isFilePassage = (passage: TracePassage) => passage.url === null && passage.file_name !== null;

/** A name composed: a trace recorded before names were (migration 0044, docs/decisions/045) may hold it decomposed. */
const nameKey = (name: string) => name.normalize("NFC");

/**
 * The answers' sources and traces (a conversation's; a test run's results keep none) with their
 * uploaded files as they are now, for one client: each file that is still the client's with its id
 * (and, for a source, a link signed for FILE_LINK_SECONDS), each that is not marked `file_deleted`
 * with no link. A file of another client is one this client does not have: its id is never signed,
 * nor answered. Sources stored before they kept the file's id are read from their link's storage
 * key; passages of traces recorded before, from the file of their name the client had when the
 * answer was given (one file per name). Web pages stay as stored. Reads the files once for all the
 * answers: a whole conversation, or a whole run.
 */
export async function withFileLinks<A extends StoredAnswer>(appId: number, answers: A[], deps: FileLinkDeps) {
  const sourceIds = answers.map((answer) =>
    answer.sources.map((source) => source.file_id ?? fileIdOfLink(source.url, appId)),
  );
  const passages = answers.flatMap((answer) => answer.trace?.passages.filter(isFilePassage) ?? []);
  const ids = [
    ...new Set([
      ...sourceIds.flat().filter((id): id is number => id !== null),
      ...passages.flatMap((passage) => (passage.file_id === undefined ? [] : [passage.file_id])),
    ]),
  ];
  const names = [
    ...new Set(passages.filter((passage) => passage.file_id === undefined).map((p) => nameKey(p.file_name!))),
  ];
  const files =
    ids.length || names.length
      ? await deps.db
          .select({
            id: knowledgeFiles.id,
            fileName: knowledgeFiles.fileName,
            storageKey: knowledgeFiles.storageKey,
            createdAt: knowledgeFiles.createdAt,
          })
          .from(knowledgeFiles)
          .where(
            and(
              eq(knowledgeFiles.appId, appId),
              or(
                ids.length ? inArray(knowledgeFiles.id, ids) : undefined,
                names.length ? inArray(sql`normalize(${knowledgeFiles.fileName}, NFC)`, names) : undefined,
              ),
            ),
          )
      : [];
  const byId = new Map(files.map((file) => [file.id, file]));
  const links = new Map<number, Promise<string>>();
  /** One link per file, however many answers cite it. */
  const linkTo = (file: (typeof files)[number]) => {
    if (!file.storageKey) return Promise.resolve("");
    const key = file.storageKey;
    if (!links.has(file.id))
      links.set(
        file.id,
        deps.storage
          .signedDownloadUrl(key, file.fileName, { inline: true, expiresInSeconds: FILE_LINK_SECONDS })
          .then((link) => (link.url.startsWith("/") ? `${deps.config.publicUrl}${link.url}` : link.url)),
      );
    return links.get(file.id)!;
  };
  /** The file of this name the client had when the answer was given; undefined when two were of it (before names were one file's). */
  const fileNamed = (name: string, at: Date) => {
    const then = files.filter((file) => nameKey(file.fileName) === nameKey(name) && file.createdAt <= at);
    return then.length > 1 ? undefined : (then[0] ?? null);
  };
  const passageNow = (passage: TracePassage, at: Date): TracePassage => {
    if (!isFilePassage(passage)) return passage;
    const { file_id: stored, ...rest } = passage;
    const file = stored === undefined ? fileNamed(passage.file_name!, at) : (byId.get(stored) ?? null);
    if (file === undefined) return rest;
    return file ? { ...rest, file_id: file.id } : { ...rest, file_deleted: true };
  };
  const traceNow = (answer: StoredAnswer) =>
    answer.trace && {
      ...answer.trace,
      passages: answer.trace.passages.map((passage) => passageNow(passage, answer.at)),
    };
  return Promise.all(
    answers.map(async (answer, index) => ({
      ...answer,
      sources: await Promise.all(
        answer.sources.map(async ({ title, url }, position): Promise<ConversationSource> => {
          const id = sourceIds[index][position];
          if (id === null) return { title, url };
          const file = byId.get(id);
          return file ? { title, url: await linkTo(file), file_id: id } : { title, url: "", file_deleted: true };
        }),
      ),
      trace: traceNow(answer),
    })),
  );
}
