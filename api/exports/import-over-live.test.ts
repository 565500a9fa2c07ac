import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appearances, clientApps, knowledgeFiles } from "../db/schema";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";

/**
 * Importing an older export over a live client: what the client gained since the export was taken
 * must not be lost or misreported by the import.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let northfield: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ admin, northfield } = await demoCallers(host));
});
afterAll(() => host?.close());

async function exportNorthfield() {
  const exported = await call("POST", `/v1/apps/${northfield}/exports/export`, { token: admin });
  expect(exported.status).toBe(200);
  return exported.body.file_name as string;
}

const importFile = async (fileName: string) => {
  const imported = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: fileName } });
  expect(imported.status).toBe(200);
  return imported.body as { app: { id: number }; created: boolean; message: string };
};

describe("Appearance's last push time through an import", () => {
  const appearancePath = (appId: number) => `/v1/appearances?appId=${appId}&triggerPoint=admissions`;
  const push = (primary_color: string) =>
    call("PUT", appearancePath(northfield), {
      token: admin,
      body: { appearance: { value: { primary_color } }, targetEnv: "production" },
    });
  /** Sets when production was last pushed, so the test can tell that time from the import's. */
  const pushedAt = (at: string) =>
    host.deps.db
      .update(appearances)
      .set({ updatedAt: new Date(at) })
      .where(
        and(
          eq(appearances.appId, northfield),
          eq(appearances.triggerPoint, "admissions"),
          eq(appearances.environment, "prod"),
        ),
      );

  it("keeps the live client's real last push time: an import is not a push", async () => {
    expect((await push("#101010")).status).toBe(200);
    await pushedAt("2025-01-02T03:04:05.000Z");
    const older = await exportNorthfield();
    expect((await push("#202020")).status).toBe(200);
    await pushedAt("2025-03-04T05:06:07.000Z");

    await importFile(older);
    const after = await call("GET", appearancePath(northfield), { token: admin });
    const shown = await call("POST", `/v1/appearances/get_diff?appId=${northfield}&triggerPoint=admissions`, {
      token: admin,
      body: { appearance: { value: {} } },
    });
    // Production shows the file's values again, and says truthfully when it was last pushed.
    expect(shown.body.current_prod_style_guide.primary_color).toBe("#101010");
    expect(after.body.pushed_at).toBe("2025-03-04T05:06:07.000Z");
  });

  it("gives a client an import creates no push time: nothing was pushed to it", async () => {
    const fileName = await exportNorthfield();
    const content = JSON.parse((await host.deps.storage.get(`exports/${fileName}`))!.toString());
    expect(content.appearances).toContainEqual(expect.objectContaining({ environment: "prod" }));
    await host.deps.storage.put(
      "exports/pushless_20260101-000000-000.json",
      JSON.stringify({ ...content, app: { ...content.app, url_code: "pushless", client_name: "Pushless College" } }),
    );
    const imported = await importFile("pushless_20260101-000000-000.json");
    expect(imported.created).toBe(true);
    const after = await call("GET", appearancePath(imported.app.id), { token: admin });
    expect(after.body.pushed_at).toBeNull();
    // Its first push is one, and says so.
    const pushed = await call("PUT", appearancePath(imported.app.id), {
      token: admin,
      body: { appearance: { value: { primary_color: "#303030" } }, targetEnv: "production" },
    });
    expect(pushed.body.message).toBe("Pushed to production");
    const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "pushless"));
    expect((await call("GET", appearancePath(app.id), { token: admin })).body.pushed_at).toEqual(expect.any(String));
  });
});

describe("files' environment tags through an import", () => {
  it("keeps the tags a file was given since the export: an older export takes no file out of Production", async () => {
    const [file] = await host.deps.db
      .insert(knowledgeFiles)
      .values({
        appId: northfield,
        fileName: "Handbook.pdf",
        uploadKey: `uploads/${northfield}/tags/Handbook.pdf`,
        status: "indexed",
        tags: ["sandbox"],
      })
      .returning();
    const older = await exportNorthfield();
    const tagged = await call("PATCH", `/v1/files/${file.id}`, {
      token: admin,
      body: { app_id: northfield, tags: ["sandbox", "production"] },
    });
    expect(tagged.body.tags).toEqual(["sandbox", "production"]);

    await importFile(older);
    const [after] = await host.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, file.id));
    expect(after.tags).toEqual(["sandbox", "production"]);
  });
});
