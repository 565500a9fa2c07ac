import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appearances, clientApps, integrations, profileFields } from "../db/schema";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let appId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  admin = (await signInAs(host, "admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
});
afterAll(() => host?.close());

const SECRET = "hubspot-token-5d1e8f0a9c";

describe("profile data models and integrations in the client export", () => {
  it("carries both models' fields and the integrations without their secrets; an import restores them and keeps stored secrets", async () => {
    await call("POST", `/v1/apps/${appId}/personalisation_config_details/create_and_update`, {
      token: admin,
      body: {
        personalisation_config_details: [
          {
            name: "gpa",
            field_type: "number",
            group: "Academic Profile",
            model_type: "user_profile",
            definition: "Grade point average",
          },
          {
            name: "duration_years",
            field_type: "number",
            group: "Scheduling & Duration",
            model_type: "program_profile",
          },
        ],
      },
    });
    await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: admin,
      body: {
        integrations: [
          {
            external_system: "hubspot",
            usecase: "lead_sync",
            settings_json: { private_app_token: SECRET, owner_email: "admissions@northfield.edu" },
          },
        ],
      },
    });
    const exported = await call("POST", `/v1/apps/${appId}/exports/export`, { token: admin });
    const text = (await host.deps.storage.get(`exports/${exported.body.file_name}`))!.toString();
    const content = JSON.parse(text);
    expect(content.profile_fields).toEqual([
      {
        name: "duration_years",
        definition: "",
        field_type: "number",
        group: "Scheduling & Duration",
        model_type: "program_profile",
      },
      {
        name: "gpa",
        definition: "Grade point average",
        field_type: "number",
        group: "Academic Profile",
        model_type: "user_profile",
      },
    ]);
    expect(content.integrations).toEqual([
      {
        name: "HubSpot",
        external_system: "hubspot",
        usecase: "lead_sync",
        environment: "staging",
        settings: { owner_email: "admissions@northfield.edu" },
      },
    ]);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("enc:v1:");

    const [sealed] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    await host.deps.db.delete(profileFields).where(eq(profileFields.appId, appId));
    await host.deps.db
      .update(integrations)
      .set({ settings: { private_app_token: sealed.settings.private_app_token } })
      .where(eq(integrations.id, sealed.id));
    expect(
      (await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: exported.body.file_name } }))
        .status,
    ).toBe(200);
    const fields = await host.deps.db.select().from(profileFields).where(eq(profileFields.appId, appId));
    expect(fields.map((f) => `${f.modelType}:${f.name}`).sort()).toEqual([
      "program_profile:duration_years",
      "user_profile:gpa",
    ]);
    const [restored] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    expect(restored.settings).toEqual({
      owner_email: "admissions@northfield.edu",
      private_app_token: sealed.settings.private_app_token,
    });
    // Importing again changes nothing.
    await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: exported.body.file_name } });
    expect(await host.deps.db.select().from(profileFields).where(eq(profileFields.appId, appId))).toHaveLength(2);
  });

  it("carries the widget's appearances, stage and production, and restores them", async () => {
    await call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=admissions`, {
      token: admin,
      body: { appearance: { value: { primary_color: "#123456" } } },
    });
    await call("PUT", `/v1/appearances?appId=${appId}&triggerPoint=admissions`, {
      token: admin,
      body: { appearance: { value: { primary_color: "#654321" } }, targetEnv: "production" },
    });
    const exported = await call("POST", `/v1/apps/${appId}/exports/export`, { token: admin });
    const content = JSON.parse((await host.deps.storage.get(`exports/${exported.body.file_name}`))!.toString());
    expect(content.appearances).toEqual([
      { trigger_point: "admissions", environment: "stage", values: { primary_color: "#123456" } },
      { trigger_point: "admissions", environment: "prod", values: { primary_color: "#654321" } },
    ]);
    await host.deps.db.delete(appearances).where(eq(appearances.appId, appId));
    await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: exported.body.file_name } });
    const diff = await call("POST", `/v1/appearances/get_diff?appId=${appId}&triggerPoint=admissions`, {
      token: admin,
      body: { appearance: { value: {} } },
    });
    expect(diff.body.current_stage_style_guide.primary_color).toBe("#123456");
    expect(diff.body.current_prod_style_guide.primary_color).toBe("#654321");
  });
});
