import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  declaringLength,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { PNG_BYTES, pngOfAtLeast } from "../../tests/support/files";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { NOT_YOURS_TO_CHANGE } from "~/lib/messages";
import { loader as manageLoader, action as manageAction } from "./$appName.manage";
import { loader as listLoader } from "./clients._index";
import { action as importAction, loader as importLoader } from "./clients.import";
import { action as createAction, loader as newClientLoader } from "./clients.new-client";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let adminToken: string;
let admin: string;
beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  adminToken = (await signInAs(host, "admin@example.com")).user_token;
  admin = await signInToConsole(host, "admin@example.com");
});
afterAll(() => host?.close());

const args = (request: Request, context = testContext(host), params: Record<string, string> = {}) => ({
  request,
  context,
  params,
});

/** A multipart POST, as the browser sends the client form (the logo file travels with it). */
function multipartRequest(url: string, fields: Record<string, string | File | string[]>, cookie: string) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  return new Request(`http://localhost${url}`, { method: "POST", body, headers: { cookie } });
}

async function appByCode(urlCode: string) {
  const { body } = await call("GET", "/v1/apps", { token: adminToken });
  return (body.apps as { id: number; url_code: string; [key: string]: unknown }[]).find(
    (app) => app.url_code === urlCode,
  );
}

const noFile = () => new File([], "", { type: "application/octet-stream" });

describe("clients list loader", () => {
  it("groups clients in tabs per type, sorted descending, and opens the first tab with clients", async () => {
    const data = await loaderJson(listLoader, args(getRequest("/clients", admin)));
    expect(data.tabs.map((tab: { key: string }) => tab.key)).toEqual(["higher_ed", "ecommerce"]);
    expect(data.selected).toBe("higher_ed");
    expect(data.clients.map((c: { url_code: string }) => c.url_code)).toContain("northfield");
    expect(data.clients.map((c: { url_code: string }) => c.url_code)).not.toContain("shopharbor-outfitters");
  });

  it("tells someone who holds a role in no client (removed from their last one) why the list is empty", async () => {
    const northfield = await appByCode("northfield");
    const grant = (action: "add" | "delete") =>
      call("POST", `/v1/apps/${northfield!.id}/users/upsert`, {
        token: adminToken,
        body: { users: [{ email: "left.soon@example.com", name: "Left Soon", action }] },
      });
    expect((await grant("add")).status).toBe(200);
    const leaver = await signInToConsole(host, "left.soon@example.com");
    expect((await loaderJson(listLoader, args(getRequest("/clients", leaver)))).noClientAccess).toBe(false);
    expect((await grant("delete")).status).toBe(200);
    const after = await loaderJson(listLoader, args(getRequest("/clients", leaver)));
    expect(after.noClientAccess).toBe(true);
    expect(after.clients).toEqual([]);
    // Staff, who belong to no client, see every client as before.
    expect((await loaderJson(listLoader, args(getRequest("/clients", admin)))).noClientAccess).toBe(false);
  });

  it("takes the tab from ?type", async () => {
    const ecommerce = await loaderJson(listLoader, args(getRequest("/clients?type=ecommerce", admin)));
    expect(ecommerce.selected).toBe("ecommerce");
    expect(ecommerce.clients.map((c: { url_code: string }) => c.url_code)).toEqual(["shopharbor-outfitters"]);
  });

  it("searches by ?search, counting each tab's matches and opening a tab that has some", async () => {
    const searched = await loaderJson(listLoader, args(getRequest("/?search=harbor", admin)));
    expect(searched.search).toBe("harbor");
    expect(searched.selected).toBe("ecommerce");
    expect(searched.tabs).toEqual([
      { key: "higher_ed", label: "Higher Ed", count: 0 },
      { key: "ecommerce", label: "Ecommerce", count: 1 },
    ]);

    const nothing = await loaderJson(listLoader, args(getRequest("/clients?search=zzz-nobody&type=higher_ed", admin)));
    expect(nothing.clients).toEqual([]);
  });

  it("groups a client without a known type under 'Other', after the known types", async () => {
    const { status } = await call("POST", "/v1/apps", {
      token: adminToken,
      body: { client_name: "Untyped Org", url_code: "untyped-org" },
    });
    expect(status).toBe(201);
    const data = await loaderJson(listLoader, args(getRequest("/clients?type=other", admin)));
    expect(data.tabs.map((tab: { label: string }) => tab.label)).toEqual(["Higher Ed", "Ecommerce", "Other"]);
    expect(data.selected).toBe("other");
    expect(data.clients.map((c: { url_code: string }) => c.url_code)).toEqual(["untyped-org"]);
  });

  it("shows a client user only their own clients", async () => {
    const user = await signInToConsole(host, "client.user@example.com");
    const data = await loaderJson(listLoader, args(getRequest("/clients?type=ecommerce", user)));
    expect(data.clients).toEqual([]);
    expect(data.tabs.find((tab: { key: string }) => tab.key === "higher_ed")!.count).toBe(1);
  });
});

describe("onboard form (/clients/new-client)", () => {
  it("is staff-only", async () => {
    expect((await settle(() => newClientLoader(args(getRequest("/clients/new-client", admin))))).status).toBe(200);
    const clientAdmin = await signInToConsole(host, "client.admin@example.com");
    expect((await settle(() => newClientLoader(args(getRequest("/clients/new-client", clientAdmin))))).status).toBe(
      403,
    );
  });

  it("refuses a Client Admin's post before the logo it carries is stored", async () => {
    const clientAdmin = await signInToConsole(host, "client.admin@example.com");
    const logosBefore = (await host.deps.storage.list("public/logos")).length;
    const refused = await settle(() =>
      createAction(
        args(
          multipartRequest(
            "/clients/new-client",
            {
              client_name: "Not Theirs",
              primary_website: "https://www.not-theirs.example",
              logo: new File([PNG_BYTES], "logo.png", { type: "image/png" }),
            },
            clientAdmin,
          ),
        ),
      ),
    );
    expect(refused.status).toBe(403);
    expect((await host.deps.storage.list("public/logos")).length).toBe(logosBefore);
  });

  it("creates a client with the url_code derived from the website, computing market and client_type, and opens it", async () => {
    const response = await settle(() =>
      createAction(
        args(
          multipartRequest(
            "/clients/new-client",
            {
              client_name: "Lakeside College",
              primary_website: "https://www.lakeside-college.edu",
              logo: noFile(),
              logo_url: "",
              country: "UK",
              market: "",
              project_url: "https://www.lakeside-college.edu/apply",
              notes: "Line one\nLine two",
              url_code: "",
              copy_market: "us_devry",
              client_type: "",
              trigger_points: "apply, , visit",
              mode_env: "production",
              insync_prod_app_id: "",
            },
            admin,
          ),
        ),
      ),
    );
    expect(response).toHaveRedirect("/lakeside-college");
    await expect(response).toSendToast({ type: "success", description: "Lakeside College onboarded" });

    const app = await appByCode("lakeside-college");
    expect(app).toMatchObject({
      client_name: "Lakeside College",
      market: "uk_lakeside-college",
      country: "UK",
      copy_market: "us_devry",
      client_type: "higher_ed",
      trigger_points: ["apply", "visit"],
      mode_env: "production",
      onboard_existing_client: false,
      notes: "Line one\nLine two",
      logo_url: null,
      insync_prod_app_id: null,
    });
  });

  it("uploads the logo with the form and stores its URL as logo_url", async () => {
    const response = await settle(() =>
      createAction(
        args(
          multipartRequest(
            "/clients/new-client",
            {
              client_name: "Pixel Store",
              primary_website: "shop.pixel-store.com",
              url_code: "",
              country: "US",
              copy_market: "us_configdefault",
              onboard_existing_client: "on",
              logo: new File([PNG_BYTES], "pixel.png", { type: "image/png" }),
            },
            admin,
          ),
        ),
      ),
    );
    expect(response).toHaveRedirect("/shoppixel-store");
    await expect(response).toSendToast({
      type: "success",
      title: "Logo uploaded",
      description: "Pixel Store onboarded",
    });
    const app = await appByCode("shoppixel-store");
    expect(app).toMatchObject({
      client_type: "ecommerce",
      market: "us_shoppixel-store",
      onboard_existing_client: true,
    });
    expect(app?.logo_url).toMatch(/^\/storage\/public\/logos\/.+\.png$/);
  });

  it("puts a refused logo next to the logo field and keeps everything typed", async () => {
    const response = await settle(() =>
      createAction(
        args(
          multipartRequest(
            "/clients/new-client",
            {
              client_name: "Fake Logo Inc",
              primary_website: "https://fakelogo.com",
              url_code: "",
              country: "US",
              logo: new File(["not an image"], "logo.png", { type: "image/png" }),
            },
            admin,
          ),
        ),
      ),
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.logo).toEqual(["logo.png does not contain a PNG image"]);
    expect(reply.initialValue).toMatchObject({
      client_name: "Fake Logo Inc",
      primary_website: "https://fakelogo.com",
      url_code: "fakelogo",
      market: "us_fakelogo",
    });
    expect(await appByCode("fakelogo")).toBeUndefined();
  });

  it("says beside the logo that a logo past 2 MB is too large, keeping everything typed, and stores nothing", async () => {
    const logosBefore = (await host.deps.storage.list("public/logos")).length;
    const response = await settle(() =>
      createAction(
        args(
          multipartRequest(
            "/clients/new-client",
            {
              client_name: "Photo College",
              primary_website: "https://photocollege.edu",
              url_code: "",
              country: "US",
              notes: "Logo from the brochure",
              logo: new File([pngOfAtLeast(3 * 1024 * 1024)], "brochure.png", { type: "image/png" }),
            },
            admin,
          ),
        ),
      ),
    );
    expect(response.status).toBe(413);
    const reply = await response.json();
    expect(reply.error).toEqual({ logo: ["The chosen logo is larger than 2 MB: choose a smaller image"] });
    expect(reply.initialValue).toMatchObject({
      client_name: "Photo College",
      primary_website: "https://photocollege.edu",
      url_code: "photocollege",
      notes: "Logo from the brochure",
    });
    expect(await appByCode("photocollege")).toBeUndefined();
    expect((await host.deps.storage.list("public/logos")).length).toBe(logosBefore);
  });

  it("says beside the logo, on the form rather than an error page, that a file too large to read is too large", async () => {
    const response = await settle(() =>
      createAction(
        args(
          declaringLength(
            multipartRequest(
              "/clients/new-client",
              {
                client_name: "Poster College",
                primary_website: "https://postercollege.edu",
                country: "US",
                logo: new File([PNG_BYTES], "poster.png", { type: "image/png" }),
              },
              admin,
            ),
            65 * 1024 * 1024,
          ),
        ),
      ),
    );
    expect(response.status).toBe(413);
    expect((await response.json()).error).toEqual({
      logo: ["The chosen logo is larger than 2 MB: choose a smaller image"],
    });
    expect(await appByCode("postercollege")).toBeUndefined();
  });

  it("answers a reserved url_code with 400, the API's message on url_code and the typed values kept", async () => {
    const response = await settle(() =>
      createAction(
        args(
          multipartRequest(
            "/clients/new-client",
            {
              client_name: "Clashing Name",
              primary_website: "https://www.clashing.org",
              url_code: "clients",
              country: "IN",
              notes: "keep me",
              logo: noFile(),
            },
            admin,
          ),
        ),
      ),
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.url_code).toEqual(["This url_code is used by the console itself; choose another"]);
    expect(reply.initialValue).toMatchObject({
      client_name: "Clashing Name",
      primary_website: "https://www.clashing.org",
      url_code: "clients",
      notes: "keep me",
      market: "in_clients",
    });
  });

  it("answers a taken url_code next to url_code, derived on the server when left blank", async () => {
    const response = await settle(() =>
      createAction(
        args(
          multipartRequest(
            "/clients/new-client",
            { client_name: "Another Northfield", primary_website: "northfield.edu" },
            admin,
          ),
        ),
      ),
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.url_code).toEqual(["The url_code northfield is already used by another client"]);
    expect(reply.initialValue.url_code).toBe("northfield");
  });

  it("shows the API's required-field message for a missing client name", async () => {
    const response = await settle(() =>
      createAction(args(multipartRequest("/clients/new-client", { primary_website: "nameless.io" }, admin))),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.client_name).toEqual(["This string is required"]);
  });
});

describe("edit form (/{url_code}/manage)", () => {
  const editFields = (overrides: Record<string, string> = {}) => ({
    client_name: "Lakeside College of Arts",
    primary_website: "https://www.lakeside-college.edu",
    logo: noFile(),
    logo_url: "",
    country: "UK",
    url_code: "lakeside-college",
    copy_market: "us_configdefault",
    client_type: "higher_ed",
    trigger_points: "apply",
    mode_env: "staging",
    onboard_existing_client: "on",
    notes: "",
    project_url: "",
    insync_prod_app_id: "LK-1",
    ...overrides,
  });

  it("loads the client of the path", async () => {
    const data = await loaderJson(
      manageLoader,
      args(getRequest("/northfield/manage", admin), testContext(host), { appName: "northfield" }),
    );
    expect(data.app.client_name).toBe("Northfield University");
    const missing = await settle(() =>
      manageLoader(args(getRequest("/nosuch/manage", admin), testContext(host), { appName: "nosuch" })),
    );
    expect(missing.status).toBe(404);
  });

  it("saves, stays on the page with 'Saved', and keeps url_code and country whatever is posted", async () => {
    const response = await settle(() =>
      manageAction(
        args(
          multipartRequest("/lakeside-college/manage", editFields({ url_code: "renamed", country: "US" }), admin),
          testContext(host),
          { appName: "lakeside-college" },
        ),
      ),
    );
    expect(response).toHaveRedirect("/lakeside-college/manage");
    await expect(response).toSendToast({ type: "success", description: "Saved" });
    expect(await appByCode("renamed")).toBeUndefined();
    expect(await appByCode("lakeside-college")).toMatchObject({
      client_name: "Lakeside College of Arts",
      country: "UK",
      market: "uk_lakeside-college",
      client_type: "ecommerce",
      trigger_points: ["apply"],
      onboard_existing_client: true,
      insync_prod_app_id: "LK-1",
    });
  });

  it("lets a client admin save their client; a client user is refused", async () => {
    const northfield = await appByCode("northfield");
    const fields = editFields({
      client_name: "Northfield University",
      primary_website: "https://www.northfield.edu",
      country: "US",
      url_code: "northfield",
      copy_market: "us_eduenroll",
      trigger_points: "admissions, studentsuccess",
      logo_url: String(northfield?.logo_url ?? ""),
    });
    const clientAdmin = await signInToConsole(host, "client.admin@example.com");
    const saved = await settle(() =>
      manageAction(
        args(multipartRequest("/northfield/manage", fields, clientAdmin), testContext(host), { appName: "northfield" }),
      ),
    );
    expect(saved).toHaveRedirect();
    const clientUser = await signInToConsole(host, "client.user@example.com");
    const refused = await settle(() =>
      manageAction(
        args(multipartRequest("/northfield/manage", fields, clientUser), testContext(host), { appName: "northfield" }),
      ),
    );
    expect(refused.status).toBe(403);
    expect(await refused.text()).toBe(NOT_YOURS_TO_CHANGE);
    // A post the form would refuse too is refused first for who sends it, not for what it holds.
    const invalid = await settle(() =>
      manageAction(
        args(multipartRequest("/northfield/manage", { ...fields, client_name: "" }, clientUser), testContext(host), {
          appName: "northfield",
        }),
      ),
    );
    expect(invalid.status).toBe(403);
  });
});

describe("import clients (/clients/import)", () => {
  async function exportOf(urlCode: string) {
    const app = await appByCode(urlCode);
    const response = await host.api.request(`/v1/apps/${app!.id}/exports/export`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { file_name: string }).file_name;
  }
  const rename = async (urlCode: string, client_name: string) => {
    const app = await appByCode(urlCode);
    const { id: _id, agents: _agents, status: _status, ...input } = app!;
    const { status } = await call("PUT", `/v1/apps/${app!.id}`, { token: adminToken, body: { ...input, client_name } });
    expect(status).toBe(200);
  };
  const importRequest = (fileNames: string[], confirmed = false) =>
    new Request("http://localhost/clients/import", {
      method: "POST",
      body: new URLSearchParams([
        ...fileNames.map((name) => ["file_name", name]),
        ...(confirmed ? [["replace_confirmed", "yes"]] : []),
      ]),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: admin },
    });

  /** The API's import, which imports at once, as the spec's call does: puts a client back as exported. */
  const importAtOnce = async (file_name: string) => {
    const { status } = await call("POST", "/v1/import_from_file", { token: adminToken, body: { file_name } });
    expect(status).toBe(200);
  };
  /** The post of the question's Import and replace: its files, confirmed, and what was asked. */
  const confirmRequest = (question: { fileNames: string[]; asked?: string }) =>
    new Request("http://localhost/clients/import", {
      method: "POST",
      body: new URLSearchParams([
        ...question.fileNames.map((name) => ["file_name", name]),
        ["replace_confirmed", "yes"],
        ...(question.asked === undefined ? [] : [["replace_asked", question.asked]]),
        ["intent", "import"],
      ]),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: admin },
    });
  /** Import Selected, then Import and replace on the question it answers. */
  const askThenConfirm = async (fileNames: string[]) => {
    const asked = await settle(() => importAction(args(importRequest(fileNames))));
    expect(asked.status).toBe(200);
    const question = await asked.json();
    return settle(() => importAction(args(confirmRequest(question))));
  };

  it("lists the files that can be imported", async () => {
    const fileName = await exportOf("northfield");
    const data = await loaderJson(importLoader, args(getRequest("/clients/import", admin)));
    expect(data).toMatchObject({ loadError: false });
    expect(data.files).toContain(fileName);
  });

  it("says the list could not load when the API fails, rather than failing the page", async () => {
    const context = testContext(host);
    const broken = {
      ...context,
      apiFetch: async (request: Request) =>
        new URL(request.url).pathname === "/v1/export_files"
          ? new Response(JSON.stringify({ message: "boom" }), { status: 500 })
          : context.apiFetch(request),
    };
    const data = await loaderJson(importLoader, args(getRequest("/clients/import", admin), broken));
    expect(data).toEqual({ files: [], loadError: true });
  });

  it("imports the selected files in order, then goes to /clients with a summary", async () => {
    const first = await exportOf("lakeside-college");
    const second = await exportOf("shoppixel-store");
    await rename("lakeside-college", "Lakeside renamed");
    await rename("shoppixel-store", "Pixel renamed");
    // A Client user's post is refused as the page is: 403, nothing imported.
    const clientUser = await signInToConsole(host, "client.user@example.com");
    const notStaff = new Request("http://localhost/clients/import", {
      method: "POST",
      body: new URLSearchParams([["file_name", first]]),
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: clientUser },
    });
    expect((await settle(() => importAction(args(notStaff)))).status).toBe(403);
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside renamed");
    const response = await askThenConfirm([first, second]);
    expect(response).toHaveRedirect("/clients");
    await expect(response).toSendToast({
      type: "success",
      description: "Imported 2 files: Updated Lakeside College of Arts; Updated Pixel Store",
    });
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside College of Arts");
    expect((await appByCode("shoppixel-store"))?.client_name).toBe("Pixel Store");
  });

  it("stops at the first file that fails, keeping what was imported before it, and says why", async () => {
    const first = await exportOf("lakeside-college");
    const third = await exportOf("shoppixel-store");
    await rename("lakeside-college", "Lakeside renamed");
    await rename("shoppixel-store", "Pixel renamed");
    const missing = "nobody_20200101-000000.json";
    const response = await askThenConfirm([first, missing, third]);
    // The page comes back with the files not imported still ticked.
    expect(response).toHaveRedirect(
      `/clients/import?${new URLSearchParams([
        ["file_name", missing],
        ["file_name", third],
      ])}`,
    );
    await expect(response).toSendToast({
      type: "error",
      title: "Imported 1 file: Updated Lakeside College of Arts",
      description: `No export file named ${missing}`,
    });
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside College of Arts");
    expect((await appByCode("shoppixel-store"))?.client_name).toBe("Pixel renamed");
  });

  it("says first which live clients the files would change and what would change, importing nothing until confirmed", async () => {
    const lakeside = await exportOf("lakeside-college");
    const fresh = `fresh-arts_20260101-000000-000.json`;
    const text = (await host.deps.storage.get(`exports/${lakeside}`))!.toString("utf8");
    const content = JSON.parse(text);
    await host.deps.storage.put(
      `exports/${fresh}`,
      JSON.stringify({ ...content, app: { ...content.app, url_code: "fresh-arts", client_name: "Fresh Arts" } }),
    );
    await rename("lakeside-college", "Lakeside renamed");
    const missing = "nobody_20200101-000000.json";

    const asked = await settle(() => importAction(args(importRequest([fresh, lakeside, missing]))));
    expect(asked.status).toBe(200);
    // A file that would create a client, or that the import refuses, is not asked about.
    const question = await asked.json();
    expect(question).toEqual({
      intent: "confirm-import-replace",
      asked: expect.stringMatching(/^[0-9a-f]{64}$/),
      changedSince: false,
      fileNames: [fresh, lakeside, missing],
      replacing: [
        {
          file_name: lakeside,
          client_name: "Lakeside renamed",
          changes: ["Client Profile: Client Name changed"],
          change_count: 1,
        },
      ],
    });
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside renamed");
    expect(await appByCode("fresh-arts")).toBeUndefined();

    // Confirmed, the files are imported in order; the one the import refuses stops the run there.
    const confirmed = await settle(() => importAction(args(confirmRequest(question))));
    expect(confirmed).toHaveRedirect(`/clients/import?${new URLSearchParams([["file_name", missing]])}`);
    await expect(confirmed).toSendToast({
      type: "error",
      title: "Imported 2 files: Imported Fresh Arts; Updated Lakeside College of Arts",
      description: `No export file named ${missing}`,
    });
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside College of Arts");
  });

  it("refuses a confirmation whose clients changed since the question, importing nothing and asking again", async () => {
    const exported = (await appByCode("lakeside-college"))?.client_name;
    const lakeside = await exportOf("lakeside-college");
    await rename("lakeside-college", "Lakeside asked");
    const asked = await settle(() => importAction(args(importRequest([lakeside]))));
    const question = await asked.json();
    expect(question.replacing.map((client: { client_name: string }) => client.client_name)).toEqual(["Lakeside asked"]);

    // Another operator renames the client while the question is open: the import would now
    // replace a name the question never showed.
    await rename("lakeside-college", "Lakeside renamed while asked");
    const refused = await settle(() => importAction(args(confirmRequest(question))));
    expect(refused.status).toBe(200);
    const again = await refused.json();
    expect(again).toMatchObject({
      intent: "confirm-import-replace",
      changedSince: true,
      fileNames: [lakeside],
      replacing: [{ file_name: lakeside, client_name: "Lakeside renamed while asked" }],
    });
    expect(again.asked).toMatch(/^[0-9a-f]{64}$/);
    expect(again.asked).not.toBe(question.asked);
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside renamed while asked");

    // Confirmed again, as now asked, it imports.
    const confirmed = await settle(() => importAction(args(confirmRequest(again))));
    expect(confirmed).toHaveRedirect("/clients");
    expect((await appByCode("lakeside-college"))?.client_name).toBe(exported);
  });

  it("refuses a confirmation that posts other files than the question named", async () => {
    const lakeside = await exportOf("lakeside-college");
    const pixel = await exportOf("shoppixel-store");
    await rename("lakeside-college", "Lakeside other files");
    await rename("shoppixel-store", "Pixel other files");
    const question = await (await settle(() => importAction(args(importRequest([lakeside]))))).json();
    const refused = await settle(() =>
      importAction(args(confirmRequest({ ...question, fileNames: [lakeside, pixel] }))),
    );
    expect(await refused.json()).toMatchObject({ changedSince: true, fileNames: [lakeside, pixel] });
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside other files");
    expect((await appByCode("shoppixel-store"))?.client_name).toBe("Pixel other files");
    await importAtOnce(lakeside);
    await importAtOnce(pixel);
  });

  it("asks, rather than imports, on a confirmation that carries no question", async () => {
    const lakeside = await exportOf("lakeside-college");
    await rename("lakeside-college", "Lakeside unasked");
    const asked = await settle(() => importAction(args(importRequest([lakeside], true))));
    expect(await asked.json()).toMatchObject({ intent: "confirm-import-replace", changedSince: false });
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside unasked");
    await importAtOnce(lakeside);
  });

  it("refuses a malformed confirmation with a 400 and imports nothing", async () => {
    const lakeside = await exportOf("lakeside-college");
    await rename("lakeside-college", "Lakeside malformed");
    const question = await (await settle(() => importAction(args(importRequest([lakeside]))))).json();
    for (const asked of [`${question.asked.slice(0, 63)}\u0000`, `${question.asked}0`, "x".repeat(64)]) {
      const response = await settle(() => importAction(args(confirmRequest({ ...question, asked }))));
      expect(response.status).toBe(400);
      expect((await response.json()).error.replace_asked).toEqual([
        "This confirmation is not one the page asked for: import the files again",
      ]);
    }
    expect((await appByCode("lakeside-college"))?.client_name).toBe("Lakeside malformed");
    await importAtOnce(lakeside);
  });

  it("imports without asking files that change no live client", async () => {
    const same = await exportOf("lakeside-college");
    const response = await settle(() => importAction(args(importRequest([same]))));
    expect(response).toHaveRedirect("/clients");
    await expect(response).toSendToast({
      type: "success",
      description: "Imported 1 file: Lakeside College of Arts already holds what the file holds: nothing changed",
    });
  });

  it("says what in a refused file to fix, naming the file once", async () => {
    const valid = await exportOf("lakeside-college");
    const text = (await host.deps.storage.get(`exports/${valid}`))!.toString("utf8");
    const later = "lakeside-college_20990101-000000.json";
    await host.deps.storage.put(`exports/${later}`, JSON.stringify({ ...JSON.parse(text), version: 2 }));
    const response = await settle(() => importAction(args(importRequest([later]))));
    await expect(response).toSendToast({
      type: "error",
      description: `${later} is not a client export this console can import: version: Only version 1 exports can be imported`,
    });
  });

  it("asks for at least one file when nothing is selected", async () => {
    const response = await settle(() => importAction(args(importRequest([]))));
    expect(response.status).toBe(400);
    expect((await response.json()).error.file_name).toEqual(["Select at least one file to import"]);
  });
});
