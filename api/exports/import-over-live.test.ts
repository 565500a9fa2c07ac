import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  agents,
  appearances,
  clientApps,
  configChanges,
  controls,
  controlTopics,
  knowledgeFiles,
  websites,
} from "../db/schema";
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
      .set({ pushedAt: new Date(at) })
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

describe("agents renamed since the export", () => {
  const stageColour = async (triggerPoint: string) =>
    (await call("GET", `/v1/appearances?appId=${northfield}&triggerPoint=${triggerPoint}`, { token: admin })).body.data
      ?.primary_color;
  const saveStageColour = (triggerPoint: string, primary_color: string) =>
    call("PUT", `/v1/appearances?appId=${northfield}&triggerPoint=${triggerPoint}`, {
      token: admin,
      body: { appearance: { value: { primary_color } } },
    });
  const northfieldAgents = () => host.deps.db.select().from(agents).where(eq(agents.appId, northfield));

  /** An agent with a setting kept under its site code, exported, then renamed and changed. */
  async function renamedSinceExport(code: string, renamed: string) {
    const created = await call("POST", `/v1/apps/${northfield}/agents/update_agents`, {
      token: admin,
      body: { app_id: northfield, name: `Agent ${code}`, agent_type: "engagement", site_code: code },
    });
    expect(created.status).toBe(200);
    expect((await saveStageColour(code, "#111111")).status).toBe(200);
    const older = await exportNorthfield();
    const renaming = await call("POST", `/v1/apps/${northfield}/agents/update_agents`, {
      token: admin,
      body: { ...created.body, site_code: renamed, name: `Agent ${renamed}` },
    });
    expect(renaming.body.site_code).toBe(renamed);
    expect((await saveStageColour(renamed, "#222222")).status).toBe(200);
    return { id: created.body.id as number, older };
  }

  it("updates the agent it was exported as, by the id the export carries, keeping its live site code", async () => {
    const { id, older } = await renamedSinceExport("archive", "records");
    const count = (await northfieldAgents()).length;

    await importFile(older);
    const after = await northfieldAgents();
    expect(after).toHaveLength(count);
    expect(after.find((agent) => agent.id === id)).toMatchObject({ name: "Agent archive", siteCode: "records" });
    // What the file kept under the old code is the agent's, under the code it has now; nothing is left under the old.
    expect(await stageColour("records")).toBe("#111111");
    const leftUnderOldCode = await host.deps.db
      .select()
      .from(appearances)
      .where(and(eq(appearances.appId, northfield), eq(appearances.triggerPoint, "archive")));
    expect(leftUnderOldCode).toEqual([]);
  });

  it("finds the agent an export without ids names by the site code History shows it had, in any case", async () => {
    const { id, older } = await renamedSinceExport("careers", "jobs");
    const content = JSON.parse((await host.deps.storage.get(`exports/${older}`))!.toString());
    // As exports were written before they carried each agent's identity, its code typed in another case.
    const idless = {
      ...content,
      agents: content.agents.map(({ id: _id, created_at: _at, ...agent }: Record<string, unknown>) => agent),
    };
    await host.deps.storage.put(
      "exports/northfield_20250101-000000-000.json",
      JSON.stringify(idless).replaceAll('"careers"', '"Careers"'),
    );
    const count = (await northfieldAgents()).length;

    await importFile("northfield_20250101-000000-000.json");
    const after = await northfieldAgents();
    expect(after).toHaveLength(count);
    expect(after.find((agent) => agent.id === id)).toMatchObject({ name: "Agent careers", siteCode: "jobs" });
    expect(await stageColour("jobs")).toBe("#111111");
  });

  it("refuses, writing nothing, a file whose agents the client's now hold under one site code", async () => {
    const agent = (name: string, site_code: string) =>
      call("POST", `/v1/apps/${northfield}/agents/update_agents`, {
        token: admin,
        body: { app_id: northfield, name, agent_type: "engagement", site_code },
      });
    const desk = (await agent("Front Desk", "desk")).body;
    const help = (await agent("Help Line", "help")).body;
    const older = await exportNorthfield();
    // Gone, and what it kept with it (the console deletes no agent).
    await host.deps.db.delete(agents).where(eq(agents.id, help.id));
    await host.deps.db.delete(controls).where(and(eq(controls.appId, northfield), eq(controls.triggerPoint, "help")));
    const renamed = await call("POST", `/v1/apps/${northfield}/agents/update_agents`, {
      token: admin,
      body: { ...desk, site_code: "help", name: "Front Desk renamed" },
    });
    expect(renamed.body).toMatchObject({ site_code: "help" });
    const before = await northfieldAgents();

    const refused = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: older } });
    expect(refused).toEqual({
      status: 400,
      body: {
        message:
          "Agent Help Line of the file has site code help, which agent Front Desk renamed has here now: change one of them first",
      },
    });
    expect(await northfieldAgents()).toEqual(before);
  });
});

describe("what an import would replace, asked before it does", () => {
  const preview = (file_name: string, token = admin) =>
    call("POST", "/v1/import_from_file/preview", { token, body: { file_name } });
  const historyCount = async () =>
    (await host.deps.db.select().from(configChanges).where(eq(configChanges.appId, northfield))).length;

  it("names the live client and what the import would change in it, writing nothing", async () => {
    const older = await exportNorthfield();
    const [admissions] = await host.deps.db
      .select()
      .from(agents)
      .where(and(eq(agents.appId, northfield), eq(agents.siteCode, "admissions")));
    const renamed = await call("POST", `/v1/apps/${northfield}/agents/update_agents`, {
      token: admin,
      body: { id: admissions.id, app_id: northfield, site_code: "admissions", name: "Admissions Desk" },
    });
    expect(renamed.body.name).toBe("Admissions Desk");
    const [client] = await host.deps.db.select().from(clientApps).where(eq(clientApps.id, northfield));
    const recorded = await historyCount();

    const asked = await preview(older);
    expect(asked).toEqual({
      status: 200,
      body: {
        file_name: older,
        existing: { id: northfield, client_name: client.clientName },
        changes: [`Agent ${admissions.name}: Name changed`],
        change_count: 1,
        digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    });
    const [still] = await host.deps.db.select().from(agents).where(eq(agents.id, admissions.id));
    expect(still.name).toBe("Admissions Desk");
    expect(await historyCount()).toBe(recorded);

    // Imported, it does what it said; a file the client already holds would change nothing.
    await importFile(older);
    expect((await preview(older)).body).toMatchObject({ changes: [], change_count: 0 });
  });

  it("fingerprints what it would change: the same while nothing changes, another once what it would replace does", async () => {
    const gone = await call("POST", `/v1/apps/${northfield}/agents/update_agents`, {
      token: admin,
      body: { app_id: northfield, name: "Gone Helper", agent_type: "engagement", site_code: "gone" },
    });
    expect(gone.status).toBe(200);
    const older = await exportNorthfield();
    const [admissions] = await host.deps.db
      .select()
      .from(agents)
      .where(and(eq(agents.appId, northfield), eq(agents.siteCode, "admissions")));
    const rename = async (name: string) => {
      const renamed = await call("POST", `/v1/apps/${northfield}/agents/update_agents`, {
        token: admin,
        body: { id: admissions.id, app_id: northfield, site_code: "admissions", name },
      });
      expect(renamed.body.name).toBe(name);
    };
    await rename("Admissions Desk asked");
    // An agent gone since the export is one the import would add (under a new id each time).
    await host.deps.db.delete(agents).where(eq(agents.id, gone.body.id));

    const asked = (await preview(older)).body;
    expect(asked.changes).toEqual([`Agent ${admissions.name}: Name changed`, "Agent Gone Helper added"]);
    expect(asked.digest).toMatch(/^[0-9a-f]{64}$/);
    expect((await preview(older)).body).toEqual(asked);

    // The same list of changes, but the name it would replace is another: another fingerprint.
    await rename("Admissions Desk renamed again");
    const again = (await preview(older)).body;
    expect(again.changes).toEqual(asked.changes);
    expect(again.digest).not.toBe(asked.digest);

    await importFile(older);
    expect((await preview(older)).body.digest).not.toBe(again.digest);
  });

  it("names no client for a file that would create one", async () => {
    const fileName = await exportNorthfield();
    const content = JSON.parse((await host.deps.storage.get(`exports/${fileName}`))!.toString());
    await host.deps.storage.put(
      "exports/fresh_20260101-000000-000.json",
      JSON.stringify({ ...content, app: { ...content.app, url_code: "fresh-college" } }),
    );
    expect((await preview("fresh_20260101-000000-000.json")).body).toEqual({
      file_name: "fresh_20260101-000000-000.json",
      existing: null,
      changes: [],
      change_count: 0,
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "fresh-college"))).toEqual([]);
  });

  it("refuses what the import refuses, with the same answer, and answers staff only", async () => {
    await host.deps.storage.put("exports/unreadable.json", "{ not json");
    expect(await preview("unreadable.json")).toEqual({
      status: 400,
      body: { message: "unreadable.json is not valid JSON" },
    });
    expect((await preview("nobody_20200101-000000.json")).status).toBe(404);
    const { clientAdmin } = await demoCallers(host);
    expect((await preview("unreadable.json", clientAdmin)).status).toBe(403);
  });
});

describe("topics through an import of what the client already holds", () => {
  const topic = (internal_name: string, text: string, disclaimer: string) => ({
    internal_name,
    trigger_point: "admissions",
    prompt_input_raw: text,
    metadata: { disclaimer },
  });
  const topicRows = () =>
    host.deps.db
      .select({ id: controlTopics.id, text: controlTopics.promptInputRaw })
      .from(controlTopics)
      .where(eq(controlTopics.appId, northfield))
      .orderBy(controlTopics.id);
  const controlsHistory = async () =>
    (await host.deps.db.select().from(configChanges).where(eq(configChanges.appId, northfield))).filter(
      (change) => change.kind === "controls",
    ).length;

  it("changes nothing, records nothing and asks about nothing; a changed topic is that change alone", async () => {
    const saved = await call("PUT", "/v1/controls", {
      token: admin,
      body: {
        app_id: northfield,
        controls: [
          topic("no_go_topics", "Legal advice", "I can't give legal advice."),
          topic("no_go_topics", "Medical advice", "Ask a doctor."),
          topic("sensitive_topics", "Financial aid", "Confirm with the aid office."),
        ],
      },
    });
    expect(saved.status).toBe(200);
    const fileName = await exportNorthfield();
    const before = await topicRows();
    const recorded = await controlsHistory();

    const asked = await call("POST", "/v1/import_from_file/preview", { token: admin, body: { file_name: fileName } });
    expect(asked.body).toMatchObject({ changes: [], change_count: 0 });
    await importFile(fileName);
    expect(await topicRows()).toEqual(before);
    expect(await controlsHistory()).toBe(recorded);

    // One topic's text changed since: the import puts it back, and that is the one change named.
    await call("PUT", "/v1/controls", {
      token: admin,
      body: {
        app_id: northfield,
        controls: [
          topic("no_go_topics", "Legal advice", "I can't give legal advice."),
          topic("no_go_topics", "Medical questions", "Ask a doctor."),
        ],
      },
    });
    const again = await call("POST", "/v1/import_from_file/preview", { token: admin, body: { file_name: fileName } });
    expect(again.body.changes).toEqual([expect.stringMatching(/No-Go Topics/)]);
  });
});

describe("websites through an import", () => {
  const sitesOf = async () =>
    (await host.deps.db.select().from(websites).where(eq(websites.appId, northfield)).orderBy(asc(websites.id))).map(
      (site) => ({
        url: site.url,
        tags: site.tags,
      }),
    );
  const ALUMNI = "https://Alumni.Northfield.example/news/";

  /** An export of Northfield with its alumni website's row replaced by `rows`, saved as `name`. */
  async function exportWithAlumniAs(name: string, rows: { url: string; tags: string[] }[]) {
    const exported = JSON.parse((await host.deps.storage.get(`exports/${await exportNorthfield()}`))!.toString());
    const edited = {
      ...exported,
      websites: exported.websites.flatMap((site: { url: string }) =>
        site.url === ALUMNI ? rows.map((row) => ({ ...site, ...row })) : [site],
      ),
    };
    await host.deps.storage.put(`exports/${name}`, JSON.stringify(edited));
  }

  beforeAll(async () => {
    const saved = await call("POST", `/v1/apps/${northfield}/websites/create_and_update`, {
      token: admin,
      body: { websites: [{ app_id: northfield, url: ALUMNI, site_map: "full_website", tags: [] }] },
    });
    expect(saved.status).toBe(200);
  });

  it("updates the website the client has at the file's address written another way, and adds no second one", async () => {
    await exportWithAlumniAs("northfield_written_otherwise.json", [
      { url: "https://alumni.northfield.example:443/news", tags: ["Development"] },
    ]);
    const before = await sitesOf();

    const preview = await call("POST", "/v1/import_from_file/preview", {
      token: admin,
      body: { file_name: "northfield_written_otherwise.json" },
    });
    expect(preview.body.changes).toEqual([expect.stringMatching(/Website/i)]);
    await importFile("northfield_written_otherwise.json");
    const after = await sitesOf();
    expect(after).toHaveLength(before.length);
    expect(after).toContainEqual({ url: ALUMNI, tags: ["Development"] });
  });

  it("refuses, writing nothing, a file that names one website in two rows", async () => {
    await exportWithAlumniAs("northfield_twice.json", [
      { url: "https://alumni.northfield.example/news", tags: ["Development"] },
      { url: "https://alumni.northfield.example/news/", tags: ["Production"] },
    ]);
    const before = await sitesOf();
    for (const path of ["/v1/import_from_file/preview", "/v1/import_from_file"]) {
      const refused = await call("POST", path, { token: admin, body: { file_name: "northfield_twice.json" } });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe("northfield_twice.json names one website in two rows");
      expect(Object.values(refused.body.errors)).toEqual([["The same website is in another row of this file"]]);
    }
    expect(await sitesOf()).toEqual(before);
  });
});
