import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequest, loaderJson, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import * as screen from "./$appName.agent.$agentName.controls.test-questions";

/**
 * The Test Questions CSV import of files a spreadsheet saves in other encodings than UTF-8, through
 * the screen's action and the real API: each file's bytes as the program that wrote them would.
 */
let host: Awaited<ReturnType<typeof startTestHost>>;
let admin: string;
const PAGE = "/northfield/agent/studentsuccess/controls/test-questions";
const params = { appName: "northfield", agentName: "studentsuccess" };

beforeAll(async () => {
  host = await startTestHost();
  admin = await signInToConsole(host, "client.admin@example.com");
});
afterAll(async () => {
  await host?.close();
});

const args = (request: Request) => ({ request, context: testContext(host), params });

function importFile(bytes: Uint8Array<ArrayBuffer>, type = "text/csv") {
  const body = new FormData();
  body.append("intent", "import");
  body.append("file", new File([bytes], "questions.csv", { type }));
  return settle(() =>
    screen.action(args(new Request(`http://localhost${PAGE}`, { method: "POST", body, headers: { cookie: admin } }))),
  );
}

/** The stored questions matching `search`, as [question, expect_text]. */
async function stored(search: string): Promise<[string, string | null][]> {
  const data = await loaderJson(
    screen.loader,
    args(getRequest(`${PAGE}?search=${encodeURIComponent(search)}&sort=question`, admin)),
  );
  return data.questions.map((q: { question: string; expect_text: string | null }) => [q.question, q.expect_text]);
}

/** Two questions with accents Latin-1 holds, as [question, expect_text]. */
const expected = (marker: string): [string, string][] => [
  [`Où est la résidence ${marker} ?`, "Zoë"],
  [`Wann öffnet die Mensa ${marker}?`, "Grüße"],
];
const csvOf = (marker: string) =>
  ["question,expect_text", ...expected(marker).map((row) => row.join(","))].join("\r\n") + "\r\n";

const utf16le = (text: string) =>
  new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]));
const utf16be = (text: string) => {
  const bytes = Buffer.from(text, "utf16le");
  bytes.swap16();
  return new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), bytes]));
};
const latin1 = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

describe("Test Questions CSV import encodings", () => {
  it("imports UTF-16 LE and BE files (Excel's Unicode Text) by their byte order mark, accents intact", async () => {
    for (const [marker, bytes] of [
      ["Zq-LE", utf16le(csvOf("Zq-LE"))],
      ["Zq-BE", utf16be(csvOf("Zq-BE"))],
    ] as const) {
      const imported = await importFile(bytes);
      expect(imported).toHaveRedirect();
      await expect(imported).toSendToast({ type: "success", description: "2 test questions imported" });
      expect(await stored(marker)).toEqual(expected(marker));
    }
  });

  it("refuses a file past 4 MB beside the import's field, not with a page of its own", async () => {
    const huge = new Uint8Array(Buffer.from(`question,expect_text\r\n${"Where is it?,here\r\n".repeat(260_000)}`));
    const refused = await importFile(huge);
    expect(refused.status).toBe(413);
    expect((await refused.json()).importErrors).toEqual([
      "This file is larger than 4 MB: import at most 500 questions at once.",
    ]);
  });

  it("refuses a Latin-1 file that declares nothing, saying it is not UTF-8, and stores nothing", async () => {
    const refused = await importFile(latin1(csvOf("Zq-Latin")));
    expect(refused.status).toBe(400);
    const data = await refused.json();
    expect(data.importErrors).toHaveLength(1);
    expect(data.importErrors[0]).toMatch(/^This file is not UTF-8 \(line 2 is not\).*Save it as “CSV UTF-8”/);
    expect(await stored("Zq-Latin")).toEqual([]);
  });

  it("imports a Latin-1 file whose upload declares its charset", async () => {
    const imported = await importFile(latin1(csvOf("Zq-Declared")), "text/csv; charset=iso-8859-1");
    await expect(imported).toSendToast({ type: "success", description: "2 test questions imported" });
    expect(await stored("Zq-Declared")).toEqual(expected("Zq-Declared"));
  });

  it("still reads UTF-8 with and without its byte order mark", async () => {
    const utf8 = Buffer.from(csvOf("Zq-Eight"), "utf8");
    const withoutMark = await importFile(new Uint8Array(utf8));
    await expect(withoutMark).toSendToast({ type: "success", description: "2 test questions imported" });
    const withMark = await importFile(
      new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csvOf("Zq-Marked"), "utf8")])),
    );
    await expect(withMark).toSendToast({ type: "success", description: "2 test questions imported" });
    expect(await stored("Zq-Eight")).toEqual(expected("Zq-Eight"));
    expect(await stored("Zq-Marked")).toEqual(expected("Zq-Marked"));
  });

  it("leaves out the questions the agent already has, so importing a file again adds nothing twice", async () => {
    // Written otherwise (in capitals) is the same question, as adding one compares it.
    const shouted = ["question,expect_text", ...expected("Zq-Eight").map(([q, t]) => `${q.toUpperCase()},${t}`)];
    const again = await importFile(new Uint8Array(Buffer.from(shouted.join("\r\n"), "utf8")));
    await expect(again).toSendToast({
      type: "success",
      description: "0 test questions imported; 2 left out as questions the agent already has",
    });
    expect(await stored("Zq-Eight")).toEqual(expected("Zq-Eight"));
  });
});

describe("Test Questions CSV import of quotes", () => {
  const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

  it("refuses a file whose quote never closes, naming the row and column it opened in, and stores nothing", async () => {
    const file =
      'question,expect_text\nHow tall is the clock tower Zq-Quote?,"120 ft\nWhat is the fee?,$40\nWhen are tours?,10 am\n';
    const refused = await importFile(utf8(file));
    expect(refused.status).toBe(400);
    expect((await refused.json()).importErrors).toEqual([
      "Row 2, expect_text: The quote that opens this field is never closed, so the rest of the file would be read into it. Close the quote, or remove it.",
    ]);
    expect(await stored("Zq-Quote")).toEqual([]);
  });

  it("blames the question column when the quote opened there", async () => {
    const refused = await importFile(utf8('question,expect_text\n"How tall is the tower Zq-Quote?,120 ft\n'));
    expect((await refused.json()).importErrors[0]).toMatch(/^Row 2, question: The quote that opens this field/);
  });

  it("keeps a quote inside an unquoted field, and a doubled quote of a quoted field as one", async () => {
    const file =
      'question,expect_source,expect_text,expect_outcome\nWhat does "BSN" stand for Zq-Inner?,,Nursing,answered\n"Is the ""BSN"" Zq-Inner hard?",,yes,\n';
    await expect(await importFile(utf8(file))).toSendToast({
      type: "success",
      description: "2 test questions imported",
    });
    expect(await stored("Zq-Inner")).toEqual([
      ['Is the "BSN" Zq-Inner hard?', "yes"],
      ['What does "BSN" stand for Zq-Inner?', "Nursing"],
    ]);
  });
});

describe("Test Questions CSV import of what spreadsheets write", () => {
  const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

  it("imports a file saved with semicolons (a spreadsheet in a European locale), its commas kept in the texts", async () => {
    const file = "question;expect_text\r\nOù est la résidence Zq-Semi ?;Zoë, Nord\r\nWann öffnet Zq-Semi?;9,30 Uhr\r\n";
    const imported = await importFile(utf8(file));
    await expect(imported).toSendToast({ type: "success", description: "2 test questions imported" });
    expect(await stored("Zq-Semi")).toEqual([
      ["Où est la résidence Zq-Semi ?", "Zoë, Nord"],
      ["Wann öffnet Zq-Semi?", "9,30 Uhr"],
    ]);
  });

  it("reads the table's headings as its columns, and says which columns it did not read", async () => {
    const file = "Question,Expected text,Notes\r\nWhen are tours Zq-Label?,10 am,ask Kim\r\n";
    const imported = await importFile(utf8(file));
    await expect(imported).toSendToast({
      type: "success",
      description:
        "1 test question imported; the column “Notes” was not read (the import reads question, expect_source, expect_text, expect_outcome)",
    });
    expect(await stored("Zq-Label")).toEqual([["When are tours Zq-Label?", "10 am"]]);
  });

  it("names the columns it did not read first when rows are refused: often why they expect nothing", async () => {
    const refused = await importFile(utf8("question,Expected answer\r\nWhen are tours Zq-Unread?,10 am\r\n"));
    expect(refused.status).toBe(400);
    expect((await refused.json()).importErrors).toEqual([
      "The column “Expected answer” was not read (the import reads question, expect_source, expect_text, expect_outcome).",
      "Row 2, expect_text: Say what the answer must do: a source, a text or an outcome",
    ]);
    expect(await stored("Zq-Unread")).toEqual([]);
  });
});
