import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agents, clientApps } from "../db/schema";
import { PNG_BYTES } from "../../tests/support/files";
import { apiCaller, demoCallers, signInAs, startTestHost } from "../../tests/support/test-host";

/*
 * The widget's images and agents' logos are stored under their client's id (public/appearance/{id}/…,
 * public/agents/{id}/…), and a client shows, saves and pushes only images of its own folder. An export carries the images' addresses, so
 * a client an import creates (a copy under another url_code, or a client deleted and imported back,
 * which gets a new id) showed the other client's id in every image's address, and its push was
 * refused: stage held "an image not uploaded here".
 */

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let northfield: number;
let exported: Record<string, unknown> & { app: Record<string, unknown> };
let avatar: string;
let logo: string;

async function upload(appId: number, path = `/v1/appearances/upload_file?appId=${appId}&triggerPoint=`) {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(PNG_BYTES)], "avatar.png"));
  const response = await host.api.request(path, {
    method: "POST",
    body: form,
    headers: { authorization: `Bearer ${admin}` },
  });
  return ((await response.json()) as { url: string }).url;
}

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ northfield } = await demoCallers(host));
  admin = (await signInAs(host, "admin@example.com")).user_token;
  avatar = await upload(northfield);
  const saved = await call("PUT", `/v1/appearances?appId=${northfield}&triggerPoint=`, {
    token: admin,
    body: { appearance: { value: { avatar_url: avatar } } },
  });
  expect(saved.status).toBe(200);
  // An agent's logo, uploaded as its form does, is stored under the client's id too.
  logo = await upload(northfield, `/v1/apps/${northfield}/agents/logo_upload`);
  await host.deps.db.update(agents).set({ logo }).where(eq(agents.appId, northfield));
  const { body } = await call("POST", `/v1/apps/${northfield}/exports/export`, { token: admin });
  exported = JSON.parse((await host.deps.storage.get(`exports/${body.file_name}`))!.toString());
});
afterAll(() => host?.close());

describe("images of a client an import creates", () => {
  it("are the new client's own: its folder, served, and pushed to production", async () => {
    await host.deps.storage.put(
      "exports/copy.json",
      JSON.stringify({ ...exported, app: { ...exported.app, url_code: "northfield-copy", client_name: "Copy" } }),
    );
    const imported = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "copy.json" } });
    expect(imported.status).toBe(200);
    const copy = imported.body.app.id as number;
    const stage = await call("GET", `/v1/appearances?appId=${copy}&triggerPoint=`, { token: admin });
    const copied = stage.body.data.avatar_url as string;
    expect(copied).toMatch(new RegExp(`^/storage/public/appearance/${copy}/`));
    expect(copied).not.toContain(`/${northfield}/`);
    const served = await host.api.request(copied);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array(PNG_BYTES));
    const pushed = await call("PUT", `/v1/appearances?appId=${copy}&triggerPoint=`, {
      token: admin,
      body: { appearance: { value: stage.body.data }, targetEnv: "production" },
    });
    expect(pushed.status).toBe(200);
    const logos = (await host.deps.db.select().from(agents).where(eq(agents.appId, copy))).map((a) => a.logo);
    expect(logos.length).toBeGreaterThan(0);
    for (const copiedLogo of logos) {
      expect(copiedLogo).toMatch(new RegExp(`^/storage/public/agents/${copy}/`));
      expect((await host.api.request(copiedLogo!)).status).toBe(200);
    }
    // Importing the same file again changes nothing.
    const again = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "copy.json" } });
    expect(again.body.message).toMatch(/nothing changed/);
    // The exported client's own image is its own still.
    const own = await call("GET", `/v1/appearances?appId=${northfield}&triggerPoint=`, { token: admin });
    expect(own.body.data.avatar_url).toBe(avatar);
    const ownLogos = (await host.deps.db.select().from(agents).where(eq(agents.appId, northfield))).map((a) => a.logo);
    expect(new Set(ownLogos)).toEqual(new Set([logo]));
  });

  it("drops an image whose file is gone rather than pointing at another client's folder", async () => {
    await host.deps.storage.put(
      "exports/gone.json",
      JSON.stringify({
        ...exported,
        app: { ...exported.app, url_code: "northfield-gone", client_name: "Gone" },
        appearances: [
          {
            trigger_point: "",
            environment: "stage",
            values: { avatar_url: `/storage/public/appearance/${northfield}/00000000-0000-4000-8000-000000000000.png` },
          },
        ],
      }),
    );
    const imported = await call("POST", "/v1/import_from_file", { token: admin, body: { file_name: "gone.json" } });
    expect(imported.status).toBe(200);
    const [created] = await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield-gone"));
    const stage = await call("GET", `/v1/appearances?appId=${created.id}&triggerPoint=`, { token: admin });
    expect(stage.body.data.avatar_url).toBe("");
  });
});
