import { NOT_SHOWN_JUST_NOW } from "~/lib/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  testContext,
  signInToConsole,
} from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import {
  INTEGRATION_GROUP_TITLES,
  SECRET_MASK_PREFIX,
  type ConfigSystem,
  type Integration,
  type IntegrationsList,
} from "@contract";
import type { IntegrationActionData } from "~/server/integrations.server";
import { action, loader } from "./$appName.agent.$agentName.integrations";

let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host?.close();
});

const PAGE = "/northfield/agent/admissions/integrations";
const params = { appName: "northfield", agentName: "admissions" };
const args = (request: Request, context = testContext(host)) => ({ request, context, params });

interface PageData {
  configs: IntegrationsList["configs"] | null;
  integrations: Integration[];
  error: string | null;
  drawer: { system: ConfigSystem; usecase: { usecase: string }; environment: string; saved: Integration | null } | null;
}
const load = async (cookie: string, search = "", context = testContext(host)): Promise<PageData> =>
  loaderJson(loader, args(getRequest(`${PAGE}${search}`, cookie), context));

/** What the drawer's form posts: its hidden choice, the name, each setting, and the save bar's button. */
const linkForm = (
  system: string,
  usecase: string,
  settings: Record<string, string>,
  extra: { name?: string; environment?: string } = {},
) => ({
  intent: "save",
  external_system: system,
  usecase,
  environment: extra.environment ?? "staging",
  name: extra.name ?? "",
  ...Object.fromEntries(Object.entries(settings).map(([setting, value]) => [`settings.${setting}`, value])),
});
const salesforce = (settings: Record<string, string>, extra: { name?: string; environment?: string } = {}) =>
  linkForm(
    "salesforce",
    "lead_sync",
    { instance_url: "", client_id: "", client_secret: "", lead_source: "", ...settings },
    extra,
  );
const post = (cookie: string, fields: Record<string, string>, search = "?link=salesforce") =>
  settle(() => action(args(formRequest(`${PAGE}${search}`, fields, cookie))));
const refusal = async (response: Response) => (await response.json()) as IntegrationActionData;

const SECRET = "s3cret-value-9876";
const savedSalesforce = async (cookie: string) => (await load(cookie, "?link=salesforce")).drawer!.saved!;

describe("the Integrations screen", () => {
  it("groups the catalogue's systems, each with icon, guide and use cases", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const page = await load(cookie);
    expect(page.error).toBeNull();
    expect(page.configs!.CRM.map((s) => s.name)).toEqual(
      expect.arrayContaining(["salesforce", "hubspot", "slate", "dynamics365"]),
    );
    expect(page.configs!.LMS.map((s) => s.name)).toEqual(
      expect.arrayContaining(["canvas", "moodle", "blackboard", "brightspace"]),
    );
    expect(page.configs!.CRM.every((s) => s.group === "CRM")).toBe(true);
    expect(page.configs!.LMS.every((s) => s.group === "LMS")).toBe(true);
    expect(INTEGRATION_GROUP_TITLES).toEqual({ CRM: "Agent System Integration", LMS: "Learning Management System" });
    expect(page.configs!.CRM.find((s) => s.name === "salesforce")).toMatchObject({
      icon: "/integrations/salesforce.svg",
      integration_guide: expect.stringMatching(/^https:\/\//),
    });
    expect(page.drawer).toBeNull();
  });

  it("opens a system's drawer by address, staging by default", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const open = await load(cookie, "?link=salesforce");
    expect(open.drawer).toMatchObject({
      system: { title: "Salesforce" },
      usecase: { usecase: "lead_sync" },
      environment: "staging",
      saved: null,
    });
    expect(
      open.drawer!.system.integration_settings[0].settings_json.find((f) => f.name === "client_secret"),
    ).toMatchObject({ secret: true, required: true });
    expect((await load(cookie, "?link=salesforce&environment=production")).drawer?.environment).toBe("production");
    expect((await load(cookie, "?link=nothing")).drawer).toBeNull();
  });

  it("shows 'Error: {message}' when the integrations cannot be loaded (an API that cannot reach its data: to try again shortly)", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const context = testContext(host);
    const failing = {
      ...context,
      apiFetch: async (request: Request) =>
        new URL(request.url).pathname.endsWith("/integrations")
          ? Response.json({ message: "Integrations are resting" }, { status: 503 })
          : context.apiFetch(request),
    };
    expect(await load(cookie, "?link=salesforce", failing)).toMatchObject({
      configs: null,
      drawer: null,
      error: `Error: ${NOT_SHOWN_JUST_NOW}`,
    });
  });

  it("checks required settings itself, keeping what was typed beside the messages (but never a new secret)", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const answer = await post(
      cookie,
      salesforce(
        {
          instance_url: "https://northfield.my.salesforce.com",
          client_secret: "typed-but-refused-1234",
          lead_source: "Chat",
        },
        { name: "Main org" },
      ),
    );
    expect(answer.status).toBe(400);
    const body = await refusal(answer);
    expect(body.errors).toEqual({ client_id: ["Consumer Key is required"] });
    expect(body.formError).toBe("Fill in the highlighted settings.");
    expect(body.values).toEqual({
      name: "Main org",
      settings: {
        instance_url: "https://northfield.my.salesforce.com",
        client_id: "",
        client_secret: "",
        lead_source: "Chat",
      },
    });
    expect(JSON.stringify(body)).not.toContain("typed-but-refused");

    const blank = await refusal(await post(cookie, salesforce({})));
    expect(Object.keys(blank.errors).sort()).toEqual(["client_id", "client_secret", "instance_url"]);
    expect(blank.errors.client_secret).toEqual(["Consumer Secret is required"]);
    expect((await load(cookie)).integrations.some((i) => i.external_system === "salesforce")).toBe(false);
  });

  it("names a missing setting and an address the API would refuse in the same answer", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const body = await refusal(await post(cookie, salesforce({ instance_url: "northfield.my.salesforce.com" })));
    expect(body.errors).toMatchObject({
      instance_url: [expect.stringMatching(/^Instance URL must be a full address starting with https:\/\//)],
      client_id: ["Consumer Key is required"],
      client_secret: ["Consumer Secret is required"],
    });
    expect(body.values.settings.instance_url).toBe("northfield.my.salesforce.com");
  });

  it("refuses a system, use case or environment the catalogue does not have", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const wrongEnvironment = await post(
      cookie,
      salesforce(
        { instance_url: "https://a.my.salesforce.com", client_id: "k", client_secret: "secret-secret-1" },
        { environment: "prod" },
      ),
    );
    expect(wrongEnvironment.status).toBe(400);
    expect((await refusal(wrongEnvironment)).formError).toBe("Choose staging or production.");
    expect((await refusal(await post(cookie, linkForm("oracle", "lead_sync", {}), "?link=oracle"))).formError).toBe(
      "Choose a system to link.",
    );
    expect((await refusal(await post(cookie, linkForm("canvas", "lead_sync", {}), "?link=canvas"))).formError).toBe(
      "Choose one of Canvas's use cases.",
    );
  });

  it("shows the API's refusals beside the fields", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    // A mask passes the console's required check, but with nothing stored behind it the API refuses it: beside the field.
    const dynamics = await post(
      cookie,
      linkForm("dynamics365", "lead_sync", {
        environment_url: "https://northfield.crm.dynamics.com",
        tenant_id: "t-1",
        client_id: "c-1",
        client_secret: `${SECRET_MASK_PREFIX}abcd`,
      }),
      "?link=dynamics365",
    );
    expect(dynamics.status).toBe(400);
    const body = await refusal(dynamics);
    expect(body.errors).toEqual({ client_secret: ["Client Secret is required"] });
    expect(body.values.settings.client_secret).toBe(`${SECRET_MASK_PREFIX}abcd`);
  });

  it("saves a link, closes the drawer with a toast, and shows its secret only masked", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const saved = await post(
      cookie,
      salesforce({
        instance_url: "https://northfield.my.salesforce.com",
        client_id: "3MVG9-key",
        client_secret: SECRET,
      }),
      "?link=salesforce&environment=staging",
    );
    expect(saved).toHaveRedirect(PAGE);
    await expect(saved).toSendToast({ type: "success", description: "Salesforce linked (staging)" });

    const page = await load(cookie, "?link=salesforce");
    expect(page.integrations.filter((i) => i.external_system === "salesforce").map((i) => i.environment)).toEqual([
      "staging",
    ]);
    expect(page.drawer!.saved).toMatchObject({
      name: "Salesforce",
      settings_json: { instance_url: "https://northfield.my.salesforce.com", client_id: "3MVG9-key" },
    });
    expect(page.drawer!.saved!.settings_json.client_secret).toBe(`${SECRET_MASK_PREFIX}9876`);
    expect(JSON.stringify(page)).not.toContain(SECRET);
    // Production is a link of its own: still empty.
    expect((await load(cookie, "?link=salesforce&environment=production")).drawer!.saved).toBeNull();
  });

  it("keeps the stored secret when its mask is posted back unchanged", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await savedSalesforce(cookie);
    const again = await post(
      cookie,
      salesforce(
        { ...before.settings_json, client_id: "3MVG9-new-key", lead_source: "Website Chat" },
        { name: "Northfield org" },
      ),
    );
    expect(again).toHaveRedirect();
    const after = await savedSalesforce(cookie);
    expect(after).toMatchObject({
      name: "Northfield org",
      settings_json: { client_id: "3MVG9-new-key", lead_source: "Website Chat" },
    });
    // The API masks by decrypting what it stores: the same mask means the original secret is still there.
    expect(after.settings_json.client_secret).toBe(`${SECRET_MASK_PREFIX}9876`);
  });

  it("replaces the stored secret when a new one is typed, and keeps that one after", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await savedSalesforce(cookie);
    expect(
      await post(cookie, salesforce({ ...before.settings_json, client_secret: "a-brand-new-secret-4321" })),
    ).toHaveRedirect();
    const replaced = await savedSalesforce(cookie);
    expect(replaced.settings_json.client_secret).toBe(`${SECRET_MASK_PREFIX}4321`);
    expect(await post(cookie, salesforce(replaced.settings_json))).toHaveRedirect();
    expect((await savedSalesforce(cookie)).settings_json.client_secret).toBe(`${SECRET_MASK_PREFIX}4321`);
  });

  it("answers 404 to a save under an agent the client does not have, and saves nothing", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const before = await savedSalesforce(cookie);
    const ghost = "/northfield/agent/ghost/integrations?link=salesforce";
    const response = await settle(() =>
      action({
        request: formRequest(
          ghost,
          salesforce({ ...before.settings_json, instance_url: "https://ghost.my.salesforce.com" }),
          cookie,
        ),
        context: testContext(host),
        params: { appName: "northfield", agentName: "ghost" },
      }),
    );
    expect(response.status).toBe(404);
    expect((await savedSalesforce(cookie)).settings_json.instance_url).toBe(before.settings_json.instance_url);
  });

  it("lets a client user look at a saved link but not save: 403", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const page = await load(cookie, "?link=salesforce");
    expect(page.drawer?.saved?.settings_json).toMatchObject({
      client_id: "3MVG9-new-key",
      client_secret: `${SECRET_MASK_PREFIX}4321`,
    });
    const refused = await post(
      cookie,
      salesforce({ instance_url: "https://x.my.salesforce.com", client_id: "a", client_secret: "b" }),
    );
    expect(refused.status).toBe(403);
    expect((await load(cookie, "?link=salesforce")).drawer?.saved?.settings_json.instance_url).toBe(
      "https://northfield.my.salesforce.com",
    );
  });
});
