import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { settle, signInToConsole, testContext } from "../../tests/support/console-context";
import { makePdf } from "../../tests/support/pdf";
import { startTestHost } from "../../tests/support/test-host";
import { action as uploadStep } from "./$appName.files-upload";
import { action as filesAction } from "./$appName.agent.$agentName.knowledge-store.files";
import { PNG_BYTES } from "../../tests/support/files";
import { action as homeAction } from "./$appName._index";
import { action as appearanceAction } from "./$appName.agent.$agentName.appearance";
import { action as buildAgent } from "./$appName.build-agent";

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

  it("is 429 with the API's Retry-After from Export App, the reason at the button, where it was a redirect", async () => {
    // Its own person, so the uploads above have not used their minute's writes.
    const cookie = await signInToConsole(host, "admin@example.com");
    const exportOnce = () =>
      settle(() =>
        homeAction({
          request: new Request("http://console.test/northfield?index", {
            method: "POST",
            headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams({ intent: "export" }),
          }),
          context: context(),
          params: { appName: "northfield" },
        }),
      );
    expect((await exportOnce()).status).toBe(302);
    expect((await exportOnce()).status).toBe(302);
    const refused = await exportOnce();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await refused.json()).toEqual({
      exportError: expect.stringMatching(
        /^Failed to export Northfield University: Too many uploads and exports in a minute/,
      ),
    });
  });

  it("is 429 with the API's Retry-After from an agent's logo and Appearance's images, the reason at the field", async () => {
    // The same person as above: their minute's writes are spent.
    const cookie = await signInToConsole(host, "admin@example.com");
    const multipart = (url: string, fields: Record<string, string | File>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      return new Request(`http://console.test${url}`, { method: "POST", body, headers: { cookie } });
    };
    const png = () => new File([PNG_BYTES], "logo.png", { type: "image/png" });
    const logo = await settle(() =>
      buildAgent({
        request: multipart("/northfield/build-agent?type=enrollment", {
          name: "Limited Logo",
          agent_type: "enrollment",
          site_code: "limitedlogo",
          status: "inactive",
          logo: png(),
        }),
        context: context(),
        params: { appName: "northfield" },
      }),
    );
    expect(logo.status).toBe(429);
    expect(logo.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(JSON.stringify(await logo.json())).toMatch(/Too many uploads and exports in a minute/);

    const image = await settle(() =>
      appearanceAction({
        request: multipart("/northfield/agent/admissions/appearance", {
          intent: "save",
          bot_name: "Northie",
          avatar_url__file: png(),
        }),
        context: context(),
        params: { appName: "northfield", agentName: "admissions" },
      }),
    );
    expect(image.status).toBe(429);
    expect(image.headers.get("retry-after")).toMatch(/^\d+$/);
    const data = (await image.json()) as { fieldErrors: Record<string, string>; values: Record<string, string> };
    expect(data.fieldErrors.avatar_url).toMatch(/^Too many uploads and exports in a minute/);
    expect(data.values.bot_name).toBe("Northie");
  });
});
