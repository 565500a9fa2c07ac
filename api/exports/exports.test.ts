import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, appUsers, clientApps, controls, knowledgeFiles, testQuestions, users, websites } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let clientAdmin: string;
let northfieldId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  admin = (await signInAs(host, "admin@example.com")).user_token;
  clientAdmin = (await signInAs(host, "client.admin@example.com")).user_token;
  northfieldId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  // Something configured under the client, so the round trip has more than defaults to carry.
  await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
    token: admin,
    body: {
      app_id: northfieldId,
      name: "Library Helper",
      agent_type: "engagement",
      site_code: "library",
      metadata: { greeting: "Hi!" },
    },
  });
  // A website of its knowledge store and a test question of an agent, which an import must bring back.
  await call("POST", `/v1/apps/${northfieldId}/websites/create_and_update`, {
    token: admin,
    body: {
      websites: [
        {
          app_id: northfieldId,
          url: "https://library.northfield.example/",
          site_map: "full_website",
          tags: ["Development"],
          skip_patterns: ["/archive/"],
        },
      ],
    },
  });
  await call("POST", `/v1/apps/${northfieldId}/test_questions`, {
    token: admin,
    body: { trigger_point: "library", question: "When does the library open?", expect_outcome: "answered" },
  });
});
afterAll(() => host?.close());

/** Everything the export carries, without ids and timestamps. */
async function configurationOf(urlCode: string) {
  const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, urlCode));
  if (!app) return null;
  const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = app;
  const agentRows = (await host.deps.db.select().from(agents).where(eq(agents.appId, app.id)))
    .map(({ id: _i, appId: _a, createdAt: _c2, updatedAt: _u2, ...rest }) => rest)
    .sort((a, b) => a.siteCode.localeCompare(b.siteCode));
  const controlRows = (await host.deps.db.select().from(controls).where(eq(controls.appId, app.id)))
    .map(({ id: _i, appId: _a, createdAt: _c2, updatedAt: _u2, ...rest }) => rest)
    .sort((a, b) => a.triggerPoint.localeCompare(b.triggerPoint) || a.internalName.localeCompare(b.internalName));
  const access = (
    await host.deps.db
      .select({ email: users.email, role: appUsers.role })
      .from(appUsers)
      .innerJoin(users, eq(users.id, appUsers.userId))
      .where(eq(appUsers.appId, app.id))
  ).sort((a, b) => a.email.localeCompare(b.email));
  const sites = (await host.deps.db.select().from(websites).where(eq(websites.appId, app.id)))
    .map((site) => ({
      url: site.url,
      siteMap: site.siteMap,
      enabled: site.enabled,
      tags: site.tags,
      skipPatterns: site.skipPatterns,
      allowedPatterns: site.allowedPatterns,
      seedUrls: site.seedUrls,
    }))
    .sort((a, b) => a.url.localeCompare(b.url));
  const questions = (await host.deps.db.select().from(testQuestions).where(eq(testQuestions.appId, app.id)))
    .map(({ triggerPoint, question, expectSource, expectText, expectOutcome }) => ({
      triggerPoint,
      question,
      expectSource,
      expectText,
      expectOutcome,
    }))
    .sort((a, b) => a.question.localeCompare(b.question) || a.triggerPoint.localeCompare(b.triggerPoint));
  return { fields, agents: agentRows, controls: controlRows, access, websites: sites, questions };
}

describe("export and import", () => {
  it("round-trips a client: export, delete, import reproduces the same configuration; importing again changes nothing", async () => {
    const before = await configurationOf("northfield");
    expect(before!.websites.map((site) => site.url)).toContain("https://library.northfield.example/");
    expect(before!.questions.map((question) => question.question)).toContain("When does the library open?");
    const exported = await call("POST", `/v1/apps/${northfieldId}/exports/export`, { token: clientAdmin });
    expect(exported).toMatchObject({
      status: 200,
      body: {
        message: "Export completed successfully",
        file_name: expect.stringMatching(/^northfield_\d{8}-\d{6}-\d{3}\.json$/),
      },
    });
    const files = await call("GET", "/v1/export_files", { token: admin });
    expect(files.body.files).toContain(exported.body.file_name);

    await host.deps.db.delete(clientApps).where(eq(clientApps.id, northfieldId));
    expect(await configurationOf("northfield")).toBeNull();

    const imported = await call("POST", "/v1/import_from_file", {
      token: admin,
      body: { file_name: exported.body.file_name },
    });
    expect(imported).toMatchObject({ status: 200, body: { created: true, message: "Imported Northfield University" } });
    expect(await configurationOf("northfield")).toEqual(before);

    const again = await call("POST", "/v1/import_from_file", {
      token: admin,
      body: { file_name: exported.body.file_name },
    });
    expect(again.body).toMatchObject({
      created: false,
      message: "Northfield University already holds what the file holds: nothing changed",
    });
    expect(await configurationOf("northfield")).toEqual(before);
  });

  it("refuses malformed and foreign files with a clear 400 and writes nothing", async () => {
    const exportKey = (await host.deps.storage.list("exports")).find((o) =>
      o.key.startsWith("exports/northfield_"),
    )!.key;
    const valid = JSON.parse((await host.deps.storage.get(exportKey))!.toString());
    await host.deps.storage.put("exports/broken.json", "{ not json");
    await host.deps.storage.put("exports/other-tool.json", JSON.stringify({ format: "someone-else", version: 1 }));
    // Valid client, invalid agent: the transaction must not leave the client half-imported.
    await host.deps.storage.put(
      "exports/half.json",
      JSON.stringify({ ...valid, app: { ...valid.app, url_code: "halfway" }, agents: [{ name: "", site_code: "" }] }),
    );
    const before = (await host.deps.db.select().from(clientApps)).length;

    expect(await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "broken.json" } })).toEqual({
      status: 400,
      body: { message: "broken.json is not valid JSON" },
    });
    const foreign = await call("POST", "/v1/import_from_file", {
      token: admin,
      body: { file_name: "other-tool.json" },
    });
    expect(foreign.body.message).toBe("other-tool.json is not a client export this console can import");
    expect(foreign.body.errors.format).toEqual(["This is not an export of this console"]);
    expect(
      (await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "half.json" } })).status,
    ).toBe(400);
    // Agents are matched by site code: two of one code in a file would silently become one.
    await host.deps.storage.put(
      "exports/twins.json",
      JSON.stringify({
        ...valid,
        app: { ...valid.app, url_code: "twins" },
        agents: [
          { name: "One", site_code: "desk" },
          { name: "Two", site_code: "Desk" },
        ],
      }),
    );
    const twins = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "twins.json" } });
    expect(twins.status).toBe(400);
    expect(twins.body.errors["agents.1.site_code"]).toEqual(["Another agent of this file has this site code"]);
    // A file edited by hand: text no request may send is refused in it too, by field.
    await host.deps.storage.put(
      "exports/nul.json",
      JSON.stringify({
        ...valid,
        app: { ...valid.app, url_code: "nul" },
        test_questions: [{ trigger_point: "", question: "Open\u0000?", expect_outcome: "answered" }],
      }),
    );
    const nul = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "nul.json" } });
    expect(nul).toEqual({
      status: 400,
      body: {
        message: "nul.json holds text the console does not store",
        errors: { "test_questions.0.question": ["Contains a NUL character"] },
      },
    });
    expect(
      (await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "../secrets.json" } })).status,
    ).toBe(400);
    expect(
      (await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "missing.json" } })).status,
    ).toBe(404);
    expect((await host.deps.db.select().from(clientApps)).length).toBe(before);
  });

  it("reads an export saved again with a byte order mark or as UTF-16, as editors save it", async () => {
    const exportKey = (await host.deps.storage.list("exports")).find((o) =>
      o.key.startsWith("exports/northfield_"),
    )!.key;
    const text = (await host.deps.storage.get(exportKey))!.toString("utf8");
    await host.deps.storage.put(
      "exports/with-bom.json",
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    );
    await host.deps.storage.put(
      "exports/utf16.json",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]),
    );
    for (const file_name of ["with-bom.json", "utf16.json"]) {
      const imported = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name } });
      expect(imported.status).toBe(200);
      expect(imported.body.message).toBe("Northfield University already holds what the file holds: nothing changed");
    }
  });

  it("answers a file name longer than any export's with a 400, not a server error", async () => {
    const imported = await call("POST", "/v1/import_from_file", {
      token: admin,
      body: { file_name: `${"c".repeat(300)}.json` },
    });
    expect(imported.status).toBe(400);
    expect(imported.body.errors.file_name).toEqual(["Export file names are at most 200 characters"]);
    // Past the schema, a key longer than the file system keeps names no stored object either.
    expect(await host.deps.storage.get(`exports/${"c".repeat(300)}.json`)).toBeNull();
    expect(await host.deps.storage.head(`exports/${"c".repeat(300)}.json`)).toBeNull();
  });

  it("keeps import to staff and export to those who may configure the client", async () => {
    expect((await call("GET", "/v1/export_files", { token: clientAdmin })).status).toBe(403);
    expect(
      (await call("POST", "/v1/import_from_file", { token: clientAdmin, body: { file_name: "x.json" } })).status,
    ).toBe(403);
    const viewer = (await signInAs(host, "client.user@example.com")).user_token;
    const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    expect((await call("POST", `/v1/apps/${app.id}/exports/export`, { token: viewer })).status).toBe(403);
  });
});

describe("History of imports and new clients", () => {
  const historyOf = async (appId: number) =>
    (await call("GET", `/v1/apps/${appId}/history?page_size=100`, { token: admin })).body.data as {
      kind: string;
      summary: string;
      user_email: string;
    }[];
  const northfield = async () =>
    (await host.deps.db.select({ id: clientApps.id }).from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0]
      .id;

  it("records what an import changed in an existing client, each kind as its own save does, and nothing when it changes nothing", async () => {
    const appId = await northfield();
    const exported = await call("POST", `/v1/apps/${appId}/exports/export`, { token: clientAdmin });
    const [library] = await host.deps.db.select().from(agents).where(eq(agents.siteCode, "library"));
    await host.deps.db.update(agents).set({ name: "Renamed Helper" }).where(eq(agents.id, library.id));
    const before = (await historyOf(appId)).length;

    await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: exported.body.file_name } });
    const added = (await historyOf(appId)).slice(0, (await historyOf(appId)).length - before);
    expect(added).toEqual([
      expect.objectContaining({
        kind: "agent",
        summary: `Import of ${exported.body.file_name}: Agent Library Helper: Name changed`,
        user_email: "admin@example.com",
      }),
    ]);

    await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: exported.body.file_name } });
    expect(await historyOf(appId)).toHaveLength(before + 1);
  });

  it("records an agent an import brings back to an existing client as added, with its settings", async () => {
    const appId = await northfield();
    const exported = await call("POST", `/v1/apps/${appId}/exports/export`, { token: clientAdmin });
    await host.deps.db.delete(agents).where(eq(agents.siteCode, "library"));
    await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: exported.body.file_name } });
    const [latest] = await historyOf(appId);
    expect(latest).toMatchObject({
      kind: "agent",
      summary: `Import of ${exported.body.file_name}: Agent Library Helper added`,
    });
  });

  it("records a client an import creates, with everything it brought, in the new client's History", async () => {
    const exported = await call("POST", `/v1/apps/${await northfield()}/exports/export`, { token: clientAdmin });
    const content = JSON.parse((await host.deps.storage.get(`exports/${exported.body.file_name}`))!.toString());
    await host.deps.storage.put(
      "exports/copy_20260101-000000-000.json",
      JSON.stringify({ ...content, app: { ...content.app, url_code: "copied", client_name: "Copied College" } }),
    );
    const imported = await call("POST", "/v1/import_from_file", {
      token: admin,
      body: { file_name: "copy_20260101-000000-000.json" },
    });
    expect(imported.body.created).toBe(true);
    const summaries = (await historyOf(imported.body.app.id)).map((change) => change.summary);
    const via = "Import of copy_20260101-000000-000.json";
    expect(summaries).toContain(`${via}: Client Copied College created`);
    expect(summaries).toContain(`${via}: Agent Library Helper added`);
    expect(summaries.filter((summary) => summary.startsWith("Access"))).toEqual([]);
    expect(summaries.every((summary) => summary.startsWith(`${via}: `))).toBe(true);
    // Another client's History holds none of it.
    expect((await historyOf(await northfield())).some((change) => change.summary.startsWith(via))).toBe(false);
  });

  it("records a client created on the clients screen as its first change", async () => {
    const created = await call("POST", "/v1/apps", {
      token: admin,
      body: { client_name: "Brand New School", url_code: "brand-new", country: "US" },
    });
    expect(created.status).toBe(201);
    expect(await historyOf(created.body.id)).toEqual([
      expect.objectContaining({
        kind: "client",
        summary: "Client Brand New School created",
        user_email: "admin@example.com",
      }),
    ]);
  });
});

describe("uploaded files in the export", () => {
  it("carries files' metadata and tags but not their bytes, and an import restores the tags of files of the same name", async () => {
    const [appId] = (
      await host.deps.db.select({ id: clientApps.id }).from(clientApps).where(eq(clientApps.urlCode, "northfield"))
    ).map((a) => a.id);
    await host.deps.storage.put(`apps/${appId}/files/1/Guide.pdf`, "%PDF-1.4 bytes that must not travel");
    const [file] = await host.deps.db
      .insert(knowledgeFiles)
      .values({
        appId,
        fileName: "Guide, 2026.pdf",
        uploadKey: `uploads/${appId}/abc/Guide_2026.pdf`,
        storageKey: `apps/${appId}/files/1/Guide.pdf`,
        size: 36,
        pageCount: 2,
        status: "indexed",
        tags: ["production"],
      })
      .returning();
    const exported = await call("POST", `/v1/apps/${appId}/exports/export`, { token: clientAdmin });
    const text = (await host.deps.storage.get(`exports/${exported.body.file_name}`))!.toString();
    const content = JSON.parse(text);
    expect(content.files).toEqual([
      expect.objectContaining({
        file_name: "Guide, 2026.pdf",
        tags: ["production"],
        size: 36,
        page_count: 2,
        status: "indexed",
      }),
    ]);
    expect(text).not.toContain("must not travel");
    expect(text).not.toContain(file.storageKey);

    await host.deps.db.update(knowledgeFiles).set({ tags: [] }).where(eq(knowledgeFiles.id, file.id));
    expect(
      (await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: exported.body.file_name } }))
        .status,
    ).toBe(200);
    const [after] = await host.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.appId, appId));
    expect(after.tags).toEqual(["production"]);
    expect(await host.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.appId, appId))).toHaveLength(1);

    // An export written where names are decomposed (macOS) still names the same file.
    await host.deps.db
      .update(knowledgeFiles)
      .set({ fileName: "Prüfung.pdf", tags: [] })
      .where(eq(knowledgeFiles.id, file.id));
    await host.deps.storage.put(
      "exports/decomposed.json",
      JSON.stringify({ ...content, files: [{ ...content.files[0], file_name: "Prüfung.pdf".normalize("NFD") }] }),
    );
    expect(
      (await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "decomposed.json" } })).status,
    ).toBe(200);
    const [decomposedImport] = await host.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, file.id));
    expect(decomposedImport).toMatchObject({ fileName: "Prüfung.pdf", tags: ["production"] });
  });
});

describe("admin downloads", () => {
  it("lists the newest export and hands out a signed, expiring link to it", async () => {
    const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    await call("POST", `/v1/apps/${app.id}/exports/export`, { token: admin });
    const viewer = (await signInAs(host, "client.user@example.com")).user_token;
    const latest = await call("GET", `/v1/admin_downloads/latest_files?app_id=${app.id}`, { token: viewer });
    expect(latest.body.files.app_export).toMatchObject({
      file_type: "app_export",
      filename: expect.stringMatching(/^northfield_/),
      size: expect.any(Number),
      key: expect.stringMatching(/^exports\//),
    });
    const link = await call("POST", "/v1/admin_downloads/download", {
      token: viewer,
      body: { file_key: latest.body.files.app_export.key },
    });
    expect(link.body.download_url).toMatch(/^\/storage\/download\?/);
    const file = await host.api.request(link.body.download_url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe(
      `attachment; filename="${latest.body.files.app_export.filename}"`,
    );
    expect(JSON.parse(await file.text()).app.url_code).toBe("northfield");

    const tampered = link.body.download_url.replace(/sig=[^&]+/, "sig=forged");
    expect((await host.api.request(tampered)).status).toBe(403);
  });

  it("keeps other clients' files out of reach", async () => {
    const [app] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const latest = await call("GET", `/v1/admin_downloads/latest_files?app_id=${app.id}`, { token: admin });
    const harborUser = await call("POST", "/v1/users/upsert", {
      token: admin,
      body: { users: [{ email: "harbor@example.com", name: "Harbor", user_type: "user" }] },
    });
    expect(harborUser.status).toBe(200);
    const [harbor] = await host.deps.db
      .select()
      .from(clientApps)
      .where(eq(clientApps.urlCode, "shopharbor-outfitters"));
    await call("POST", `/v1/apps/${harbor.id}/users/upsert`, {
      token: admin,
      body: { users: [{ email: "harbor@example.com", name: "Harbor", app_user: { role: "client_admin" } }] },
    });
    const outsider = (await signInAs(host, "harbor@example.com")).user_token;
    // Answered exactly as a key nobody stored: the other client's keys (which name it) reveal nothing.
    const foreign = await call("POST", "/v1/admin_downloads/download", {
      token: outsider,
      body: { file_key: latest.body.files.app_export.key },
    });
    const missing = await call("POST", "/v1/admin_downloads/download", {
      token: outsider,
      body: { file_key: "exports/nothing.json" },
    });
    expect(foreign).toEqual({ status: 404, body: { message: "File not found" } });
    expect(missing).toEqual(foreign);
    expect((await call("GET", `/v1/admin_downloads/latest_files?app_id=${app.id}`, { token: outsider })).status).toBe(
      404,
    );
  });
});
