import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequest, settle, signInToConsole, testContext, toastOf } from "../../tests/support/console-context";
import { makePdf } from "../../tests/support/pdf";
import { startTestHost } from "../../tests/support/test-host";
import { testRunRecords } from "../../tests/support/test-runs";
import { until } from "../../tests/support/wait";
import * as files from "./$appName.agent.$agentName.knowledge-store.files";
import * as websites from "./$appName.agent.$agentName.knowledge-store.websites";

/**
 * Knowledge made to answer in production (a website tagged Production, a file tagged production)
 * while an agent's last stage run fails questions its last production run passes: the console
 * lists them and saves only when the operator confirms again, without JavaScript too.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let admin: string;
let acceptKey: string;
const params = { appName: "northfield", agentName: "admissions" };
const WEBSITES = "/northfield/agent/admissions/knowledge-store/websites";
const FILES = "/northfield/agent/admissions/knowledge-store/files";

beforeAll(async () => {
  host = await startTestHost();
  admin = await signInToConsole(host, "client.admin@example.com");
  const records = testRunRecords(host);
  const question = await records.question(await records.appId("northfield"), "admissions", "When is orientation?");
  await records.finishedRun(question, "prod", true);
  acceptKey = String(await records.finishedRun(question, "stage", false));
});
afterAll(async () => {
  await host?.close();
});

const args = (request: Request) => ({ request, context: testContext(host), params });
const formOf = (url: string, entries: [string, string][]) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    body: new URLSearchParams(entries),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: admin },
  });

describe("a website tagged Production", () => {
  const newRow = (tags: string[]): [string, string][] => [
    ["intent", "save"],
    ["websites[0].id", ""],
    ["websites[0].url", "https://orientation.example.org"],
    ["websites[0].site_map", "few_urls"],
    ...tags.map((tag): [string, string] => ["websites[0].tags", tag]),
    ["websites[0].skip_patterns", ""],
    ["websites[0].allowed_patterns", ""],
  ];

  it("is held with the failing questions listed, the rows kept as typed, and saved once confirmed for those runs", async () => {
    const held = await settle(() => websites.action(args(formOf(WEBSITES, newRow(["Production"])))));
    expect(held.status).toBe(409);
    const data = await held.json();
    expect(data.rows[0]).toMatchObject({ url: "https://orientation.example.org", tags: ["Production"] });
    expect(data.formError).toBe(
      "Stage fails test questions that production passes. Look at them below, then save again to go ahead.",
    );
    expect(data.gate.acceptKey).toBe(acceptKey);
    expect(data.gate.agents).toMatchObject([
      {
        triggerPoint: "admissions",
        gate: { stage_fails_prod_passes: [{ question: "When is orientation?", reason: "text missing" }] },
      },
    ]);

    const wrongKey = await settle(() =>
      websites.action(args(formOf(WEBSITES, [...newRow(["Production"]), ["accept_failing", "1-2-3"]]))),
    );
    expect(wrongKey.status).toBe(409);
    const saved = await settle(() =>
      websites.action(args(formOf(WEBSITES, [...newRow(["Production"]), ["accept_failing", acceptKey]]))),
    );
    expect(saved.status).toBe(302);
    expect((await toastOf(saved))?.description).toBe("1 website saved");
  });

  it("is not held when the save does not add Production", async () => {
    const saved = await settle(() =>
      websites.action(
        args(
          formOf(
            WEBSITES,
            newRow(["Staged"]).map(([name, value]): [string, string] => [
              name,
              value.replace("orientation", "staging"),
            ]),
          ),
        ),
      ),
    );
    expect(saved.status).toBe(302);
  });
});

describe("a file tagged production", () => {
  it("asks again on the page, then saves the tags once confirmed", async () => {
    const upload = new FormData();
    upload.append(
      "files",
      new File([new Uint8Array(makePdf([["Orientation starts in August."]]))], "orientation.pdf", {
        type: "application/pdf",
      }),
    );
    await settle(() =>
      files.action(
        args(new Request(`http://localhost${FILES}`, { method: "POST", body: upload, headers: { cookie: admin } })),
      ),
    );
    const load = async (search = "") =>
      await (await settle(() => files.loader(args(getRequest(`${FILES}${search}`, admin))))).json();
    const file = await until("the file to be listed", async () =>
      (await load()).files.find((f: { file_name: string }) => f.file_name === "orientation.pdf"),
    );

    const held = await settle(() =>
      files.action(
        args(
          formOf(FILES, [
            ["intent", "tags"],
            ["file_id", String(file.id)],
            ["tags", "sandbox"],
            ["tags", "production"],
          ]),
        ),
      ),
    );
    expect(held.status).toBe(302);
    expect(held.headers.get("location")).toBe(`${FILES}?confirm_tags=${file.id}&tags=sandbox%2Cproduction`);
    const confirming = await load(`?confirm_tags=${file.id}&tags=sandbox%2Cproduction`);
    expect(confirming.tagsConfirm).toMatchObject({
      file: { id: file.id, name: "orientation.pdf" },
      tags: ["sandbox", "production"],
      gate: { acceptKey },
    });
    expect((await load()).files.find((f: { id: number }) => f.id === file.id).tags).toEqual([]);

    const saved = await settle(() =>
      files.action(
        args(
          formOf(`${FILES}?confirm_tags=${file.id}&tags=sandbox%2Cproduction`, [
            ["intent", "tags"],
            ["file_id", String(file.id)],
            ["tags", "sandbox"],
            ["tags", "production"],
            ["accept_failing", acceptKey],
          ]),
        ),
      ),
    );
    expect(saved.headers.get("location")).toBe(FILES);
    expect((await toastOf(saved))?.description).toBe("Tags of orientation.pdf saved");
    expect((await load()).files.find((f: { id: number }) => f.id === file.id).tags).toEqual(["sandbox", "production"]);

    // Sandbox alone, or production already there: nothing to ask.
    const again = await settle(() =>
      files.action(
        args(
          formOf(FILES, [
            ["intent", "tags"],
            ["file_id", String(file.id)],
            ["tags", "production"],
          ]),
        ),
      ),
    );
    expect((await toastOf(again))?.description).toBe("Tags of orientation.pdf saved");
  });
});
