import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequest, loaderJson, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { addCapturedProfiles, startTestHost } from "../../tests/support/test-host";
import { parseCsv } from "~/lib/csv";
import { exportConversations } from "~/server/conversations.server";
import { userProfilesCsv } from "~/server/user-profiles.server";
import { loader as profilesLoader } from "./backoffice.$urlCode.user_profiles";

let host: Awaited<ReturnType<typeof startTestHost>>;

/** Twenty-five conversations of one client, each with its captured profile. */
beforeAll(async () => {
  host = await startTestHost();
  await addCapturedProfiles(
    host,
    "northfield",
    Array.from({ length: 25 }, (_, n) => `visitor${n}@example.com`),
  );
});
afterAll(() => host?.close());

const args = (request: Request) => ({ request, context: testContext(host), params: { urlCode: "northfield" } });
const EXPORT = "/backoffice/northfield/user_profiles/export";

describe("the User Profile Store's CSV past the export's limit", () => {
  it("names the file for the newest profiles it holds and how many were found, instead of stopping silently", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const answer = await settle(() => userProfilesCsv(args(getRequest(EXPORT, cookie)), { pageSize: 10, maxRows: 20 }));
    const rows = parseCsv(await answer.text());
    expect(rows).toHaveLength(1 + 20);
    expect(answer.headers.get("content-disposition")).toMatch(
      /filename="northfield-user-profiles-[\d-]+-newest-20-of-25\.csv"/,
    );
  });

  it("names a complete file as before", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const answer = await settle(() => userProfilesCsv(args(getRequest(EXPORT, cookie)), { pageSize: 10, maxRows: 30 }));
    expect(parseCsv(await answer.text())).toHaveLength(1 + 25);
    expect(answer.headers.get("content-disposition")).toMatch(
      /filename="northfield-user-profiles-\d{4}-\d\d-\d\d\.csv"/,
    );
  });

  it("tells the page how many profiles an export holds at most, so it can say so by the button", async () => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const page = await loaderJson(profilesLoader, args(getRequest("/backoffice/northfield/user_profiles", cookie)));
    expect(page.exportMaxRows).toBe(100_000);
  });
});

describe("the Conversations CSV past the export's limit", () => {
  const exportWith = async (limits: { pageSize: number; maxRows: number }) => {
    const cookie = await signInToConsole(host, "client.user@example.com");
    const request = getRequest("/northfield/conversations/export", cookie);
    const answer = await settle(() =>
      exportConversations({ request, context: testContext(host), params: { appName: "northfield" } }, limits),
    );
    return { name: answer.headers.get("content-disposition"), rows: parseCsv(await answer.text()).slice(1) };
  };

  it("names the file for the first conversations it holds, instead of stopping silently", async () => {
    const all = await exportWith({ pageSize: 1000, maxRows: 1000 });
    expect(all.rows).toHaveLength(25);
    const cut = await exportWith({ pageSize: 10, maxRows: 20 });
    expect(cut.name).toMatch(/filename="northfield-conversations-[\d-]+-first-20\.csv"/);
    expect(cut.rows).toEqual(all.rows.slice(0, 20));
  });

  it("names a file that holds every conversation as before, also when they fill it exactly", async () => {
    for (const maxRows of [25, 30]) {
      const whole = await exportWith({ pageSize: 10, maxRows });
      expect(whole.name).toMatch(/filename="northfield-conversations-\d{4}-\d\d-\d\d\.csv"/);
      expect(whole.rows).toHaveLength(25);
    }
  });
});
