import { expect } from "vitest";
import type { apiCaller } from "./test-host";

/** Adds a whole website (read through its sitemaps) through the Websites call, as the screen saves one; its id. */
export async function addFullWebsite(call: ReturnType<typeof apiCaller>, token: string, appId: number, url: string) {
  const saved = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: { websites: [{ app_id: appId, url, site_map: "full_website" }] },
  });
  expect(saved.status).toBe(200);
  return saved.body.websites[0].id as number;
}
