import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRET_MASK_PREFIX } from "@contract";
import { integrations } from "../db/schema";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { SecretBox } from "./secrets";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let clientAdmin: string;
let clientUser: string;
let appId: number;
let otherId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ clientAdmin, clientUser, northfield: appId, harbor: otherId } = await demoCallers(host));
});
afterAll(() => host?.close());

const SECRET = "sf-consumer-secret-7a1c9e2b4d";
const salesforce = (settings: Record<string, string>, environment?: string) => ({
  integrations: [
    {
      external_system: "salesforce",
      usecase: "lead_sync",
      settings_json: settings,
      ...(environment ? { environment } : {}),
    },
  ],
});

describe("integrations", () => {
  it("lists the catalogue by group, each system with icon, guide and its use cases' settings", async () => {
    const { status, body } = await call("GET", `/v1/apps/${appId}/integrations`, { token: clientUser });
    expect(status).toBe(200);
    expect(body.configs.CRM.map((s: { name: string }) => s.name)).toEqual([
      "salesforce",
      "hubspot",
      "slate",
      "dynamics365",
    ]);
    expect(body.configs.LMS.map((s: { name: string }) => s.name)).toEqual([
      "canvas",
      "moodle",
      "blackboard",
      "brightspace",
    ]);
    const secretField = body.configs.CRM[0].integration_settings[0].settings_json.find(
      (f: { name: string }) => f.name === "client_secret",
    );
    expect(secretField).toEqual({
      name: "client_secret",
      title: "Consumer Secret",
      required: true,
      placeholder: "",
      info: "From the same connected app.",
      secret: true,
    });
    expect(body.configs.CRM[0]).toMatchObject({
      icon: "/integrations/salesforce.svg",
      integration_guide: expect.stringMatching(/^https:\/\//),
    });
    expect(body.integrations).toEqual([]);
  });

  it("checks required settings, and saves on staging by default with the secret sealed and masked", async () => {
    const missing = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce({ instance_url: "https://northfield.my.salesforce.com" }),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({
      "integrations.0.settings_json.client_id": ["Consumer Key is required"],
      "integrations.0.settings_json.client_secret": ["Consumer Secret is required"],
    });
    const saved = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce({
        instance_url: "https://northfield.my.salesforce.com",
        client_id: "3MVG9-key",
        client_secret: SECRET,
      }),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Saved Salesforce");
    expect(saved.body.integrations[0]).toMatchObject({
      name: "Salesforce",
      environment: "staging",
      usecase: "lead_sync",
      external_system: "salesforce",
      settings_json: {
        instance_url: "https://northfield.my.salesforce.com",
        client_id: "3MVG9-key",
        client_secret: "••••••2b4d",
      },
    });
    expect(JSON.stringify(saved.body)).not.toContain(SECRET);
    const [row] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    expect(row.settings.client_secret).toMatch(/^enc:v1:/);
    expect(JSON.stringify(row.settings)).not.toContain(SECRET);
    expect(new SecretBox("test-jwt-secret").open(row.settings.client_secret)).toBe(SECRET);
  });

  it("refuses one system's use case twice in one save, at the second row", async () => {
    const row = salesforce({ instance_url: "https://twice.my.salesforce.com", client_id: "x", client_secret: "y" })
      .integrations[0];
    const twice = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: { integrations: [row, row] },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual({ "integrations.1.usecase": ["Salesforce lead_sync (staging) appears twice"] });
  });

  it("refuses an address setting that is not a full web address", async () => {
    const bare = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce({ instance_url: "northfield.my.salesforce.com", client_id: "k", client_secret: "s-0001" }),
    });
    expect(bare.status).toBe(400);
    expect(bare.body.errors).toEqual({
      "integrations.0.settings_json.instance_url": [
        "Instance URL must be a full address starting with https://, like https://yourorg.my.salesforce.com",
      ],
    });
    // A secret's mask means "keep the stored one"; in an address setting it is text, and no address.
    const masked = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce({
        instance_url: `${SECRET_MASK_PREFIX}not an address`,
        client_id: "k",
        client_secret: "s-0001",
      }),
    });
    expect(masked.status).toBe(400);
    expect(Object.keys(masked.body.errors)).toEqual(["integrations.0.settings_json.instance_url"]);
  });

  it("refuses plain http and addresses no system on the internet has", async () => {
    const save = (instance_url: string) =>
      call("POST", `/v1/apps/${appId}/integrations/upsert`, {
        token: clientAdmin,
        body: salesforce({ instance_url, client_id: "k", client_secret: "s-0001" }),
      });
    const plain = await save("http://northfield.my.salesforce.com");
    expect(plain.body.errors["integrations.0.settings_json.instance_url"]).toEqual([
      "Instance URL must be a full address starting with https://, like https://yourorg.my.salesforce.com",
    ]);
    for (const [address, host] of [
      ["https://127.0.0.1:22/", "127.0.0.1"],
      ["https://169.254.169.254/latest/", "169.254.169.254"],
      ["https://10.1.2.3/", "10.1.2.3"],
      ["https://crm.internal/", "crm.internal"],
    ]) {
      const refused = await save(address);
      expect(refused.status, address).toBe(400);
      expect(refused.body.errors["integrations.0.settings_json.instance_url"], address).toEqual([
        `Instance URL must be an address on the internet: ${host} is a private or local address`,
      ]);
    }
  });

  it("refuses a secret typed onto its mask, which is neither the stored value nor a new one", async () => {
    const listed = (await call("GET", `/v1/apps/${appId}/integrations`, { token: clientAdmin })).body.integrations[0];
    const [before] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    const appended = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce({ ...listed.settings_json, client_secret: `${listed.settings_json.client_secret}-new-token` }),
    });
    expect(appended.status).toBe(400);
    expect(appended.body.errors["integrations.0.settings_json.client_secret"]).toEqual([
      "Type the whole new Consumer Secret: the dots stand for the value stored, which is kept only as it is shown",
    ]);
    const [after] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    expect(after.settings).toEqual(before.settings);
  });

  it("keeps the stored secret when the masked value (or nothing) is posted back, and replaces it when a new one is typed", async () => {
    const listed = (await call("GET", `/v1/apps/${appId}/integrations`, { token: clientAdmin })).body.integrations[0];
    const [before] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce({ ...listed.settings_json, lead_source: "Website Chat" }),
    });
    const [masked] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    expect(masked.settings.client_secret).toBe(before.settings.client_secret);
    expect(masked.settings.lead_source).toBe("Website Chat");
    await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce({ instance_url: listed.settings_json.instance_url, client_id: "3MVG9-key", client_secret: "" }),
    });
    const [blank] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    expect(blank.settings.client_secret).toBe(before.settings.client_secret);
    await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce({
        instance_url: listed.settings_json.instance_url,
        client_id: "3MVG9-key",
        client_secret: "a-brand-new-secret-value",
      }),
    });
    const [replaced] = await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId));
    expect(new SecretBox("test-jwt-secret").open(replaced.settings.client_secret)).toBe("a-brand-new-secret-value");
    // One row per system, use case and environment: production is a second link.
    await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: salesforce(
        { instance_url: "https://prod.my.salesforce.com", client_id: "k", client_secret: "prod-secret-0001" },
        "production",
      ),
    });
    expect(
      (await host.deps.db.select().from(integrations).where(eq(integrations.appId, appId)))
        .map((r) => r.environment)
        .sort(),
    ).toEqual(["production", "staging"]);
  });

  it("refuses unknown systems, use cases and settings; client users and other clients may not save", async () => {
    const unknown = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: { integrations: [{ external_system: "oracle", usecase: "lead_sync", settings_json: {} }] },
    });
    expect(unknown.body.errors).toEqual({ "integrations.0.external_system": ["No system named oracle"] });
    const usecase = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: { integrations: [{ external_system: "canvas", usecase: "lead_sync", settings_json: {} }] },
    });
    expect(usecase.body.errors).toEqual({ "integrations.0.usecase": ["Canvas has no use case lead_sync"] });
    const extra = await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
      token: clientAdmin,
      body: {
        integrations: [
          {
            external_system: "moodle",
            usecase: "course_catalog",
            settings_json: { site_url: "https://m.example", web_service_token: "tok-123456789", password: "x" },
          },
        ],
      },
    });
    expect(extra.body.errors).toEqual({ "integrations.0.settings_json.password": ["Moodle has no setting password"] });
    expect(
      (await call("POST", `/v1/apps/${appId}/integrations/upsert`, { token: clientUser, body: salesforce({}) })).status,
    ).toBe(403);
    expect((await call("GET", `/v1/apps/${otherId}/integrations`, { token: clientAdmin })).status).toBe(404);
    expect(
      (
        await call("POST", `/v1/apps/${appId}/integrations/upsert`, {
          token: clientAdmin,
          body: {
            integrations: [
              { external_system: "moodle", usecase: "course_catalog", settings_json: {}, environment: "prod" },
            ],
          },
        })
      ).body.errors,
    ).toEqual({ "integrations.0.environment": ["Choose staging or production"] });
  });
});
