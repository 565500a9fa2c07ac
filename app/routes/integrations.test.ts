import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeaderFrom, formRequest, getRequest, settle, testContext } from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import type { Integration, IntegrationsList } from "../../contract";
import { integrations as integrationsTable } from "../../api/db/schema";
import { SecretBox } from "../../api/integrations/secrets";
import { takeToast } from "~/server/toast.server";
import { action, loader } from "./$appName.agent.$agentName.integrations";
import { action as loginAction } from "./login";

let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => {
  await host?.close();
});

const PAGE = "/northfield/agent/admissions/integrations";
const params = { appName: "northfield", agentName: "admissions" };
const args = (request: Request) => ({ request, context: testContext(host), params });

async function signIn(email: string) {
  const response = await settle(() => loginAction({ request: formRequest("/login", { intent: "dev", email, redirectTo: "/" }), context: testContext(host), params: {} }));
  expect(response.status).toBe(302);
  return cookieHeaderFrom(response.headers.get("set-cookie"));
}
const toastOf = async (response: Response) => (await takeToast(getRequest("/", cookieHeaderFrom(response.headers.get("set-cookie"))))).toast;

interface PageData {
  configs: IntegrationsList["configs"] | null;
  integrations: Integration[];
  error: string | null;
  drawer: { system: { name: string; title: string }; usecase: { usecase: string }; environment: string; saved: Integration | null } | null;
}
async function load(cookie: string, search = "") {
  const response = await settle(() => loader(args(getRequest(`${PAGE}${search}`, cookie))));
  expect(response.status).toBe(200);
  return (await response.json()) as PageData;
}
const post = (cookie: string, fields: Record<string, string>, search = "?link=salesforce") => settle(() => action(args(formRequest(`${PAGE}${search}`, fields, cookie))));
const salesforce = (settings: Record<string, string>, extra: Record<string, string> = {}) => ({
  external_system: "salesforce", usecase: "lead_sync", environment: "staging", name: "", ...extra,
  ...Object.fromEntries(Object.entries(settings).map(([k, v]) => [`settings.${k}`, v])),
});

describe("the Integrations screen", () => {
  it("groups the catalogue's systems and opens a drawer by address, staging by default", async () => {
    const cookie = await signIn("client.admin@example.com");
    const page = await load(cookie);
    expect(page.configs!.CRM.map((s) => s.name)).toEqual(expect.arrayContaining(["salesforce", "hubspot", "slate", "dynamics365"]));
    expect(page.configs!.LMS.map((s) => s.name)).toEqual(expect.arrayContaining(["canvas", "moodle", "blackboard", "brightspace"]));
    expect(page.drawer).toBeNull();
    const open = await load(cookie, "?link=salesforce");
    expect(open.drawer).toMatchObject({ system: { title: "Salesforce" }, usecase: { usecase: "lead_sync" }, environment: "staging", saved: null });
    expect((await load(cookie, "?link=salesforce&environment=production")).drawer?.environment).toBe("production");
    expect((await load(cookie, "?link=nothing")).drawer).toBeNull();
  });

  it("checks required settings on the server, keeping everything typed", async () => {
    const cookie = await signIn("client.admin@example.com");
    const answer = await post(cookie, salesforce({ instance_url: "https://northfield.my.salesforce.com", client_id: "", client_secret: "", lead_source: "Chat" }, { name: "Main org" }));
    expect(answer.status).toBe(400);
    const body = await answer.json();
    expect(body.errors).toEqual({ client_id: ["Consumer Key is required"], client_secret: ["Consumer Secret is required"] });
    expect(body.values).toEqual({ name: "Main org", settings: { instance_url: "https://northfield.my.salesforce.com", client_id: "", client_secret: "", lead_source: "Chat" } });
  });

  it("saves a link with its secret encrypted, answers the mask, and keeps the secret when the mask is posted back", async () => {
    const cookie = await signIn("client.admin@example.com");
    const saved = await post(cookie, salesforce({ instance_url: "https://northfield.my.salesforce.com", client_id: "3MVG9-key", client_secret: "s3cret-value-9876", lead_source: "" }));
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(PAGE);
    expect(await toastOf(saved)).toMatchObject({ type: "success", description: "Salesforce linked (staging)" });

    const reopened = await load(cookie, "?link=salesforce");
    const mask = reopened.drawer!.saved!.settings_json.client_secret;
    expect(mask).not.toContain("s3cret");
    expect(mask.endsWith("9876")).toBe(true);
    expect(JSON.stringify(reopened)).not.toContain("s3cret-value");

    // Changing the key while posting the mask back leaves the stored secret as it was.
    const again = await post(cookie, salesforce({ instance_url: "https://northfield.my.salesforce.com", client_id: "3MVG9-new-key", client_secret: mask, lead_source: "Website Chat" }));
    expect(again.status).toBe(302);
    const [row] = await host.deps.db.select().from(integrationsTable).where(eq(integrationsTable.externalSystem, "salesforce"));
    expect(row.settings.client_id).toBe("3MVG9-new-key");
    expect(row.settings.client_secret).not.toContain("s3cret");
    expect(new SecretBox(host.deps.config.jwtSecret).open(row.settings.client_secret)).toBe("s3cret-value-9876");
    expect((await load(cookie)).integrations.map((i) => [i.external_system, i.environment])).toEqual([["salesforce", "staging"]]);
  });

  it("lets a client user look but not save", async () => {
    const cookie = await signIn("client.user@example.com");
    expect((await load(cookie, "?link=salesforce")).drawer?.saved?.name).toBe("Salesforce");
    const refused = await post(cookie, salesforce({ instance_url: "https://x.my.salesforce.com", client_id: "a", client_secret: "b", lead_source: "" }));
    expect(refused.status).toBe(403);
  });
});
