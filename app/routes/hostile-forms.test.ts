/**
 * Hostile posts and addresses sent to real console actions and loaders (over the real API and a
 * fresh database): each is a 4xx with a message, never a 500 and never a large allocation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeaderFrom, formRequest, getRequest, settle, testContext } from "../../tests/support/console-context";
import { startTestHost } from "../../tests/support/test-host";
import { action as accessAction } from "./$appName.access-control";
import { action as loginAction } from "./login";
import { loader as websitesLoader } from "./$appName.agent.$agentName.knowledge-store.websites";
import { loader as urlsLoader } from "./$appName.agent.$agentName.knowledge-store.websites.urls";
import { loader as jobsLoader } from "./jobs._index";

let host: Awaited<ReturnType<typeof startTestHost>>;
let cookie: string;
beforeAll(async () => {
  host = await startTestHost();
  const signedIn = await settle(() =>
    loginAction({
      request: formRequest("/login", { intent: "dev", email: "admin@example.com", redirectTo: "/" }),
      context: testContext(host),
      params: {},
    }),
  );
  cookie = cookieHeaderFrom(signedIn.headers.get("set-cookie"));
});
afterAll(() => host?.close());

const post = (url: string, body: BodyInit, contentType: string | null, withCookie = true) =>
  new Request(`http://localhost${url}`, {
    method: "POST",
    body,
    headers: { ...(contentType ? { "content-type": contentType } : {}), ...(withCookie ? { cookie } : {}) },
  });

const postLogin = (request: Request) => settle(() => loginAction({ request, context: testContext(host), params: {} }));
const access = (request: Request) =>
  settle(() => accessAction({ request, context: testContext(host), params: { appName: "northfield" } }));

describe("console actions given what no screen sends", () => {
  it("answers a sign-in with a huge sparse row index 400 at once, building nothing", async () => {
    const before = process.memoryUsage().heapUsed;
    const answer = await postLogin(
      post(
        "/login?index",
        "intent=dev&email=admin%40example.com&x[30000000]=1",
        "application/x-www-form-urlencoded",
        false,
      ),
    );
    expect(answer.status).toBe(400);
    expect(await answer.text()).toMatch(/more rows than this screen holds/);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
  });

  it("answers Access Control's save with users[99999999] 400, with the process alive", async () => {
    const answer = await access(
      post("/northfield/access-control", "intent=save&users[99999999].id=1", "application/x-www-form-urlencoded"),
    );
    expect(answer.status).toBe(400);
  });

  it("answers 415 to bodies that are not forms", async () => {
    for (const type of ["text/plain", "application/json", "application/octet-stream", null]) {
      expect((await postLogin(post("/login", '{"intent":"dev"}', type, false))).status, String(type)).toBe(415);
      expect((await access(post("/northfield/access-control", "intent=save", type))).status, String(type)).toBe(415);
    }
  });

  it("answers 400 to broken multipart", async () => {
    expect(
      (await access(post("/northfield/access-control", "--b\r\nbroken", "multipart/form-data; boundary=b"))).status,
    ).toBe(400);
  });

  it("answers 413 to a form declared at 64 MB", async () => {
    const huge = new Request("http://localhost/login", {
      method: "POST",
      body: "a=1",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(64 * 1024 * 1024) },
    });
    expect((await postLogin(huge)).status).toBe(413);
  });
});

describe("console pages given page numbers past any table", () => {
  const pages = ["99999999999999999999", "1e308", "-5", "NaN", "100001"];
  it.each(pages)("renders Websites, All URLs and Jobs with ?page=%s", async (page) => {
    const params = { appName: "northfield", agentName: "admissions" };
    const query = `?page=${encodeURIComponent(page)}`;
    const websites = await settle(() =>
      websitesLoader({
        request: getRequest(`/northfield/agent/admissions/knowledge-store/websites${query}`, cookie),
        context: testContext(host),
        params,
      }),
    );
    expect(websites.status).toBe(200);
    const urls = await settle(() =>
      urlsLoader({
        request: getRequest(`/northfield/agent/admissions/knowledge-store/websites/urls${query}`, cookie),
        context: testContext(host),
        params,
      }),
    );
    expect(urls.status).toBe(200);
    const jobs = await settle(() =>
      jobsLoader({ request: getRequest(`/jobs${query}`, cookie), context: testContext(host), params: {} }),
    );
    expect(jobs.status).toBe(200);
  });
});
