import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, PNG_BYTES } from "../../tests/support/files";
import { signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let adminToken: string;
let otherToken: string;

beforeAll(async () => {
  host = await startTestHost({ storageWritesPerMinute: 3 });
  adminToken = (await signInAs(host, "client.admin@example.com")).user_token;
  otherToken = (await signInAs(host, "admin@example.com")).user_token;
});
afterAll(async () => {
  await host?.close();
});

const post = (token: string, path: string, body?: FormData | object) =>
  host.api.request(path, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      ...(body && !(body instanceof FormData) ? { "content-type": "application/json" } : {}),
    },
    body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
  });

const logos = (count: number) =>
  multipart(
    Array.from({ length: count }, (_, i) => ({
      field: "files[]",
      name: `logo-${i}.png`,
      bytes: PNG_BYTES,
      type: "image/png",
    })),
  );

describe("objects put in storage, per person and minute", () => {
  it("counts logos, PDFs registered and exports together, and answers 429 with the seconds left past the limit", async () => {
    const appId = 1;
    expect((await post(adminToken, "/v1/apps/logo_upload", logos(2))).status).toBe(200);
    expect((await post(adminToken, `/v1/apps/${appId}/exports/export`)).status).toBe(200);
    // The fourth object of the minute: a PDF to upload, refused before anything is registered.
    const refused = await post(adminToken, `/v1/files/presigned_urls?app_id=${appId}`, { file_names: ["guide.pdf"] });
    expect(refused.status).toBe(429);
    const seconds = Number(refused.headers.get("retry-after"));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(await refused.json()).toEqual({
      message: `Too many uploads and exports in a minute; try again in ${seconds} second${seconds === 1 ? "" : "s"}`,
    });
    const files = await host.api.request(`/v1/files?app_id=${appId}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(JSON.stringify(await files.json())).not.toContain("guide.pdf");
  });

  it("refuses one upload of more objects than a minute allows, and counts each person apart", async () => {
    expect((await post(otherToken, "/v1/apps/logo_upload", logos(4))).status).toBe(429);
    expect((await post(otherToken, "/v1/apps/logo_upload", logos(3))).status).toBe(200);
  });
});
