import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { makePdf } from "../../tests/support/pdf";
import { startTestHost } from "../../tests/support/test-host";
import { action as uploadStep } from "./$appName.files-upload";
import { action as filesAction } from "./$appName.agent.$agentName.knowledge-store.files";

/*
 * A limit the API answers with 429 and Retry-After keeps its Retry-After when the console passes
 * the refusal on: here the storage writes a person may make a minute, set to two.
 */

let host: Awaited<ReturnType<typeof startTestHost>>;

beforeAll(async () => {
  host = await startTestHost({ storageWritesPerMinute: 2 });
});
afterAll(async () => {
  await host?.close();
});

const context = () => testContext(host);

describe("the console's answer to a limit the API reached", () => {
  it("is 429 with the API's Retry-After, from the upload steps' address and from the Files form", async () => {
    const cookie = await signInToConsole(host, "client.admin@example.com");
    const presign = await settle(() =>
      uploadStep({
        request: new Request("http://console.test/northfield/files-upload", {
          method: "POST",
          headers: { cookie, "content-type": "application/json" },
          body: JSON.stringify({ intent: "presign", file_names: ["a.pdf", "b.pdf", "c.pdf"] }),
        }),
        context: context(),
        params: { appName: "northfield" },
      }),
    );
    expect(presign.status).toBe(429);
    expect(presign.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await presign.json()).message).toMatch(/^Too many uploads and exports in a minute/);

    const body = new FormData();
    for (const name of ["a.pdf", "b.pdf", "c.pdf"])
      body.append("files", new File([new Uint8Array(makePdf([["A page."]]))], name, { type: "application/pdf" }));
    body.append("intent", "upload");
    const form = await settle(() =>
      filesAction({
        request: new Request("http://console.test/northfield/agent/admissions/knowledge-store/files", {
          method: "POST",
          body,
          headers: { cookie },
        }),
        context: context(),
        params: { appName: "northfield", agentName: "admissions" },
      }),
    );
    expect(form.status).toBe(429);
    expect(form.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
