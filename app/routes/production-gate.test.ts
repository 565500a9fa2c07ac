import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequest, loaderJson, settle, signInToConsole, testContext } from "../../tests/support/console-context";
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
  const northfield = await records.appId("northfield");
  // The agent's site code is not among the trigger points the client's profile lists (a client
  // created from the form lists none): its questions count all the same.
  await records.listTriggerPoints(northfield, ["studentsuccess"]);
  const question = await records.question(northfield, "admissions", "When is orientation?");
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

  it("is held with the failing questions listed and the rows kept as typed", async () => {
    const held = await settle(() => websites.action(args(formOf(WEBSITES, newRow(["Production"])))));
    expect(held.status).toBe(409);
    const data = await held.json();
    expect(data.rows[0]).toMatchObject({ url: "https://orientation.example.org", tags: ["Production"] });
    expect(data.formError).toBe(
      "Stage fails test questions that production passes: they are listed above the table. Save again to go ahead.",
    );
    expect(data.gate.acceptKey).toBe(acceptKey);
    expect(data.gate.agents).toMatchObject([
      {
        triggerPoint: "admissions",
        name: "Admissions Assistant",
        gate: { stage_fails_prod_passes: [{ question: "When is orientation?", reason: "text missing" }] },
      },
    ]);
  });

  it("stays held when confirmed for other runs", async () => {
    const wrongKey = await settle(() =>
      websites.action(args(formOf(WEBSITES, [...newRow(["Production"]), ["accept_failing", "1-2-3"]]))),
    );
    expect(wrongKey.status).toBe(409);
  });

  it("is saved once confirmed for the runs listed", async () => {
    const saved = await settle(() =>
      websites.action(args(formOf(WEBSITES, [...newRow(["Production"]), ["accept_failing", acceptKey]]))),
    );
    expect(saved).toHaveRedirect();
    await expect(saved).toSendToast({ type: "success", description: "1 website saved" });
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
    expect(saved).toHaveRedirect();
  });
});

describe("a file tagged production", () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const load = (search = ""): Promise<any> => loaderJson(files.loader, args(getRequest(`${FILES}${search}`, admin)));
  const savedTags = async (fileId: number) =>
    (await load()).files.find((f: { id: number }) => f.id === fileId).tags as string[];
  const tagsForm = (fileId: number, tags: string[], extra: [string, string][] = []): [string, string][] => [
    ["intent", "tags"],
    ["file_id", String(fileId)],
    ...tags.map((tag): [string, string] => ["tags", tag]),
    ...extra,
  ];
  let file: { id: number };

  beforeAll(async () => {
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
    file = await until("the file to be listed", async () =>
      (await load()).files.find((f: { file_name: string }) => f.file_name === "orientation.pdf"),
    );
  });

  it("asks again on the page, changing nothing yet", async () => {
    const held = await settle(() => files.action(args(formOf(FILES, tagsForm(file.id, ["sandbox", "production"])))));
    expect(held).toHaveRedirect(`${FILES}?confirm_tags=${file.id}&tags=sandbox%2Cproduction`);
    const confirming = await load(`?confirm_tags=${file.id}&tags=sandbox%2Cproduction`);
    expect(confirming.tagsConfirm).toMatchObject({
      file: { id: file.id, name: "orientation.pdf" },
      tags: ["sandbox", "production"],
      gate: { acceptKey },
    });
    expect(await savedTags(file.id)).toEqual([]);
  });

  it("saves the tags once confirmed", async () => {
    const saved = await settle(() =>
      files.action(
        args(
          formOf(
            `${FILES}?confirm_tags=${file.id}&tags=sandbox%2Cproduction`,
            tagsForm(file.id, ["sandbox", "production"], [["accept_failing", acceptKey]]),
          ),
        ),
      ),
    );
    expect(saved).toHaveRedirect(FILES);
    await expect(saved).toSendToast({ type: "success", description: "Tags of orientation.pdf saved" });
    expect(await savedTags(file.id)).toEqual(["sandbox", "production"]);
  });

  it("does not ask when production is already there", async () => {
    const again = await settle(() => files.action(args(formOf(FILES, tagsForm(file.id, ["production"])))));
    await expect(again).toSendToast({ type: "success", description: "Tags of orientation.pdf saved" });
  });
});
