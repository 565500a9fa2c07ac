import type { APIRequestContext } from "@playwright/test";

/**
 * Signs in to the journeys' API as the System Admin (the development sign-in): the headers for its
 * calls, and the id of the client with this url_code, for journeys that set things up by the API.
 */
export async function apiAdmin(request: APIRequestContext, urlCode = "northfield") {
  const { user_token: token } = (await (
    await request.post("/auth/dev", { data: { email: "admin@example.com" } })
  ).json()) as { user_token: string };
  const headers = { authorization: `Bearer ${token}` };
  const apps = (await (await request.get("/v1/apps?status=active", { headers })).json()).apps as {
    id: number;
    url_code: string;
  }[];
  const app = apps.find((candidate) => candidate.url_code === urlCode);
  if (!app) throw new Error(`no active client ${urlCode}`);
  return { headers, appId: app.id };
}
