import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  testContext,
  signInToConsole,
} from "../../tests/support/console-context";
import { makePdf, notAPdf } from "../../tests/support/pdf";
import { startTestHost } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";
import type { KnowledgeFile } from "@contract";
import { action as uploadStep, loader as uploadStepLoader } from "./$appName.files-upload";
import { action as filesAction, loader as filesLoader } from "./$appName.agent.$agentName.knowledge-store.files";
import { loader as chunksLoader } from "./$appName.agent.$agentName.knowledge-store.files.$fileId.chunks";

let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host?.close();
});

const PAGE = "/northfield/agent/admissions/knowledge-store/files";
const params = { appName: "northfield", agentName: "admissions" };
const args = (request: Request, routeParams: Record<string, string> = params) => ({
  request,
  context: testContext(host),
  params: routeParams,
});

const load = async (
  cookie: string,
  search = "",
): Promise<{ files: KnowledgeFile[]; error: string | null; deleting: KnowledgeFile | null }> =>
  loaderJson(filesLoader, args(getRequest(`${PAGE}${search}`, cookie)));

function multipart(files: { name: string; bytes: Buffer }[], cookie: string, search = "") {
  const body = new FormData();
  for (const file of files)
    body.append("files", new File([new Uint8Array(file.bytes)], file.name, { type: "application/pdf" }));
  return new Request(`http://console.test${PAGE}${search}`, { method: "POST", body, headers: { cookie } });
}

/** The Files form's upload posted as a browser without JavaScript posts it: its answer. */
const upload = (files: { name: string; bytes: Buffer }[], cookie: string, search = "") =>
  settle(() => filesAction(args(multipart(files, cookie, search))));

describe("the Files page without JavaScript", () => {
  it("uploads the posted PDFs on the server and returns to the page with a 3 s toast", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await upload(
      [{ name: "Visit, days+tours.pdf", bytes: makePdf([["Tours leave at ten."]]) }],
      cookie,
      "?search=Visit",
    );
    expect(response).toHaveRedirect(`${PAGE}?search=Visit`);
    await expect(response).toSendToast({
      type: "success",
      description: "1 file uploaded; indexing has started",
      durationMs: 3000,
    });
    const file = await until("the file to be indexed", async () =>
      (await load(cookie, "?search=Visit")).files.find((f) => f.status === "indexed"),
    );
    expect(file).toMatchObject({ file_name: "Visit_ days_tours.pdf", chunks_count: 1 });
  });

  it("reports each refused file and keeps the others", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await upload(
      [
        { name: "fine.pdf", bytes: makePdf([["Fine."]]) },
        { name: "zip.pdf", bytes: notAPdf() },
      ],
      cookie,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      intent: "upload",
      formError: "1 file uploaded; indexing has started. 1 file could not be uploaded: the reason is beside each.",
      outcomes: [
        { file_name: "fine.pdf", ok: true, message: "Uploaded" },
        {
          file_name: "zip.pdf",
          ok: false,
          message: "Failed to upload file: This file is not a PDF (its content is not PDF data)",
        },
      ],
    });
  });

  it("uploads the PDFs chosen with a file of another type, and says beside that one why it was refused", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await upload(
      [
        { name: "Notes.txt", bytes: Buffer.from("Plain notes.") },
        { name: "Dorms.pdf", bytes: makePdf([["Dorms open in August."]]) },
      ],
      cookie,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      intent: "upload",
      formError: "1 file uploaded; indexing has started. 1 file could not be uploaded: the reason is beside each.",
      outcomes: [
        { file_name: "Notes.txt", ok: false, message: "Failed to upload file: Notes.txt is not a PDF" },
        { file_name: "Dorms.pdf", ok: true, message: "Uploaded" },
      ],
    });
    expect((await load(cookie, "?search=Dorms")).files.map((f) => f.file_name)).toEqual(["Dorms.pdf"]);
    const none = await upload([{ name: "Only.txt", bytes: Buffer.from("x") }], cookie);
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({
      intent: "upload",
      formError: "Only PDF files are accepted.",
      outcomes: [{ file_name: "Only.txt", ok: false, message: "Failed to upload file: Only.txt is not a PDF" }],
    });
  });

  it("refuses a file named as one already uploaded, or twice in one upload, and uploads the others", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const response = await upload(
      [
        { name: "FINE.pdf", bytes: makePdf([["Fine again."]]) },
        { name: "Campus map.pdf", bytes: makePdf([["The library is north of the lake."]]) },
        { name: "campus MAP.pdf", bytes: makePdf([["Another map."]]) },
      ],
      cookie,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      intent: "upload",
      formError: "1 file uploaded; indexing has started. 2 files could not be uploaded: the reason is beside each.",
      outcomes: [
        {
          file_name: "FINE.pdf",
          ok: false,
          message:
            "Failed to upload file: A file named fine.pdf is already uploaded; delete it first to upload a new version",
        },
        { file_name: "Campus map.pdf", ok: true, message: "Uploaded" },
        {
          file_name: "campus MAP.pdf",
          ok: false,
          message: "Failed to upload file: Another file of this upload is also named campus MAP.pdf",
        },
      ],
    });
    expect((await load(cookie, "?search=fine")).files.map((f) => f.file_name)).toEqual(["fine.pdf"]);
    expect((await load(cookie, "?search=campus")).files.map((f) => f.file_name)).toEqual(["Campus map.pdf"]);
  });

  it("answers the browser's upload step file by file: a link, or why that file was refused", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const step = await settle(() =>
      uploadStep({
        request: new Request("http://console.test/northfield/files-upload", {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({ intent: "presign", file_names: ["Campus Map.pdf", "Parking.pdf"] }),
        }),
        context: testContext(host),
        params: { appName: "northfield" },
      }),
    );
    expect(step.status).toBe(200);
    expect(await step.json()).toEqual({
      uploads: [
        {
          ok: false,
          message: "A file named Campus map.pdf is already uploaded; delete it first to upload a new version",
        },
        { ok: true, target: expect.objectContaining({ file_name: "Parking.pdf", url: expect.any(String) }) },
      ],
    });
  });

  it("refuses an upload step past 64 KB before parsing it (413), and one that is not JSON (415)", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const post = (body: string, type = "application/json") =>
      settle(() =>
        uploadStep({
          request: new Request("http://console.test/northfield/files-upload", {
            method: "POST",
            headers: { cookie, "content-type": type },
            body,
          }),
          context: testContext(host),
          params: { appName: "northfield" },
        }),
      );
    const huge = JSON.stringify({ intent: "presign", file_names: ["a.pdf"], pad: "x".repeat(70 * 1024) });
    expect((await post(huge)).status).toBe(413);
    expect((await post("intent=presign", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await post("{not json")).status).toBe(400);
  });

  it("tells a GET of the upload steps' address to POST, without an error", async () => {
    const answer = uploadStepLoader();
    expect(answer.status).toBe(405);
    expect(answer.headers.get("allow")).toBe("POST");
    expect(await answer.json()).toEqual({ message: "This address takes the Files page's uploads (POST) only." });
  });

  it("asks for a file when none is chosen", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const none = await settle(() => filesAction(args(multipart([], cookie))));
    expect(none.status).toBe(400);
    expect((await none.json()).formError).toBe("Choose at least one PDF file.");
  });

  it("shows one page of files at a time, the last one for a page past the end", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [{ id: appId }] = (
      (await host.deps.db.execute(sql`select id from client_apps where url_code = 'northfield'`)) as unknown as {
        rows: { id: number }[];
      }
    ).rows;
    await host.deps.db.execute(sql`
      insert into files (app_id, file_name, upload_key, status)
      select ${appId}, 'Leaflet ' || n || '.pdf', 'uploads/leaflet-' || n || '.pdf', 'failed_to_upload'
      from generate_series(1, 23) as n`);
    const third = await loaderJson(filesLoader, args(getRequest(`${PAGE}?search=Leaflet&page=3`, cookie)));
    expect(third.paging).toMatchObject({ page: 3, totalPages: 3, total: 23 });
    expect(third.files.map((file: KnowledgeFile) => file.file_name)).toEqual([
      "Leaflet 3.pdf",
      "Leaflet 2.pdf",
      "Leaflet 1.pdf",
    ]);
    const past = await loaderJson(filesLoader, args(getRequest(`${PAGE}?search=Leaflet&page=9&page_size=20`, cookie)));
    expect(past.paging).toMatchObject({ page: 2, totalPages: 2, total: 23 });
    expect(past.files).toHaveLength(3);
  });

  it("shows a file's chunks a hundred at a time, the last page for one past the end", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const { rows } = (await host.deps.db.execute(sql`
      insert into files (app_id, file_name, upload_key, status)
      select id, 'Manual.pdf', 'uploads/manual.pdf', 'indexed' from client_apps where url_code = 'northfield'
      returning id, app_id`)) as unknown as { rows: { id: number; app_id: number }[] };
    const [{ id: fileId, app_id: appId }] = rows;
    await host.deps.db.execute(sql`
      insert into chunks (app_id, file_id, position, heading_path, text)
      select ${appId}, ${fileId}, n, jsonb_build_array('Page ' || (n + 1)), 'Passage ' || (n + 1) || ' of the manual.'
      from generate_series(0, 204) as n`);
    const drawer = (search: string) =>
      loaderJson(
        chunksLoader,
        args(getRequest(`${PAGE}/${fileId}/chunks${search}`, cookie), { ...params, fileId: String(fileId) }),
      );
    const texts = (read: { chunks: { text: string }[] | null }) => (read.chunks ?? []).map((chunk) => chunk.text);

    const first = await drawer("?search=Manual");
    expect(first.paging).toEqual({ page: 1, totalPages: 3, total: 205 });
    expect(texts(first)).toHaveLength(100);
    expect(texts(first)[0]).toBe("Passage 1 of the manual.");

    const second = await drawer("?search=Manual&chunks_page=2");
    expect(second.paging).toEqual({ page: 2, totalPages: 3, total: 205 });
    expect([texts(second)[0], texts(second)[99]]).toEqual(["Passage 101 of the manual.", "Passage 200 of the manual."]);

    const past = await drawer("?chunks_page=9");
    expect(past.paging).toEqual({ page: 3, totalPages: 3, total: 205 });
    expect(texts(past)).toEqual([201, 202, 203, 204, 205].map((n) => `Passage ${n} of the manual.`));

    expect((await drawer("?chunks_page=two")).paging).toEqual({ page: 1, totalPages: 3, total: 205 });
  });

  it("saves a file's tags", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [file] = (await load(cookie, "?search=fine")).files;
    const tagged = await settle(() =>
      filesAction(args(formRequest(PAGE, { intent: "tags", file_id: String(file.id), tags: "production" }, cookie))),
    );
    await expect(tagged).toSendToast({ type: "success", description: "Tags of fine.pdf saved" });
    expect((await load(cookie, "?search=fine")).files[0].tags).toEqual(["production"]);
  });

  it("says on the page, not on an error screen, that a file deleted meanwhile is not found to tag or delete", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const stale = await settle(() =>
      filesAction(args(formRequest(PAGE, { intent: "tags", file_id: "987654", tags: "production" }, cookie))),
    );
    expect(stale).toHaveRedirect(PAGE);
    await expect(stale).toSendToast({ type: "error", description: "Tags not saved: File not found" });
    const gone = await settle(() =>
      filesAction(args(formRequest(`${PAGE}?delete=987654`, { intent: "delete", file_id: "987654" }, cookie))),
    );
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ intent: "delete", formError: "File not found", fileId: 987654 });
  });

  it("refuses a tag the screen does not offer rather than saving the file without it", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [file] = (await load(cookie, "?search=fine")).files;
    const before = file.tags;
    const forged = await settle(() =>
      filesAction(args(formRequest(PAGE, { intent: "tags", file_id: String(file.id), tags: "archive" }, cookie))),
    );
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({
      intent: "tags",
      formError: "Tags must be sandbox or production",
      fileId: file.id,
    });
    expect((await load(cookie, "?search=fine")).files[0].tags).toEqual(before);
  });

  it("asks by address before deleting a file, then deletes it", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const [file] = (await load(cookie, "?search=fine")).files;
    // The table's link keeps the list's search and page, where the file is.
    expect((await load(cookie, `?search=fine&delete=${file.id}`)).deleting?.id).toBe(file.id);
    const removed = await settle(() =>
      filesAction(
        args(
          formRequest(`${PAGE}?search=fine&delete=${file.id}`, { intent: "delete", file_id: String(file.id) }, cookie),
        ),
      ),
    );
    expect(removed).toHaveRedirect(`${PAGE}?search=fine`);
    expect((await load(cookie, "?search=fine")).files).toEqual([]);
  });

  it("refuses a client user's changes, in the page and in the upload steps", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    expect((await load(cookie)).files.length).toBeGreaterThan(0);
    const response = await settle(() =>
      filesAction(args(multipart([{ name: "x.pdf", bytes: makePdf([["x"]]) }], cookie))),
    );
    expect(response.status).toBe(403);
    const step = await settle(() =>
      uploadStep({
        request: new Request("http://console.test/northfield/files-upload", {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({ intent: "presign", file_names: ["x.pdf"] }),
        }),
        context: testContext(host),
        params: { appName: "northfield" },
      }),
    );
    expect(step.status).toBe(403);
  });
});
