import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import {
  clientApps,
  conversations,
  profileFields,
  programRecords,
  recommendationBuilds,
  visitorProfiles,
} from "../db/schema";
import { startFixtureSite } from "../../tests/support/fixture-site";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { indexPages } from "../../tests/support/index-pages";
import { until } from "../../tests/support/wait";
import { startStandInModel } from "../../tests/support/stand-in-model";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let clientAdmin: string;
let clientUser: string;
let northfield: number;
let shop: number;

beforeAll(async () => {
  site = await startFixtureSite({ slowMs: 100 });
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 10_000 });
  call = apiCaller(host);
  ({ admin, clientAdmin, clientUser, northfield, harbor: shop } = await demoCallers(host));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const base = (appId: number) => `/v1/apps/${appId}/personalisation_config_details`;
const field = (name: string, field_type: string, group: string, model_type = "program_profile", definition = "") => ({
  name,
  field_type,
  group,
  model_type,
  definition,
});

describe("data model fields", () => {
  it("creates and updates fields of both models, separate per client, and lists them per model", async () => {
    const saved = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          field("first_name", "text", "Personal Contact Information", "user_profile", "Given name"),
          field("gpa", "number", "Academic Profile", "user_profile"),
          field("program_name", "text", "Program Content & Descriptions"),
        ],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("3 fields saved");
    const users = await call("GET", `${base(northfield)}?model_type=user_profile`, { token: clientUser });
    expect(users.body.personalisation_config_details.map((f: { name: string }) => f.name)).toEqual([
      "first_name",
      "gpa",
    ]);
    const gpa = users.body.personalisation_config_details[1];
    const renamed = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          { ...field("grade_point_average", "number", "Academic Profile", "user_profile"), id: gpa.id },
        ],
      },
    });
    expect(renamed.body.personalisation_config_details.find((f: { id: number }) => f.id === gpa.id).name).toBe(
      "grade_point_average",
    );
    expect((await call("GET", base(shop), { token: admin })).body.personalisation_config_details).toEqual([]);
  });

  it("saves a swap of two names, and a new field taking a renamed one's old name, as one save", async () => {
    const saved = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          field("alpha", "text", "Academic Profile", "user_profile"),
          field("beta", "text", "Academic Profile", "user_profile"),
        ],
      },
    });
    const idOf = (name: string) =>
      (saved.body.personalisation_config_details as { id: number; name: string }[]).find((f) => f.name === name)!.id;
    const [alpha, beta] = [idOf("alpha"), idOf("beta")];
    const swapped = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          { ...field("beta", "text", "Academic Profile", "user_profile"), id: alpha },
          { ...field("alpha", "text", "Academic Profile", "user_profile"), id: beta },
        ],
      },
    });
    expect(swapped.status).toBe(200);
    const names = (body: { personalisation_config_details: { id: number; name: string }[] }) =>
      Object.fromEntries(body.personalisation_config_details.map((f) => [f.id, f.name]));
    expect(names(swapped.body)).toMatchObject({ [alpha]: "beta", [beta]: "alpha" });
    // The new row first, the rename after it: the order of the rows does not decide.
    const taken = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          field("alpha", "text", "Academic Profile", "user_profile"),
          { ...field("old_alpha", "text", "Academic Profile", "user_profile"), id: beta },
        ],
      },
    });
    expect(taken.status).toBe(200);
    expect(names(taken.body)).toMatchObject({ [beta]: "old_alpha" });
    expect(Object.values(names(taken.body))).toContain("alpha");
  });

  it("moves the values profiles captured under a renamed field to its new name, swaps included", async () => {
    const saved = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          field("home_town", "text", "Personal Contact Information", "user_profile"),
          field("intake", "text", "Academic Profile", "user_profile"),
          field("start_year", "text", "Academic Profile", "user_profile"),
          field("nickname", "text", "Personal Contact Information", "user_profile"),
          field("campus", "text", "Program Content & Descriptions"),
        ],
      },
    });
    const idOf = (name: string) =>
      (saved.body.personalisation_config_details as { id: number; name: string }[]).find((f) => f.name === name)!.id;
    const profile = async (values: Record<string, string>, sources: Record<string, number>, appId = northfield) => {
      const id = randomUUID();
      const at = new Date();
      await host.deps.db
        .insert(conversations)
        .values({ id, appId, environment: "prod", triggerPoint: "", startedAt: at, lastMessageAt: at });
      await host.deps.db.insert(visitorProfiles).values({ conversationId: id, appId, values, sourceMessages: sources });
      return id;
    };
    const mira = await profile(
      { home_town: "Oslo", intake: "Fall", start_year: "2027", nickname: "Mira", campus: "North" },
      { home_town: 7 },
    );
    const other = await profile({ home_town: "Bergen" }, { home_town: 9 }, shop);
    const renamed = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          { ...field("Hometown", "text", "Personal Contact Information", "user_profile"), id: idOf("home_town") },
          { ...field("start_year", "text", "Academic Profile", "user_profile"), id: idOf("intake") },
          { ...field("intake", "text", "Academic Profile", "user_profile"), id: idOf("start_year") },
          // The lead score reads names: the profile is scored again as if captured under the new one.
          { ...field("full_name", "text", "Personal Contact Information", "user_profile"), id: idOf("nickname") },
          // A program field's name is no profile's key: a value stored under it stays.
          { ...field("site", "text", "Program Content & Descriptions"), id: idOf("campus") },
        ],
      },
    });
    expect(renamed.status).toBe(200);
    const stored = async (id: string) =>
      (await host.deps.db.select().from(visitorProfiles).where(eq(visitorProfiles.conversationId, id)))[0];
    expect(await stored(mira)).toMatchObject({
      values: { Hometown: "Oslo", start_year: "Fall", intake: "2027", full_name: "Mira", campus: "North" },
      sourceMessages: { Hometown: 7 },
      fieldScore: 10 + 24,
    });
    expect(Object.keys((await stored(mira)).values)).not.toContain("home_town");
    // Another client's profile holding the same key is not touched.
    expect(await stored(other)).toMatchObject({ values: { home_town: "Bergen" }, sourceMessages: { home_town: 9 } });
  });

  it("takes field names in any script's letters, and still refuses one starting with a digit or holding punctuation", async () => {
    const saved = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          field("prénom étudiant", "text", "Personal Contact Information", "user_profile"),
          field("学部", "text", "Academic Profile", "user_profile"),
        ],
      },
    });
    expect(saved.status).toBe(200);
    const refused = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          field("1st_choice", "text", "Academic Profile", "user_profile"),
          field("name-with-dash", "text", "Academic Profile", "user_profile"),
        ],
      },
    });
    expect(Object.keys(refused.body.errors)).toEqual([
      "personalisation_config_details.0.name",
      "personalisation_config_details.1.name",
    ]);
    const { body } = await call("GET", `${base(northfield)}?model_type=user_profile`, { token: clientAdmin });
    const ids = body.personalisation_config_details
      .filter((f: { name: string }) => ["prénom étudiant", "学部"].includes(f.name))
      .map((f: { id: number }) => f.id);
    expect(ids).toHaveLength(2);
    for (const record_id of ids)
      await call("DELETE", `${base(northfield)}/delete_record`, { token: clientAdmin, body: { record_id } });
  });

  it("refuses a name the assistant reads as one it has, differing only in spaces, _ or how its accents are written", async () => {
    const first = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          field("home  town", "text", "Personal Contact Information", "user_profile"),
          // A no-break space (pasted from a document) and an input method's full-width one are spaces.
          field("birth\u00a0year", "number", "Personal Contact Information", "user_profile"),
          field("学部\u3000名", "text", "Academic Profile", "user_profile"),
          // Sixty letters, each written with a combining accent: 120 characters typed, 60 stored.
          field("e\u0301".repeat(60), "text", "Others", "user_profile"),
          // "é" as e and a combining accent, as some keyboards and pasted text write it.
          field("e\u0301cole", "text", "Academic Profile", "user_profile"),
        ],
      },
    });
    expect(first.status).toBe(200);
    const stored = (first.body.personalisation_config_details as { name: string; model_type: string }[])
      .filter((f) => f.model_type === "user_profile")
      .map((f) => f.name);
    // Stored as a visitor's message writes it: one space, the accent composed.
    expect(stored).toEqual(
      expect.arrayContaining(["home town", "\u00e9cole", "birth year", "学部 名", "\u00e9".repeat(60)]),
    );
    expect(stored).not.toContain("home  town");
    const again = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          field("Home_Town", "text", "Others", "user_profile"),
          field("\u00c9cole", "text", "Others", "user_profile"),
        ],
      },
    });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({
      "personalisation_config_details.0.name": ["A field named Home_Town already exists in this model"],
      "personalisation_config_details.1.name": ["A field named \u00c9cole already exists in this model"],
    });
    const { body } = await call("GET", `${base(northfield)}?model_type=user_profile`, { token: clientAdmin });
    for (const { id } of (body.personalisation_config_details as { id: number; name: string }[]).filter((f) =>
      ["home town", "\u00e9cole", "birth year", "学部 名", "\u00e9".repeat(60)].includes(f.name),
    ))
      await call("DELETE", `${base(northfield)}/delete_record`, { token: clientAdmin, body: { record_id: id } });
  });

  it("refuses missing names, types and groups, and a name already in the model, next to the field", async () => {
    const bad = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: {
        personalisation_config_details: [
          { name: "", field_type: "text", group: "Others", model_type: "user_profile" },
          { name: "email", field_type: "date", group: "Others", model_type: "user_profile" },
          { name: "phone", field_type: "text", group: "Somewhere", model_type: "user_profile" },
        ],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({
      "personalisation_config_details.0.name": ["This string is required"],
      "personalisation_config_details.1.field_type": ["Choose a type: text, number, boolean, array or json"],
      "personalisation_config_details.2.group": ["Choose a group"],
    });
    const twice = await call("POST", `${base(northfield)}/create_and_update`, {
      token: clientAdmin,
      body: { personalisation_config_details: [field("FIRST_NAME", "text", "Others", "user_profile")] },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors["personalisation_config_details.0.name"]).toEqual([
      "A field named FIRST_NAME already exists in this model",
    ]);
    // The same name in the other model is fine.
    expect(
      (
        await call("POST", `${base(northfield)}/create_and_update`, {
          token: clientAdmin,
          body: { personalisation_config_details: [field("first_name", "text", "Others")] },
        })
      ).status,
    ).toBe(200);
  });

  it("deletes one field; client users read but cannot change; other clients are not found", async () => {
    const [row] = await host.deps.db.select().from(profileFields).where(eq(profileFields.name, "first_name"));
    expect(
      (await call("DELETE", `${base(northfield)}/delete_record`, { token: clientUser, body: { record_id: row.id } }))
        .status,
    ).toBe(403);
    expect(
      (await call("DELETE", `${base(shop)}/delete_record`, { token: clientAdmin, body: { record_id: row.id } })).status,
    ).toBe(404);
    const removed = await call("DELETE", `${base(northfield)}/delete_record`, {
      token: clientAdmin,
      body: { record_id: row.id },
    });
    expect(removed.body).toEqual({ success: true, message: "Deleted first_name" });
    expect(
      (await call("DELETE", `${base(northfield)}/delete_record`, { token: clientAdmin, body: { record_id: row.id } }))
        .status,
    ).toBe(404);
  });

  it("imports another client's model, replacing this one's in one transaction; unknown or unseen codes are a clear 400", async () => {
    const [shopApp] = await host.deps.db.select().from(clientApps).where(eq(clientApps.id, shop));
    const shopCode = shopApp.urlCode;
    await call("POST", `${base(shop)}/create_and_update`, {
      token: admin,
      body: { personalisation_config_details: [field("budget", "number", "Budgets & Financials", "user_profile")] },
    });
    const unknown = await call("POST", `${base(northfield)}/import_config`, {
      token: admin,
      body: { import_app_code: "nowhere" },
    });
    expect(unknown).toMatchObject({ status: 400, body: { message: "No client with the code nowhere" } });
    // The client admin of Northfield may not see the other client: it is answered like an unknown one.
    const unseen = await call("POST", `${base(northfield)}/import_config`, {
      token: clientAdmin,
      body: { import_app_code: shopCode },
    });
    expect(unseen.body.message).toBe(`No client with the code ${shopCode}`);
    const programBefore = (await call("GET", `${base(northfield)}?model_type=program_profile`, { token: admin })).body
      .personalisation_config_details;
    const imported = await call("POST", `${base(northfield)}/import_config`, {
      token: admin,
      body: { import_app_code: shopCode, model_type: "user_profile" },
    });
    expect(imported.body).toMatchObject({ status: "success", message: `Imported 1 field from ${shopApp.clientName}` });
    expect(imported.body.configs.map((c: { name: string }) => c.name)).toEqual(["budget"]);
    // The program model was not touched.
    expect(
      (await call("GET", `${base(northfield)}?model_type=program_profile`, { token: admin })).body
        .personalisation_config_details,
    ).toEqual(programBefore);
    // History says the fields were imported, but not from which client: everyone who may read this
    // client reads its History, the read-only Client who cannot see the other client included.
    const [latest] = (await call("GET", `/v1/apps/${northfield}/history?kind=data_model`, { token: clientUser })).body
      .data;
    expect(latest.summary.startsWith("Import from another client: User profile data model: ")).toBe(true);
    expect(JSON.stringify(latest)).not.toContain(shopApp.clientName);
    expect(JSON.stringify(latest)).not.toContain(shopCode);
  });

  it("refuses to import an empty model, which would only delete this client's fields", async () => {
    const [shopApp] = await host.deps.db.select().from(clientApps).where(eq(clientApps.id, shop));
    const before = (await call("GET", `${base(northfield)}?model_type=program_profile`, { token: admin })).body
      .personalisation_config_details;
    const refused = await call("POST", `${base(northfield)}/import_config`, {
      token: admin,
      body: { import_app_code: shopApp.urlCode, model_type: "program_profile" },
    });
    const message = `${shopApp.clientName} has no fields in its program profile data model: nothing to import, nothing was changed`;
    expect(refused).toMatchObject({ status: 400, body: { message, errors: { import_app_code: [message] } } });
    expect(
      (await call("GET", `${base(northfield)}?model_type=program_profile`, { token: admin })).body
        .personalisation_config_details,
    ).toEqual(before);
  });
});

describe("the recommendation model build", () => {
  beforeAll(async () => {
    site.setPage(
      "/programs/mba",
      "MBA | Northfield",
      "<h1>Master of Business Administration</h1><p>The MBA takes two years full-time. A GMAT score is not required for applicants with work experience.</p><p>Tuition: 32,000 per year.</p>",
    );
    site.setPage(
      "/programs/cs",
      "Computer Science | Northfield",
      "<h1>Computer Science (BS)</h1><p>A four-year program. Students choose a concentration in software engineering, data science or security.</p>",
    );
    await indexPages(
      host,
      admin,
      northfield,
      ["/programs/nursing", "/programs/mba", "/programs/cs", "/about"].map((p) => `${site.base}${p}`),
    );
    await call("POST", `${base(northfield)}/create_and_update`, {
      token: admin,
      body: {
        personalisation_config_details: [
          field(
            "duration_years",
            "number",
            "Scheduling & Duration",
            "program_profile",
            "How many years the program takes",
          ),
          field(
            "gmat_required",
            "boolean",
            "Program Eligibility Requirements",
            "program_profile",
            "Whether a GMAT score is required",
          ),
          field("tuition", "number", "Budgets & Financials", "program_profile", "Tuition per year or semester"),
          field("concentrations", "array", "Program Structure", "program_profile", "Concentrations to choose from"),
        ],
      },
    });
  });

  const programs = async () => (await call("GET", `${base(northfield)}/programs`, { token: clientUser })).body;

  it("finds the programs in the indexed pages and fills the program model's fields from what they state", async () => {
    expect((await programs()).status.state).toBe("never");
    expect(
      (await call("POST", `${base(northfield)}/recommendation_model_init`, { token: clientUser, body: {} })).status,
    ).toBe(403);
    // Asked three times at once: one build.
    const asked = await Promise.all(
      [1, 2, 3].map(() =>
        call("POST", `${base(northfield)}/recommendation_model_init`, { token: clientAdmin, body: {} }),
      ),
    );
    const building = (answer: (typeof asked)[number]) => answer.body.message.startsWith("Building");
    const started = asked.find(building)!;
    // The others meet that build. On a loaded machine a request can reach the API only after the
    // build has finished (it is quick), and that one starts the next: one at a time, never two.
    const others = asked.filter((answer) => !building(answer)).map((answer) => answer.body.message);
    expect(others.length).toBeGreaterThanOrEqual(1);
    for (const message of others) expect(message).toBe("The recommendation model is already being built");
    expect(started.body).toMatchObject({
      success: true,
      message: "Building the recommendation model. This might take some time.",
      job_id: expect.any(String),
    });
    const done = await until("the build", async () => {
      const body = await programs();
      return ["completed", "failed"].includes(body.status.state) ? body : null;
    });
    expect(done.status).toMatchObject({
      state: "completed",
      method: "rules",
      error: null,
      progress: { pages: 4, programs: 3 },
    });
    const byName = Object.fromEntries(done.programs.map((p: { name: string }) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual([
      "Computer Science (BS)",
      "Master of Business Administration",
      "Nursing (BSN)",
    ]);
    expect(byName["Master of Business Administration"]).toMatchObject({
      source_url: `${site.base}/programs/mba`,
      values: { duration_years: 2, gmat_required: false, tuition: 32000 },
      evidence: { gmat_required: "A GMAT score is not required for applicants with work experience." },
    });
    expect(byName["Computer Science (BS)"].values).toMatchObject({
      duration_years: 4,
      concentrations: ["software engineering", "data science", "security"],
    });
    expect(byName["Computer Science (BS)"].values).not.toHaveProperty("tuition");
    expect(byName["Nursing (BSN)"].values.duration_years).toBe(4);
    expect(byName["Nursing (BSN)"].values.tuition).toBe(12400);
  });

  it("refuses to build without a program model", async () => {
    const refused = await call("POST", `${base(shop)}/recommendation_model_init`, { token: admin, body: {} });
    expect(refused).toMatchObject({
      status: 400,
      body: { message: "Add fields to the program profile data model before building the recommendation model" },
    });
  });

  it("with LLM_BASE_URL fills fields with an OpenAI-compatible model and keeps only answers of the right type", async () => {
    const asked: { model: string; fields: string[] }[] = [];
    const model = await startStandInModel((request) => {
      const content = JSON.parse(request.user);
      asked.push({ model: request.model, fields: content.fields.map((f: { name: string }) => f.name) });
      const answer =
        content.program === "Nursing (BSN)"
          ? { duration_years: 4, gmat_required: "no", tuition: 12400, concentrations: null }
          : {};
      return JSON.stringify(answer);
    }, "local-test");
    const previous = host.deps.config.llm;
    host.deps.config.llm = model.config;
    try {
      await call("POST", `${base(northfield)}/recommendation_model_init`, { token: admin, body: {} });
      const done = await until("the model build", async () => {
        const body = await programs();
        return body.status.state === "completed" && body.status.method === "llm" ? body : null;
      });
      expect(asked).toHaveLength(3);
      expect(asked[0].model).toBe("local-test");
      expect(asked[0].fields).toEqual(
        expect.arrayContaining(["duration_years", "gmat_required", "tuition", "concentrations"]),
      );
      const nursing = done.programs.find((p: { name: string }) => p.name === "Nursing (BSN)");
      // "no" is not a boolean: the model's answer is dropped and the rule-based value (if any) stands.
      expect(nursing.values).toMatchObject({ duration_years: 4, tuition: 12400 });
      expect(nursing.values.gmat_required).not.toBe("no");
      expect(nursing.evidence.gmat_required ?? "").not.toBe("Filled by the language model from the program's page");
      expect(nursing.evidence.tuition).toBe("Filled by the language model from the program's page");
    } finally {
      host.deps.config.llm = previous;
      model.close();
    }
  });
});

describe("the programs of the last build", () => {
  it("lists programs of one name in the order the build found them, however often one was changed since", async () => {
    await host.deps.db.delete(programRecords).where(eq(programRecords.appId, shop));
    const pages = ["/first", "/second", "/third"].map((path) => `${site.base}${path}`);
    const rows = await host.deps.db
      .insert(programRecords)
      .values(pages.map((sourceUrl) => ({ appId: shop, name: "Nursing", sourceUrl })))
      .returning();
    // A change writes the row anew, at the end of the table on PostgreSQL: read in storage order, it
    // would come last.
    await host.deps.db
      .update(programRecords)
      .set({ values: { duration_years: 4 } })
      .where(eq(programRecords.id, rows[0].id));
    // With the table's statistics up to date (autovacuum's analyse), it is read in storage order.
    await host.deps.db.execute(sql`analyze program_records`);
    const { body } = await call("GET", `${base(shop)}/programs`, { token: admin });
    expect(body.programs.map((p: { source_url: string }) => p.source_url)).toEqual(pages);
    await host.deps.db.delete(programRecords).where(eq(programRecords.appId, shop));
  });

  it("never shows a completed build with the programs of the build before it, when it completes between the two reads", async () => {
    const [build] = await host.deps.db
      .insert(recommendationBuilds)
      .values({ appId: shop, state: "running", method: "rules" })
      .returning();
    await host.deps.db
      .insert(programRecords)
      .values({ appId: shop, name: "Program of the build before", sourceUrl: `${site.base}/before` });
    // The build completes right after the endpoint's first statement, before its second.
    const completeTheBuild = () =>
      host.deps.db.transaction(async (tx) => {
        await tx.delete(programRecords).where(eq(programRecords.appId, shop));
        await tx
          .insert(programRecords)
          .values({ appId: shop, name: "Program of this build", sourceUrl: `${site.base}/this` });
        await tx
          .update(recommendationBuilds)
          .set({ state: "completed", finishedAt: new Date() })
          .where(eq(recommendationBuilds.id, build.id));
      });
    const driver = (host.handle.kind === "pglite" ? host.handle.pglite : host.handle.pool) as unknown as {
      query: (...args: unknown[]) => Promise<unknown>;
    };
    const query = driver.query;
    let completed = false;
    driver.query = async function (this: unknown, ...args: unknown[]) {
      const text = typeof args[0] === "string" ? args[0] : ((args[0] as { text?: string })?.text ?? "");
      if (completed || !/program_records|recommendation_builds/.test(text)) return query.apply(this, args);
      completed = true;
      driver.query = query;
      const firstRead = await query.apply(this, args);
      await completeTheBuild();
      return firstRead;
    };
    try {
      const { body } = await call("GET", `${base(shop)}/programs`, { token: admin });
      expect(completed).toBe(true);
      const names = body.programs.map((p: { name: string }) => p.name);
      if (body.status.state === "completed") expect(names).toEqual(["Program of this build"]);
      else expect(body.status.state).toBe("running");
    } finally {
      driver.query = query;
    }
  });
});
