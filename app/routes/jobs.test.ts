import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import { NOT_YOURS_TO_CHANGE } from "~/lib/messages";
import { action as jobsAction, loader as jobsLoader } from "./jobs._index";
import { loader as queueLoader } from "./jobs.queues.$queue";

let host: Awaited<ReturnType<typeof startTestHost>>;
let cookie: string;
beforeAll(async () => {
  host = await startTestHost();
  cookie = await signInToConsole(host, "admin@example.com");
});
afterAll(async () => {
  await host?.close();
});

const context = () => testContext(host);
const dashboard = (search: string) =>
  loaderJson(jobsLoader, { request: getRequest(`/jobs${search}`, cookie), context: context(), params: {} });

describe("the jobs monitor's pages", () => {
  it("shows the last page for a page past the end (its last jobs retried or cancelled, an old link)", async () => {
    const { queues } = await dashboard("");
    // A job at least, so that the list has a last page.
    const ran = await settle(() =>
      jobsAction({
        request: formRequest("/jobs", { intent: "run", queue: queues[0].name }, cookie),
        context: context(),
        params: {},
      }),
    );
    await expect(ran).toSendToast({ type: "success", description: `Job queued (${queues[0].name})` });
    const first = await dashboard("");
    expect(first.jobs.total_count).toBeGreaterThan(0);

    const past = await dashboard(`?page=${first.jobs.total_pages + 5}`);
    expect(past.jobs.page).toBe(past.jobs.total_pages);
    expect(past.jobs.jobs.length).toBeGreaterThan(0);

    const queue = await loaderJson(queueLoader, {
      request: getRequest(`/jobs/queues/${queues[0].name}?page=99`, cookie),
      context: context(),
      params: { queue: queues[0].name },
    });
    expect(queue.jobs.page).toBe(queue.jobs.total_pages);
    expect(queue.jobs.jobs.length).toBeGreaterThan(0);
  });
});

describe("the jobs monitor's buttons", () => {
  it("refuse anyone but staff with 403 before reading the form, rather than sending them to a page they cannot open", async () => {
    const clientAdmin = await signInToConsole(host, "client.admin@example.com");
    const posts: Record<string, string>[] = [{ intent: "run", queue: "website-discover" }, { intent: "nonsense" }];
    for (const fields of posts) {
      const refused = await settle(() =>
        jobsAction({ request: formRequest("/jobs", fields, clientAdmin), context: context(), params: {} }),
      );
      expect(refused.status).toBe(403);
      expect(await refused.text()).toBe(NOT_YOURS_TO_CHANGE);
    }
  });
});
