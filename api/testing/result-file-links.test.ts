import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestRun } from "@contract";
import { rowsOf } from "../db/rows";
import { makePdf } from "../../tests/support/pdf";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { uploadPdf } from "../../tests/support/uploads";
import { until } from "../../tests/support/wait";

/*
 * A test run's result drawn from an uploaded file keeps the file's id with its sources, and the run
 * signs a fresh link to the file when it is read, or says the file was deleted since, as a
 * conversation's transcript does (docs/decisions/023, "Later: a result's file link signed when the
 * run is read").
 */

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let clientAdmin: string;
let appId: number;
let harbor: number;
/** Northfield's file the run's answer draws on, and a file of the other client. */
let mine: number;
let theirs: number;
let runId: number;

type StoredSource = { title: string; url: string; file_id?: number };

/** Uploads a PDF the way the console does, waits until it is indexed and tags it for the sandbox (stage). */
async function indexedPdf(token: string, app: number, name: string, text: string) {
  const { id, completed } = await uploadPdf(host, token, app, name, makePdf([[text]], name.replace(/\.pdf$/, "")));
  expect(completed.status, JSON.stringify(completed.body)).toBe(200);
  await until(
    `${name} to be indexed`,
    async () => {
      const files = (await call("GET", `/v1/files?app_id=${app}&search=${encodeURIComponent(name)}`, { token })).body
        .files as { id: number; status: string }[];
      return files.find((file) => file.id === id)?.status === "indexed";
    },
    60_000,
  );
  const tagged = await call("PATCH", `/v1/files/${id}`, { token, body: { app_id: app, tags: ["sandbox"] } });
  expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
  return id;
}

const storageKeyOf = async (fileId: number) =>
  rowsOf<{ storage_key: string }>(
    await host.deps.db.execute(sql`select storage_key from files where id = ${fileId}`),
  )[0].storage_key;

/** A link to a stored file as the storage signs one, `seconds` long (negative: expired that long ago). */
async function linkTo(fileId: number, name: string, seconds: number) {
  const link = await host.deps.storage.signedDownloadUrl(await storageKeyOf(fileId), name, {
    inline: true,
    expiresInSeconds: seconds,
  });
  return `${host.deps.config.publicUrl}${link.url}`;
}

/** What a link answers when opened, through the API host that serves stored files. */
const opened = (link: string) => {
  const url = new URL(link);
  return host.api.request(url.pathname + url.search);
};

const storedSources = async () =>
  rowsOf<{ sources: StoredSource[] }>(
    await host.deps.db.execute(sql`select sources from test_results where run_id = ${runId}`),
  )[0].sources;
const storeSources = (sources: StoredSource[]) =>
  host.deps.db.execute(
    sql`update test_results set sources = ${JSON.stringify(sources)}::jsonb where run_id = ${runId}`,
  );

const readRun = async () => {
  const response = await call("GET", `/v1/apps/${appId}/test_runs/${runId}`, { token: clientAdmin });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as TestRun;
};

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ admin, clientAdmin, northfield: appId, harbor } = await demoCallers(host));
  theirs = await indexedPdf(
    admin,
    harbor,
    "Harbor returns.pdf",
    "Returns are accepted within thirty days with a receipt.",
  );
  mine = await indexedPdf(
    clientAdmin,
    appId,
    "Library hours.pdf",
    "The library opens at eight in the morning on weekdays.",
  );
  const added = await call("POST", `/v1/apps/${appId}/test_questions`, {
    token: clientAdmin,
    body: {
      trigger_point: "admissions",
      question: "When does the library open on weekdays?",
      expect_source: "Library hours.pdf",
    },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  const queued = await call("POST", `/v1/apps/${appId}/test_runs`, {
    token: clientAdmin,
    body: { trigger_point: "admissions", environment: "stage" },
  });
  expect(queued.status, JSON.stringify(queued.body)).toBe(202);
  runId = queued.body.id;
  const run = await until("the run to finish", async () => {
    const read = await readRun();
    return read.status === "done" && read;
  });
  expect(run.results).toHaveLength(1);
  expect(run.results[0], JSON.stringify(run.results[0])).toMatchObject({ passed: true, outcome: "answered" });
}, 120_000);
afterAll(async () => {
  await host?.close();
});

describe("a run's result drawn from an uploaded file", () => {
  it("keeps the file's id, and is read with a link to the file that opens it", async () => {
    const stored = await storedSources();
    expect(stored).toEqual([
      { title: "Library hours", url: expect.stringContaining("/storage/download?"), file_id: mine },
    ]);
    const read = await readRun();
    expect(read.results[0].sources).toEqual([{ title: "Library hours", url: expect.any(String), file_id: mine }]);
    expect((await opened(read.results[0].sources[0].url)).status).toBe(200);
  });

  it("read after its link expired, gets a fresh link to the file that works for an hour", async () => {
    const stale = await linkTo(mine, "Library hours.pdf", -60);
    await storeSources([{ title: "Library hours", url: stale, file_id: mine }]);
    expect((await opened(stale)).status).toBe(403);
    const [source] = (await readRun()).results[0].sources;
    expect(source).toEqual({ title: "Library hours", url: expect.any(String), file_id: mine });
    expect(source.url).not.toBe(stale);
    const file = await opened(source.url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    const expires = Number(new URL(source.url).searchParams.get("expires")) * 1000;
    expect(expires - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(60 * 60_000);
  });

  it("stored before results kept the file's id, reads the file from its link's storage key", async () => {
    await storeSources([{ title: "Library hours", url: await linkTo(mine, "Library hours.pdf", -60) }]);
    const [source] = (await readRun()).results[0].sources;
    expect(source).toEqual({ title: "Library hours", url: expect.any(String), file_id: mine });
    expect((await opened(source.url)).status).toBe(200);
  });

  it("never signs or names another client's file, whether the result names its id or its link; a web page stays as stored", async () => {
    const theirLink = await linkTo(theirs, "Harbor returns.pdf", 3600);
    const page = { title: "Admissions", url: "https://www.northfield.edu/admissions" };
    await storeSources([
      { title: "Harbor returns", url: await linkTo(theirs, "Harbor returns.pdf", -60), file_id: theirs },
      { title: "Harbor returns", url: theirLink },
      page,
    ]);
    const read = await readRun();
    expect(read.results[0].sources).toEqual([
      { title: "Harbor returns", url: "", file_deleted: true },
      // A link naming another client's file is not read as one of this client's: kept, not signed anew.
      { title: "Harbor returns", url: theirLink },
      page,
    ]);
    expect(JSON.stringify(read)).not.toContain(`"file_id":${theirs}`);
  });

  it("once the file is deleted, names it with no link and says it was deleted", async () => {
    await storeSources([{ title: "Library hours", url: await linkTo(mine, "Library hours.pdf", -60), file_id: mine }]);
    const deleted = await call("DELETE", `/v1/files/${mine}?app_id=${appId}`, { token: clientAdmin });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await readRun()).results[0].sources).toEqual([{ title: "Library hours", url: "", file_deleted: true }]);
  });
});
