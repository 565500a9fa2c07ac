import { existsSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnswerTrace, ConversationDetail } from "@contract";
import { rowsOf } from "../db/rows";
import { chatCall } from "../../tests/support/chat-call";
import { makePdf } from "../../tests/support/pdf";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";
import { fileIdOfLink } from "../files/file-links";
import { sharedFixture } from "../../tests/support/shared-fixtures";

/*
 * An answer drawn from an uploaded file keeps the file's id with its sources and trace, and the
 * transcript signs a fresh link to the file when it is read, or says the file was deleted since
 * (docs/decisions/028, "Later: a file's link signed when the transcript is read").
 */

/** The shared real PDFs. */
const REAL_PDFS = sharedFixture("pdfs");

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let server: Server;
/** Where the test server answers over real HTTP, as a browser reaches it. */
let base: string;
let admin: string;
let clientAdmin: string;
let appId: number;
let harbor: number;
let stageKey: string;

beforeAll(async () => {
  host = await startTestHost({ fileMaxBytes: 10 * 1024 * 1024, fileMaxPages: 100 });
  call = apiCaller(host);
  ({ admin, clientAdmin, northfield: appId, harbor } = await demoCallers(host));
  server = serve({ fetch: host.api.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
  base = await new Promise<string>((resolve) =>
    server.once("listening", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
  // Links to stored files are this server's addresses: the chat's and the transcript's.
  host.deps.config.publicUrl = base;
  stageKey = (await call("GET", `/v1/bot_installs?app_id=${appId}&env=stage`, { token: clientAdmin })).body.key;
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await host?.close();
});

/** Uploads a PDF the way the console does (presign, PUT, complete), tagged for the sandbox, and waits until it is indexed. */
async function uploadPdf(name: string, bytes: Buffer, app = appId) {
  const token = app === appId ? clientAdmin : admin;
  const presigned = await call("POST", `/v1/files/presigned_urls?app_id=${app}&user_id=1`, {
    token,
    body: { file_names: [name] },
  });
  expect(presigned.status, JSON.stringify(presigned.body)).toBe(200);
  const target = presigned.body.presigned_urls[0] as { url: string; url_id: number; s3_path: string };
  const put = await fetch(new URL(target.url, base), {
    method: "PUT",
    headers: { "content-type": "application/pdf" },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  await call("POST", "/v1/files/complete_upload", { token, body: { url_id: target.url_id, s3_path: target.s3_path } });
  await until(
    `${name} to be indexed`,
    async () => {
      const files = (await call("GET", `/v1/files?app_id=${app}&search=${encodeURIComponent(name)}`, { token })).body
        .files as { id: number; status: string }[];
      return files.find((file) => file.id === target.url_id)?.status === "indexed";
    },
    60_000,
  );
  const tagged = await call("PATCH", `/v1/files/${target.url_id}`, { token, body: { app_id: app, tags: ["sandbox"] } });
  expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
  return target.url_id;
}

const transcript = async (conversation: string) => {
  const response = await call("GET", `/v1/apps/${appId}/conversations/${conversation}`, { token: clientAdmin });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as ConversationDetail;
};
const answerIn = async (conversation: string, message: number) =>
  (await transcript(conversation)).messages.find((m) => m.id === message)!;

/** The stored answer as its row holds it. */
async function storedAnswer(message: number) {
  const [row] = rowsOf<{ sources: { title: string; url: string; file_id?: number }[]; trace: AnswerTrace }>(
    await host.deps.db.execute(sql`select sources, trace from messages where id = ${message}`),
  );
  return row;
}
const storeAnswer = (message: number, sources: unknown, trace: unknown) =>
  host.deps.db.execute(
    sql`update messages set sources = ${JSON.stringify(sources)}::jsonb, trace = ${JSON.stringify(trace)}::jsonb where id = ${message}`,
  );

/** A link to a stored file as the storage signs one, expired a minute ago: what a stored answer's link is a day on. */
async function expiredLinkTo(storageKey: string, name: string) {
  const link = await host.deps.storage.signedDownloadUrl(storageKey, name, { inline: true, expiresInSeconds: -60 });
  return `${base}${link.url}`;
}
const storageKeyOf = async (fileId: number) =>
  rowsOf<{ storage_key: string }>(
    await host.deps.db.execute(sql`select storage_key from files where id = ${fileId}`),
  )[0].storage_key;

describe.skipIf(!existsSync(REAL_PDFS))("an answer from a real indexed PDF, read later (shared fixtures)", () => {
  it("gets a fresh link to the file when the stored one is stale, and no link once the file is deleted", async () => {
    const bytes = readFileSync(path.join(REAL_PDFS, "shared-mime-info-spec.pdf"));
    const fileId = await uploadPdf("shared-mime-info-spec.pdf", bytes);
    const asked = await chatCall(host.api, {
      key: stageKey,
      trigger_point: "admissions",
      message: "Where are the glob patterns of MIME types stored?",
    });
    expect(asked.outcome).toBe("answered");
    // The visitor is given the link alone: the file's id stays with the stored answer.
    expect(asked.sources).toEqual([{ title: expect.any(String), url: expect.stringContaining("/storage/download?") }]);
    const stored = await storedAnswer(asked.answer);
    expect(stored.sources).toEqual([{ ...asked.sources[0], file_id: fileId }]);
    expect(stored.trace.passages.filter((p) => p.file_name === "shared-mime-info-spec.pdf").length).toBeGreaterThan(0);
    for (const passage of stored.trace.passages.filter((p) => p.file_name)) expect(passage.file_id).toBe(fileId);

    // The stored link expires: read later, the transcript signs the file anew, and that link opens it.
    const stale = await expiredLinkTo(await storageKeyOf(fileId), "shared-mime-info-spec.pdf");
    await storeAnswer(asked.answer, [{ ...stored.sources[0], url: stale }], stored.trace);
    expect((await fetch(stale)).status).toBe(403);
    const read = await answerIn(asked.conversation, asked.answer);
    expect(read.sources).toEqual([{ title: stored.sources[0].title, url: expect.any(String), file_id: fileId }]);
    expect(read.sources[0].url).not.toBe(stale);
    const opened = await fetch(read.sources[0].url);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await opened.arrayBuffer()).equals(bytes)).toBe(true);
    // It works for an hour, as the Files list's links do.
    const expires = Number(new URL(read.sources[0].url).searchParams.get("expires")) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    const filePassages = read.trace!.passages.filter((p) => p.file_name);
    expect(filePassages.every((p) => p.file_id === fileId && !p.file_deleted)).toBe(true);

    // Deleted since: named, with no link, and said to be deleted.
    const deleted = await call("DELETE", `/v1/files/${fileId}?app_id=${appId}`, { token: clientAdmin });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const later = await answerIn(asked.conversation, asked.answer);
    expect(later.sources).toEqual([{ title: stored.sources[0].title, url: "", file_deleted: true }]);
    for (const passage of later.trace!.passages.filter((p) => p.file_name)) {
      expect(passage.file_deleted).toBe(true);
      expect(passage).not.toHaveProperty("file_id");
    }
  });
});

describe("a file of another client", () => {
  it("is never signed, whether the stored answer names its id or its link", async () => {
    const theirs = await uploadPdf(
      "Harbor returns.pdf",
      makePdf([["Returns are accepted within thirty days with a receipt."]], "Harbor returns"),
      harbor,
    );
    const theirKey = await storageKeyOf(theirs);
    const mine = await uploadPdf(
      "Library hours.pdf",
      makePdf([["The library opens at eight in the morning on weekdays."]], "Library hours"),
    );
    const asked = await chatCall(host.api, {
      key: stageKey,
      trigger_point: "admissions",
      message: "When does the library open on weekdays?",
    });
    expect(asked.outcome).toBe("answered");
    const stored = await storedAnswer(asked.answer);
    expect(stored.sources[0].file_id).toBe(mine);
    // The stored answer made to name the other client's file, by its id and by a link to it.
    const theirLink = `${base}${(await host.deps.storage.signedDownloadUrl(theirKey, "Harbor returns.pdf", { inline: true, expiresInSeconds: 3600 })).url}`;
    await storeAnswer(
      asked.answer,
      [
        { title: "Harbor returns", url: await expiredLinkTo(theirKey, "Harbor returns.pdf"), file_id: theirs },
        { title: "Harbor returns", url: theirLink },
      ],
      {
        ...stored.trace,
        passages: stored.trace.passages.map((p) =>
          p.file_name ? { ...p, file_name: "Harbor returns.pdf", file_id: theirs } : p,
        ),
      },
    );
    const read = await answerIn(asked.conversation, asked.answer);
    expect(read.sources[0]).toEqual({ title: "Harbor returns", url: "", file_deleted: true });
    // A link that names another client's file is not read as one of this client's: it stays as stored, not signed anew.
    expect(read.sources[1]).toEqual({ title: "Harbor returns", url: theirLink });
    expect(JSON.stringify(read)).not.toContain(`"file_id":${theirs}`);
    for (const passage of read.trace!.passages.filter((p) => p.file_name)) {
      expect(passage).toMatchObject({ file_name: "Harbor returns.pdf", file_deleted: true });
      expect(passage).not.toHaveProperty("file_id");
    }
  });
});

describe("answers stored before their sources kept the file's id", () => {
  it("read the file from the stored link's storage key, and a trace's file from its name", async () => {
    const fileId = await uploadPdf(
      "Shuttle times.pdf",
      makePdf([["The campus shuttle runs every twenty minutes from the north gate."]], "Shuttle times"),
    );
    const asked = await chatCall(host.api, {
      key: stageKey,
      trigger_point: "admissions",
      message: "How often does the campus shuttle run?",
    });
    expect(asked.outcome).toBe("answered");
    const stored = await storedAnswer(asked.answer);
    // As an answer was stored before: the link alone (expired since), no id in the trace.
    const stale = await expiredLinkTo(await storageKeyOf(fileId), "Shuttle times.pdf");
    await storeAnswer(asked.answer, [{ title: stored.sources[0].title, url: stale }], {
      ...stored.trace,
      passages: stored.trace.passages.map(({ file_id: _id, ...passage }) => passage),
    });
    const read = await answerIn(asked.conversation, asked.answer);
    expect(read.sources).toEqual([{ title: stored.sources[0].title, url: expect.any(String), file_id: fileId }]);
    expect((await fetch(read.sources[0].url)).status).toBe(200);
    const filePassages = read.trace!.passages.filter((p) => p.file_name === "Shuttle times.pdf");
    expect(filePassages.length).toBeGreaterThan(0);
    expect(filePassages.every((p) => p.file_id === fileId)).toBe(true);

    // Deleted, then a file of the same name uploaded again: that one is not the file the answer drew on.
    await call("DELETE", `/v1/files/${fileId}?app_id=${appId}`, { token: clientAdmin });
    const again = await uploadPdf(
      "Shuttle times.pdf",
      makePdf([["The campus shuttle runs every half hour from the south gate."]], "Shuttle times"),
    );
    const later = await answerIn(asked.conversation, asked.answer);
    expect(later.sources).toEqual([{ title: stored.sources[0].title, url: "", file_deleted: true }]);
    for (const passage of later.trace!.passages.filter((p) => p.file_name)) {
      expect(passage.file_deleted).toBe(true);
      expect(passage.file_id).not.toBe(again);
    }
  });
});

describe("the file a stored link names", () => {
  const local = (key: string) =>
    `http://127.0.0.1:3000/storage/download?${new URLSearchParams({ key, name: "a.pdf", expires: "1", disposition: "inline", sig: "x" })}`;
  const s3 = (pathname: string) =>
    `https://files.example.com${pathname}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc`;

  it("is read from a local link's key and an S3 link's path, of this client only", () => {
    expect(fileIdOfLink(local("apps/4/files/17/Guide.pdf"), 4)).toBe(17);
    expect(fileIdOfLink(s3("/console/apps/4/files/17/Guide.pdf"), 4)).toBe(17);
    expect(fileIdOfLink(s3("/bucket/apps/4/files/17/Guide.pdf"), 4)).toBe(17);
    expect(fileIdOfLink(local("apps/5/files/17/Guide.pdf"), 4)).toBe(null);
    expect(fileIdOfLink(s3("/apps/5/files/17/Guide.pdf"), 4)).toBe(null);
  });

  it("is none for a web page's address, an export's key or what is not a link", () => {
    expect(fileIdOfLink("https://www.northfield.edu/apps/4/files/17/Guide.pdf", 4)).toBe(null);
    expect(fileIdOfLink(local("exports/4/clients.json"), 4)).toBe(null);
    expect(fileIdOfLink(local("uploads/4/0123456789abcdef01234567/Guide.pdf"), 4)).toBe(null);
    expect(fileIdOfLink(local("apps/4/files/99999999999999/Guide.pdf"), 4)).toBe(null);
    expect(fileIdOfLink("not a link", 4)).toBe(null);
    expect(fileIdOfLink(s3("/apps/4/files/%E0%A4%A/Guide.pdf"), 4)).toBe(null);
  });
});
