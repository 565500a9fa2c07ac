import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientApps } from "../../db/schema";
import { startFixtureSite } from "../../../tests/support/fixture-site";
import { makePdf } from "../../../tests/support/pdf";
import { apiCaller, signInAs, startTestHost } from "../../../tests/support/test-host";
import { until } from "../../../tests/support/wait";

let host: Awaited<ReturnType<typeof startTestHost>>;
let site: Awaited<ReturnType<typeof startFixtureSite>>;
let call: ReturnType<typeof apiCaller>;
let token: string;
let appId: number;
let websiteId: number;

/** A single-page app's shell: navigation, a mount point, scripts and a lazy image, no text of its own. */
const SHELL = `<!doctype html><html><head><title>Campus map | Northfield</title><script src="/app.js"></script></head>
<body><nav><a href="/">Home</a> <a href="/apply">Apply now</a></nav><div id="root"></div>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="/map.png" class="lazy">
<noscript>Please enable JavaScript to see the campus map.</noscript><script>window.boot()</script></body></html>`;

beforeAll(async () => {
  site = await startFixtureSite();
  site.setRaw("/map", "text/html; charset=utf-8", SHELL);
  site.setRaw("/scan.pdf", "application/pdf", makePdf([["(image)"]], { imagesOnly: true }));
  host = await startTestHost({ crawlAllowPrivate: true, crawlTimeoutMs: 2000 });
  call = apiCaller(host);
  token = (await signInAs(host, "client.admin@example.com")).user_token;
  appId = (await host.deps.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
  const created = await call("POST", `/v1/apps/${appId}/websites/create_and_update`, {
    token,
    body: {
      websites: [
        {
          app_id: appId,
          url: `${site.base}/map`,
          site_map: "few_urls",
          urls: [`${site.base}/map`, `${site.base}/scan.pdf`],
        },
      ],
    },
  });
  websiteId = created.body.websites[0].id;
  await until("the URL list", async () => (await rows()).length === 2);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const rows = async () =>
  (await call("GET", `/v1/apps/${appId}/websites/${websiteId}/urls`, { token })).body.data as {
    id: number;
    url: string;
    status: string;
    title: string | null;
    metadata: { error_message?: string };
  }[];
const rowOf = async (path: string) => (await rows()).find((r) => r.url === `${site.base}${path}`)!;
const settled = () =>
  until("indexing to finish", async () => (await rows()).every((r) => !/^(to_be_|sent_for_)/.test(r.status)));
const chunksOf = async (path: string) =>
  (
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/fetch_cached_chunks`, {
      token,
      body: { url: `${site.base}${path}` },
    })
  ).body.chunks as { text: string }[];

describe("a page with no readable text is never indexed", () => {
  it("marks a script-only page and a scanned PDF failed_to_index with the reason, and stores no chunks", async () => {
    await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed" },
    });
    await settled();
    const shell = await rowOf("/map");
    expect(shell.status).toBe("failed_to_index");
    expect(shell.metadata.error_message).toBe("No readable text on the page");
    const scan = await rowOf("/scan.pdf");
    expect(scan.status).toBe("failed_to_index");
    expect(scan.metadata.error_message).toMatch(/no text layer/);
    expect(await chunksOf("/map")).toEqual([]);
  });

  it("indexes the page once it has text, when the operator asks again", async () => {
    site.setRaw(
      "/map",
      "text/html; charset=utf-8",
      SHELL.replace(
        '<div id="root"></div>',
        '<div id="root"><h1>Campus map</h1><p>The library stands north of the main quad.</p><h2>Parking</h2><p>Visitors park in lot C.</p></div>',
      ),
    );
    const shell = await rowOf("/map");
    const retried = await call("POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
      token,
      body: { status: "to_be_indexed", url_ids: [shell.id] },
    });
    expect(retried.status).toBe(200);
    await settled();
    const again = await rowOf("/map");
    expect(again.status).toBe("indexed");
    expect(again.metadata.error_message).toBeUndefined();
    const text = (await chunksOf("/map")).map((c) => c.text).join("\n");
    // The heading that repeats the page's title is the title (kept on the URL); section headings open their text.
    expect(again.title).toBe("Campus map | Northfield");
    expect(text).toBe("The library stands north of the main quad.\nParking\nVisitors park in lot C.");
  });
});
