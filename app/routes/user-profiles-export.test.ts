import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getRequest, loaderJson, settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { addCapturedProfiles, startTestHost } from "../../tests/support/test-host";
import { parseCsv } from "~/lib/csv";
import { userProfilesCsv } from "~/server/user-profiles.server";
import { loader as profilesLoader } from "./backoffice.$urlCode.user_profiles";

let host: Awaited<ReturnType<typeof startTestHost>>;

/** Twenty-five captured profiles of one client. */
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
