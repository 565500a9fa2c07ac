import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorMessageOf } from "~/components/RouteError";
import { NOT_SAVED_JUST_NOW, NOT_SHOWN_JUST_NOW } from "~/lib/messages";
import { newRequestScope, type ConsoleContext } from "~/server/context.server";
import { formRequest, getRequest, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { startTestHostOverRelay } from "../../tests/support/database-relay";
import { startTestHost } from "../../tests/support/test-host";
import { withApiUnavailable } from "../../tests/support/unavailable-api";
import { until } from "../../tests/support/wait";
import * as personality from "./$appName.agent.$agentName.controls.ai-personality";
import * as testQuestions from "./$appName.agent.$agentName.controls.test-questions";
import * as integrations from "./$appName.agent.$agentName.integrations";

const PAGE = "/northfield/agent/admissions/controls/ai-personality";
const params = { appName: "northfield", agentName: "admissions" };
const TYPED = { intent: "save", prompt_input_raw: "Be brief.\r\nBe kind." };

/** What a loader or action threw (a page's error screen shows it); fails the test if it answered. */
async function thrownBy(run: () => Promise<unknown>) {
  const outcome = await run().then(
    () => null,
    (error: unknown) => ({ error }),
  );
  if (!outcome) throw new Error("it answered rather than failed");
  return outcome.error;
}

/** The API's write of a control: what the save sends once it has read what it needs. */
const controlsWrite = (request: Request) =>
  request.method !== "GET" && new URL(request.url).pathname.endsWith("/controls");

describe("the console while the API cannot reach its data (its 503)", () => {
  let host: Awaited<ReturnType<typeof startTestHost>>;
  let cookie: string;
  beforeAll(async () => {
    host = await startTestHost();
    cookie = await signInToConsole(host, "admin@example.com");
  });
  afterAll(() => host?.close());
  const args = (request: Request, context: ConsoleContext) => ({ request, context, params });

  it("brings a save back to the same form, with what was typed, a word to try again and the API's Retry-After", async () => {
    const context = withApiUnavailable(testContext(host), controlsWrite);
    const reply = await settle(() => personality.action(args(formRequest(PAGE, TYPED, cookie), context)));
    expect(reply.status).toBe(503);
    expect(reply.headers.get("retry-after")).toBe("5");
    const body = await reply.json();
    expect(body.initialValue.prompt_input_raw).toBe(TYPED.prompt_input_raw);
    expect(body.error[""]).toEqual([NOT_SAVED_JUST_NOW]);
  });

  it("keeps what was typed in a post it could not start, for the page that answers it to send again", async () => {
    const context = { ...withApiUnavailable(testContext(host)), requestScope: newRequestScope() };
    const error = await thrownBy(() => personality.action(args(formRequest(`${PAGE}?index`, TYPED, cookie), context)));
    expect(errorMessageOf(error)).toBe(NOT_SAVED_JUST_NOW);
    expect(context.requestScope.interruptedPost).toEqual({ to: `${PAGE}?index`, fields: Object.entries(TYPED) });
  });

  it("keeps it for the page drawn after the post, whose loaders cannot read either, and says it was not saved", async () => {
    // One browser request: the action, then the page's loaders, sharing the request's scope.
    const context = { ...withApiUnavailable(testContext(host), controlsWrite), requestScope: newRequestScope() };
    const reply = await settle(() => personality.action(args(formRequest(PAGE, TYPED, cookie), context)));
    expect(reply.status).toBe(503);
    const error = await thrownBy(() => personality.loader(args(getRequest(PAGE, cookie), withApiUnavailable(context))));
    expect(errorMessageOf(error)).toBe(NOT_SAVED_JUST_NOW);
    expect(context.requestScope.interruptedPost?.fields).toEqual(Object.entries(TYPED));
  });

  it("passes the Retry-After on with a refused test question, question import and integration, what was typed kept", async () => {
    const writeTo = (part: string) => (request: Request) =>
      request.method !== "GET" && new URL(request.url).pathname.includes(part);
    const agentPage = (screen: string) => `/northfield/agent/admissions/${screen}`;
    const question = { intent: "add", question: "Where do first-years live?", expect_text: "Lakeside Hall" };
    const refusedQuestion = await settle(() =>
      testQuestions.action(
        args(
          formRequest(agentPage("controls/test-questions"), question, cookie),
          withApiUnavailable(testContext(host), writeTo("test_questions")),
        ),
      ),
    );
    expect(refusedQuestion.status).toBe(503);
    expect(refusedQuestion.headers.get("retry-after")).toBe("5");
    expect((await refusedQuestion.json()).values.question).toBe(question.question);

    const csv = new FormData();
    csv.append("intent", "import");
    csv.append("file", new File(["question,expect_text\r\nWhere do first-years live?,Lakeside Hall\r\n"], "q.csv"));
    const refusedImport = await settle(() =>
      testQuestions.action(
        args(
          new Request(`http://localhost${agentPage("controls/test-questions")}`, {
            method: "POST",
            body: csv,
            headers: { cookie },
          }),
          withApiUnavailable(testContext(host), writeTo("test_questions")),
        ),
      ),
    );
    expect(refusedImport.status).toBe(503);
    expect(refusedImport.headers.get("retry-after")).toBe("5");
    expect((await refusedImport.json()).importErrors).toEqual([NOT_SAVED_JUST_NOW]);

    const link = {
      intent: "save",
      external_system: "salesforce",
      usecase: "lead_sync",
      environment: "staging",
      "settings.instance_url": "https://northfield.my.salesforce.com",
      "settings.client_id": "3MVG9-key",
      "settings.client_secret": "s3cret-value",
      "settings.lead_source": "",
    };
    const refusedLink = await settle(() =>
      integrations.action(
        args(
          formRequest(agentPage("integrations?link=salesforce"), { ...link, name: "Leads" }, cookie),
          withApiUnavailable(testContext(host), writeTo("integrations")),
        ),
      ),
    );
    expect(refusedLink.status).toBe(503);
    expect(refusedLink.headers.get("retry-after")).toBe("5");
    expect((await refusedLink.json()).values.name).toBe("Leads");
  });

  it("says a page cannot be read just now, rather than that something went wrong", async () => {
    const context = withApiUnavailable(testContext(host));
    const error = await thrownBy(() => personality.loader(args(getRequest(PAGE, cookie), context)));
    expect(errorMessageOf(error)).toBe(NOT_SHOWN_JUST_NOW);
  });
});

// The same with a database that really goes away, reached through a relay the test takes down
// (tests/support/database-relay.ts). Real PostgreSQL only.
describe.skipIf(!process.env.TEST_DATABASE_URL)("the console while its database goes away", () => {
  let outage: Awaited<ReturnType<typeof startTestHostOverRelay>>;
  let cookie: string;
  beforeAll(async () => {
    outage = await startTestHostOverRelay();
    cookie = await signInToConsole(outage.host, "admin@example.com");
  }, 60_000);
  afterAll(() => outage?.close());
  const args = (request: Request, context: ConsoleContext = testContext(outage.host)) => ({ request, context, params });

  it("brings a save whose write was cut back to the same form, with what was typed", async () => {
    outage.relay.stallOn('insert into "controls"');
    const saving = settle(() => personality.action(args(formRequest(PAGE, TYPED, cookie))));
    await until("the save's write to be sent", async () => outage.relay.stalled());
    outage.relay.cutConnections();
    const reply = await saving;
    expect(reply.status).toBe(503);
    expect(reply.headers.get("retry-after")).toBe("5");
    const body = await reply.json();
    expect(body.initialValue.prompt_input_raw).toBe(TYPED.prompt_input_raw);
    expect(body.error[""]).toEqual([NOT_SAVED_JUST_NOW]);
  });

  it("keeps what was typed in a post made while the database is away, and says a page cannot be read", async () => {
    outage.relay.down();
    try {
      const context = { ...testContext(outage.host), requestScope: newRequestScope() };
      const error = await thrownBy(() => personality.action(args(formRequest(PAGE, TYPED, cookie), context)));
      expect(errorMessageOf(error)).toBe(NOT_SAVED_JUST_NOW);
      expect(context.requestScope.interruptedPost?.fields).toEqual(Object.entries(TYPED));
      const page = await thrownBy(() => personality.loader(args(getRequest(PAGE, cookie))));
      expect(errorMessageOf(page)).toBe(NOT_SHOWN_JUST_NOW);
    } finally {
      outage.relay.up();
    }
  });
});
