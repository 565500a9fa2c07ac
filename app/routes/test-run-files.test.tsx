import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestRun } from "@contract";
import { RunResults } from "~/components/testing/Runs";
import { getRequest, loaderJson, signInToConsole, testContext } from "../../tests/support/console-context";
import { makePdf } from "../../tests/support/pdf";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { uploadPdf } from "../../tests/support/uploads";
import { until } from "../../tests/support/wait";
import * as runRoute from "./$appName.agent.$agentName.controls.test-questions_.runs.$runId";

/*
 * A test run's page over the real API, as its results show an uploaded file they cited: a link the
 * API signed as the run was read, and the file's name alone once it was deleted
 * (docs/decisions/023, "Later: a result's file link signed when the run is read").
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let cookie: string;
let appId: number;
const PAGE = "/northfield/agent/admissions/controls/test-questions";

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ clientAdmin: token, northfield: appId } = await demoCallers(host));
  cookie = await signInToConsole(host, "client.admin@example.com");
});
afterAll(async () => {
  await host?.close();
});

const loadRun = (runId: number) =>
  loaderJson(runRoute.loader, {
    request: getRequest(`${PAGE}/runs/${runId}`, cookie),
    context: testContext(host),
    params: { appName: "northfield", agentName: "admissions", runId: String(runId) },
  }) as Promise<{ run: TestRun }>;

describe("a test run's results citing an uploaded file", () => {
  it("link the file while it is the client's, and name it, unlinked and said to be deleted, once it is gone", async () => {
    const name = "Library hours.pdf";
    const { id: fileId } = await uploadPdf(
      host,
      token,
      appId,
      name,
      makePdf([["The library opens at eight in the morning on weekdays."]], "Library hours"),
    );
    await until("the file to be indexed", async () => {
      const files = (await call("GET", `/v1/files?app_id=${appId}`, { token })).body.files as {
        id: number;
        status: string;
      }[];
      return files.find((file) => file.id === fileId)?.status === "indexed";
    });
    // Tagged for the sandbox, the file answers in stage.
    expect(
      (await call("PATCH", `/v1/files/${fileId}`, { token, body: { app_id: appId, tags: ["sandbox"] } })).status,
    ).toBe(200);
    const added = await call("POST", `/v1/apps/${appId}/test_questions`, {
      token,
      body: { trigger_point: "admissions", question: "When does the library open on weekdays?", expect_source: name },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const queued = await call("POST", `/v1/apps/${appId}/test_runs`, {
      token,
      body: { trigger_point: "admissions", environment: "stage" },
    });
    const runId = queued.body.id as number;
    const { run } = await until("the run to finish", async () => {
      const data = await loadRun(runId);
      return data.run.status === "done" && data;
    });
    expect(run.results).toMatchObject([{ passed: true, sources: [{ title: "Library hours", file_id: fileId }] }]);
    const link = run.results[0].sources[0].url;
    expect(renderToStaticMarkup(<RunResults results={run.results} />)).toContain(
      `<a href="${link.replaceAll("&", "&amp;")}" target="_blank" rel="noreferrer">Library hours</a>`,
    );

    expect((await call("DELETE", `/v1/files/${fileId}?app_id=${appId}`, { token })).status).toBe(200);
    const later = (await loadRun(runId)).run;
    expect(later.results[0].sources).toEqual([{ title: "Library hours", url: "", file_deleted: true }]);
    const html = renderToStaticMarkup(<RunResults results={later.results} />);
    expect(html).toContain("<li>Library hours (file, deleted since)</li>");
    expect(html).not.toContain("<a href=");
  });
});
