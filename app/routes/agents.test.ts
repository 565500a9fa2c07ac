import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  declaringLength,
  formRequest,
  getRequest,
  loaderJson,
  settle,
  signInToConsole,
  testContext,
} from "../../tests/support/console-context";
import { PNG_BYTES, pngOfAtLeast } from "../../tests/support/files";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";
import { NOT_YOURS_TO_CHANGE } from "~/lib/messages";
import { action as homeAction, loader as homeLoader } from "./$appName._index";
import { action as downloadAction, loader as downloadsLoader } from "./$appName.admin-downloads";
import {
  action as agentDownloadAction,
  loader as agentDownloadsLoader,
} from "./$appName.agent.$agentName.admin-downloads";
import { action as buildAction, loader as buildLoader } from "./$appName.build-agent";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let adminToken: string;
let admin: string;
let clientUser: string;
let northfieldId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  adminToken = (await signInAs(host, "admin@example.com")).user_token;
  admin = await signInToConsole(host, "admin@example.com");
  clientUser = await signInToConsole(host, "client.user@example.com");
  northfieldId = (await appByCode("northfield")).id;
});
afterAll(() => host?.close());

const args = (request: Request, params: Record<string, string>, context = testContext(host)) => ({
  request,
  context,
  params,
});
const northfield = { appName: "northfield" };

interface AgentRow {
  id: number;
  name: string;
  site_code: string;
  agent_type: string;
  logo: string | null;
}

async function appByCode(urlCode: string) {
  const { body } = await call("GET", "/v1/apps", { token: adminToken });
  return (body.apps as { id: number; url_code: string; agents: AgentRow[] }[]).find((app) => app.url_code === urlCode)!;
}

const agentById = async (id: number) =>
  (await call("GET", `/v1/apps/${northfieldId}/agents/${id}`, { token: adminToken })).body;
const agentBySiteCode = async (siteCode: string) =>
  (await appByCode("northfield")).agents.find((a) => a.site_code === siteCode);

/** The build-agent form as the browser posts it: multipart, with an empty file input when no logo is chosen. */
function agentFormRequest(url: string, fields: Record<string, string | File>, cookie: string) {
  const body = new FormData();
  if (!("logo" in fields)) body.append("logo", new File([], "", { type: "application/octet-stream" }));
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return new Request(`http://localhost${url}`, { method: "POST", body, headers: { cookie } });
}

describe("agent list home", () => {
  it("groups a higher_ed client's agents as Enrollment and Engagement", async () => {
    const data = await loaderJson(homeLoader, args(getRequest("/northfield", admin), northfield));
    expect(data.client.url_code).toBe("northfield");
    const groups = data.groups as { title: string; type: string; offersCreate: boolean; agents: AgentRow[] }[];
    expect(groups.map((g) => g.title)).toEqual(["Enrollment Agents", "Engagement Agents"]);
    expect(groups[0].agents.map((a) => a.name)).toContain("Admissions Assistant");
    expect(groups[1].agents.map((a) => a.name)).toContain("Student Success");
    expect(groups.every((g) => g.offersCreate)).toBe(true);
  });

  it("gives an ecommerce client only Ecommerce Agents", async () => {
    const data = await loaderJson(
      homeLoader,
      args(getRequest("/shopharbor-outfitters", admin), { appName: "shopharbor-outfitters" }),
    );
    expect(
      data.groups.map((g: { title: string; agents: AgentRow[] }) => [g.title, g.agents.map((a) => a.name)]),
    ).toEqual([["Ecommerce Agents", ["Shop Assistant"]]]);
  });

  it("answers 400 to an unknown intent", async () => {
    const response = await settle(() =>
      homeAction(args(formRequest("/northfield?index", { intent: "explode" }, admin), northfield)),
    );
    expect(response.status).toBe(400);
  });
});

describe("build-agent loader", () => {
  it("preselects ?type for a new agent, with the spec's defaults", async () => {
    const data = await loaderJson(
      buildLoader,
      args(getRequest("/northfield/build-agent?type=engagement", admin), northfield),
    );
    expect(data.mode).toBe("create");
    expect(data.formAction).toBe("/northfield/build-agent?type=engagement");
    expect(data.defaultValue).toEqual({
      name: "",
      agent_type: "engagement",
      site_code: "",
      logo_url: "",
      url: "",
      status: "active",
      mode_env: "staging",
    });
  });

  it("starts an agent without ?type as the client's first type", async () => {
    const higherEd = await loaderJson(buildLoader, args(getRequest("/northfield/build-agent", admin), northfield));
    expect(higherEd.defaultValue.agent_type).toBe("enrollment");
    const shop = await loaderJson(
      buildLoader,
      args(getRequest("/shopharbor-outfitters/build-agent", admin), { appName: "shopharbor-outfitters" }),
    );
    expect(shop.defaultValue.agent_type).toBe("ecommerce");
  });

  it("loads the agent of ?id for editing", async () => {
    const admissions = (await agentBySiteCode("admissions"))!;
    const data = await loaderJson(
      buildLoader,
      args(getRequest(`/northfield/build-agent?id=${admissions.id}`, admin), northfield),
    );
    expect(data.mode).toBe("edit");
    expect(data.formAction).toBe(`/northfield/build-agent?id=${admissions.id}`);
    expect(data.defaultValue).toMatchObject({
      id: admissions.id,
      name: "Admissions Assistant",
      agent_type: "enrollment",
      site_code: "admissions",
    });
  });

  it("answers 404 for an id that is no agent of this client", async () => {
    const shopAgent = (await appByCode("shopharbor-outfitters")).agents[0];
    for (const id of ["abc", "0", String(shopAgent.id), "999999"]) {
      const response = await settle(() =>
        buildLoader(args(getRequest(`/northfield/build-agent?id=${id}`, admin), northfield)),
      );
      expect(response.status, id).toBe(404);
    }
  });
});

describe("build-agent action", () => {
  it("creates an agent with the defaults and a stripped site code, then goes home with a toast", async () => {
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=engagement",
            {
              name: "  Graduate Helper ",
              agent_type: "engagement",
              site_code: "grad-help_01!",
              url: "https://www.northfield.edu/grad",
              // Read-only on screen: a posted mode is ignored, a new agent starts in the sandbox.
              mode_env: "production",
            },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response).toHaveRedirect("/northfield");
    await expect(response).toSendToast({ type: "success", description: "Graduate Helper created" });

    const created = (await agentBySiteCode("gradhelp01"))!;
    expect(await agentById(created.id)).toMatchObject({
      name: "Graduate Helper",
      agent_type: "engagement",
      site_code: "gradhelp01",
      logo: null,
      url: "https://www.northfield.edu/grad",
      status: "active",
      mode_env: "staging",
      metadata: {},
    });
    const home = await loaderJson(homeLoader, args(getRequest("/northfield", admin), northfield));
    expect(home.groups[1].agents.map((a: AgentRow) => a.site_code)).toContain("gradhelp01");
  });

  it("uploads the logo with the form and stores its URL", async () => {
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=enrollment",
            {
              name: "Logo Agent",
              agent_type: "enrollment",
              site_code: "logoagent",
              status: "inactive",
              logo: new File([PNG_BYTES], "logo.png", { type: "image/png" }),
            },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response).toHaveRedirect();
    const created = await agentById((await agentBySiteCode("logoagent"))!.id);
    expect(created.status).toBe("inactive");
    expect(created.logo).toMatch(/^\/storage\/public\/agents\/\d+\/[0-9a-f-]+\.png$/);
    const served = await host.api.fetch(new Request(`http://localhost${created.logo}`));
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG_BYTES);
  });

  it("shows a refused logo upload next to the logo field and keeps everything typed", async () => {
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=enrollment",
            {
              name: "Bad Logo",
              agent_type: "enrollment",
              site_code: "bad-logo",
              url: "https://x.example",
              logo: new File(["not an image"], "notes.txt", { type: "text/plain" }),
            },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.logo).toEqual(["notes.txt: only .svg, .png and .img files are accepted"]);
    expect(reply.initialValue).toMatchObject({ name: "Bad Logo", site_code: "badlogo", url: "https://x.example" });
    expect(await agentBySiteCode("badlogo")).toBeUndefined();
  });

  it("says beside the logo that a logo past 2 MB is too large, keeping everything typed, and stores nothing", async () => {
    const photo = new File([pngOfAtLeast(3 * 1024 * 1024)], "photo.png", { type: "image/png" });
    const context = testContext(host);
    const asked: string[] = [];
    const apiFetch = context.apiFetch;
    context.apiFetch = async (request) => {
      asked.push(new URL(request.url).pathname);
      return apiFetch(request);
    };
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=enrollment",
            {
              name: "Photo Logo",
              agent_type: "enrollment",
              site_code: "photo-logo",
              logo: photo,
              url: "https://photo.example",
              status: "inactive",
            },
            admin,
          ),
          northfield,
          context,
        ),
      ),
    );
    expect(response.status).toBe(413);
    const reply = await response.json();
    expect(reply.error).toEqual({ logo: ["The chosen logo is larger than 2 MB: choose a smaller image"] });
    expect(reply.initialValue).toMatchObject({
      name: "Photo Logo",
      agent_type: "enrollment",
      site_code: "photologo",
      url: "https://photo.example",
      status: "inactive",
      mode_env: "staging",
    });
    expect(await agentBySiteCode("photologo")).toBeUndefined();
    // Refused before the API was asked to store it.
    expect(asked.filter((path) => path.endsWith("/logo_upload"))).toEqual([]);
  });

  it("says beside the logo that a file too large to read is too large, on the form rather than an error page", async () => {
    const huge = new File([PNG_BYTES], "poster.png", { type: "image/png" });
    const response = await settle(() =>
      buildAction(
        args(
          declaringLength(
            agentFormRequest(
              "/northfield/build-agent?type=enrollment",
              { name: "Huge Logo", agent_type: "enrollment", site_code: "hugelogo", logo: huge },
              admin,
            ),
            65 * 1024 * 1024,
          ),
          northfield,
        ),
      ),
    );
    expect(response.status).toBe(413);
    const reply = await response.json();
    expect(reply.error.logo).toEqual(["The chosen logo is larger than 2 MB: choose a smaller image"]);
    expect(await agentBySiteCode("hugelogo")).toBeUndefined();
  });

  it("keeps the chosen logo when the site code is refused as taken (a file input cannot be refilled)", async () => {
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=enrollment",
            {
              name: "Keep Me",
              agent_type: "enrollment",
              site_code: "admissions",
              logo: new File([PNG_BYTES], "logo.png", { type: "image/png" }),
            },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.site_code).toEqual(["The site code admissions is already used by another agent of this client"]);
    expect(reply.initialValue.logo_url).toMatch(/^\/storage\/public\/agents\/\d+\/[0-9a-f-]+\.png$/);
    expect(reply.initialValue.name).toBe("Keep Me");
  });

  it("edits an agent, keeping its type, mode and metadata", async () => {
    await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=enrollment",
            {
              name: "Editable",
              agent_type: "enrollment",
              site_code: "editable",
            },
            admin,
          ),
          northfield,
        ),
      ),
    );
    const agent = (await agentBySiteCode("editable"))!;
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            `/northfield/build-agent?id=${agent.id}`,
            {
              id: String(agent.id),
              name: "Edited Agent",
              agent_type: "ecommerce",
              site_code: "edited.agent",
              url: "https://e.example",
              status: "inactive",
              mode_env: "production",
              logo_url: "",
            },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response).toHaveRedirect("/northfield");
    await expect(response).toSendToast({ type: "success", description: "Edited Agent saved" });
    expect(await agentById(agent.id)).toMatchObject({
      id: agent.id,
      name: "Edited Agent",
      agent_type: "enrollment",
      site_code: "editedagent",
      url: "https://e.example",
      status: "inactive",
      mode_env: "staging",
    });
  });

  it("keeps the current logo on edit when no new file is chosen", async () => {
    const withLogo = (await agentBySiteCode("logoagent"))!;
    const logo = (await agentById(withLogo.id)).logo;
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            `/northfield/build-agent?id=${withLogo.id}`,
            {
              id: String(withLogo.id),
              name: "Logo Agent Renamed",
              site_code: "logoagent",
              logo_url: logo,
              status: "active",
            },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response).toHaveRedirect();
    expect(await agentById(withLogo.id)).toMatchObject({ name: "Logo Agent Renamed", logo });
  });

  it("puts a site code already in use next to the site code field, keeping the values", async () => {
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=engagement",
            {
              name: "Second Admissions",
              agent_type: "engagement",
              site_code: "admis-sions",
              url: "https://dup.example",
            },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.site_code).toEqual(["The site code admissions is already used by another agent of this client"]);
    expect(reply.initialValue).toMatchObject({
      name: "Second Admissions",
      site_code: "admissions",
      url: "https://dup.example",
      agent_type: "engagement",
    });
  });

  it("refuses a new agent of a type the client does not work with, beside the type, keeping the values", async () => {
    const before = (await appByCode("northfield")).agents.length;
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=ecommerce",
            { name: "Campus Shop", agent_type: "ecommerce", site_code: "campusshop", url: "https://shop.example" },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response.status).toBe(400);
    const reply = await response.json();
    expect(reply.error.agent_type).toEqual(["A higher education client's agents are Enrollment or Engagement agents"]);
    expect(reply.initialValue).toMatchObject({ name: "Campus Shop", site_code: "campusshop" });
    expect((await appByCode("northfield")).agents).toHaveLength(before);
  });

  it("edits the agent the address names: a post to another client's agent or to none is not found, never a new agent", async () => {
    const harborAgent = (await appByCode("shopharbor-outfitters")).agents[0];
    const before = (await appByCode("northfield")).agents.length;
    // An empty ?id= too: the page it names does not load, so its post is no new agent either.
    for (const id of [String(harborAgent.id), "999999", ""]) {
      const response = await settle(() =>
        buildAction(
          args(
            agentFormRequest(
              `/northfield/build-agent?id=${id}`,
              { name: "Hijack", agent_type: "enrollment", site_code: "hijack", url: "" },
              admin,
            ),
            northfield,
          ),
        ),
      );
      expect(response.status, id).toBe(404);
    }
    expect((await appByCode("northfield")).agents).toHaveLength(before);
    expect((await appByCode("shopharbor-outfitters")).agents[0]).toEqual(harborAgent);
  });

  it("refuses a client user with 403", async () => {
    const before = (await appByCode("northfield")).agents.length;
    const response = await settle(() =>
      buildAction(
        args(
          agentFormRequest(
            "/northfield/build-agent?type=enrollment",
            {
              name: "Sneaky",
              agent_type: "enrollment",
              site_code: "sneaky",
            },
            clientUser,
          ),
          northfield,
        ),
      ),
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toBe(NOT_YOURS_TO_CHANGE);
    expect((await appByCode("northfield")).agents).toHaveLength(before);
  });

  it("lets a client user read the form of an agent", async () => {
    const admissions = (await agentBySiteCode("admissions"))!;
    const data = await loaderJson(
      buildLoader,
      args(getRequest(`/northfield/build-agent?id=${admissions.id}`, clientUser), northfield),
    );
    expect(data.defaultValue.name).toBe("Admissions Assistant");
  });
});

describe("export and admin downloads", () => {
  it("lists nothing for a client without files", async () => {
    const data = await loaderJson(
      downloadsLoader,
      args(getRequest("/shopharbor-outfitters/admin-downloads", admin), { appName: "shopharbor-outfitters" }),
    );
    expect(data.files).toEqual([]);
  });

  it("says 'Error: {message}' under the heading when the files cannot be listed, not that there are none", async () => {
    const context = testContext(host);
    const apiFetch = context.apiFetch;
    context.apiFetch = async (request) =>
      new URL(request.url).pathname === "/v1/admin_downloads/latest_files"
        ? Response.json({ message: "Downloads are unavailable" }, { status: 400 })
        : apiFetch(request);
    const data = await loaderJson(
      downloadsLoader,
      args(getRequest("/northfield/admin-downloads", admin), northfield, context),
    );
    expect(data).toEqual({ files: [], error: "Error: Downloads are unavailable" });
  });

  it("says on the page that a file must be chosen when a post names none", async () => {
    const response = await settle(() =>
      downloadAction(args(formRequest("/northfield/admin-downloads", { file_key: "" }, admin), northfield)),
    );
    expect(response).toHaveRedirect("/northfield/admin-downloads");
    await expect(response).toSendToast({ type: "error", description: "Choose a file to download" });
  });

  it("refuses Export App to a client user", async () => {
    const response = await settle(() =>
      homeAction(args(formRequest("/northfield?index", { intent: "export" }, clientUser), northfield)),
    );
    expect(response.status).toBe(403);
  });

  it("exports the client with a success toast; the export is then downloadable through a signed link", async () => {
    const exported = await settle(() =>
      homeAction(args(formRequest("/northfield?index", { intent: "export" }, admin), northfield)),
    );
    expect(exported).toHaveRedirect("/northfield");
    await expect(exported).toSendToast({ type: "success", description: "Export completed successfully" });

    const data = await loaderJson(downloadsLoader, args(getRequest("/northfield/admin-downloads", admin), northfield));
    expect(data.files).toHaveLength(1);
    const [file] = data.files;
    expect(file).toMatchObject({ file_type: "app_export", filename: expect.stringMatching(/northfield.*\.json$/) });
    expect(file.size).toBeGreaterThan(0);

    // A client user may download.
    const response = await settle(() =>
      downloadAction(
        args(
          formRequest("/northfield/admin-downloads", { file_key: file.key, filename: file.filename }, clientUser),
          northfield,
        ),
      ),
    );
    expect(response).toHaveRedirect(/^\/storage\/download\?/);
    expect(response.headers.get("x-remix-reload-document")).toBe("true");
    const link = response.headers.get("location")!;

    const served = await host.api.fetch(new Request(`http://localhost${link}`));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-disposition")).toContain(`filename="${file.filename}"`);
    const content = JSON.parse(await served.text());
    expect(JSON.stringify(content)).toContain("Northfield University");
    expect(new TextEncoder().encode(JSON.stringify(content, null, 2)).byteLength).toBe(file.size);
  });

  it("serves the same files and downloads on the agent-level page", async () => {
    const params = { appName: "northfield", agentName: "admissions" };
    const data = await loaderJson(
      agentDownloadsLoader,
      args(getRequest("/northfield/agent/admissions/admin-downloads", admin), params),
    );
    expect(data.files.map((f: { file_type: string }) => f.file_type)).toEqual(["app_export"]);
    const response = await settle(() =>
      agentDownloadAction(
        args(
          formRequest(
            "/northfield/agent/admissions/admin-downloads",
            { file_key: data.files[0].key, filename: data.files[0].filename },
            admin,
          ),
          params,
        ),
      ),
    );
    expect(response).toHaveRedirect(/^\/storage\/download\?/);
  });

  it("downloads the export the page listed after a colleague's newer export took its place in the list", async () => {
    const listed = async () =>
      (await loaderJson(downloadsLoader, args(getRequest("/northfield/admin-downloads", admin), northfield))).files;
    const exportNorthfield = () =>
      call("POST", `/v1/apps/${northfieldId}/exports/export`, { token: adminToken }).then(({ status }) =>
        expect(status).toBe(200),
      );
    await exportNorthfield();
    const [shown] = await listed();
    // The colleague's export, a moment later (its name is the time to the millisecond).
    do await exportNorthfield();
    while ((await listed())[0].key === shown.key);

    // The button posts what the page rendered for the file it stood beside.
    const response = await settle(() =>
      downloadAction(
        args(
          formRequest(
            "/northfield/admin-downloads",
            { file_key: shown.key, filename: shown.filename, proof: shown.proof },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(response).toHaveRedirect(/^\/storage\/download\?/);
    const served = await host.api.fetch(new Request(`http://localhost${response.headers.get("location")}`));
    expect(served.status).toBe(200);
    expect(served.headers.get("content-disposition")).toContain(`filename="${shown.filename}"`);
  });

  it("refuses a file the page's client never listed, even with another client's proof of listing", async () => {
    const staff = (await signInAs(host, "admin@example.com")).user_token;
    const apps = (await call("GET", "/v1/apps?status=active", { token: staff })).body.apps as {
      id: number;
      url_code: string;
    }[];
    const harbor = apps.find((a) => a.url_code === "shopharbor-outfitters")!;
    expect((await call("POST", `/v1/apps/${harbor.id}/exports/export`, { token: staff })).status).toBe(200);
    const harborParams = { appName: "shopharbor-outfitters" };
    const [theirs] = (
      await loaderJson(downloadsLoader, args(getRequest("/shopharbor-outfitters/admin-downloads", admin), harborParams))
    ).files;
    const [ours] = (
      await loaderJson(downloadsLoader, args(getRequest("/northfield/admin-downloads", admin), northfield))
    ).files;
    const post = (fields: Record<string, string>) =>
      settle(() => downloadAction(args(formRequest("/northfield/admin-downloads", fields, admin), northfield)));

    // Harbor's file with the proof its own page gave it, posted to Northfield's page.
    const foreign = await post({ proof: theirs.proof, file_key: theirs.key, filename: theirs.filename });
    await expect(foreign).toSendToast({
      type: "error",
      description: `Failed to download ${theirs.filename}: File not found`,
    });
    // Northfield's proof, with Harbor's key or another name in place of what it was given for.
    const swapped = await post({ proof: ours.proof, file_key: theirs.key, filename: ours.filename });
    await expect(swapped).toSendToast({
      type: "error",
      description: `Failed to download ${ours.filename}: File not found`,
    });
    const renamed = await post({ proof: ours.proof, file_key: ours.key, filename: "renamed.json" });
    // Still the page's own file: the listing names it, under its own name.
    expect(renamed).toHaveRedirect(/^\/storage\/download\?/);
  });

  it("returns to the page with 'Failed to download {filename}: {message}' when the API refuses", async () => {
    const response = await settle(() =>
      downloadAction(
        args(
          formRequest("/northfield/admin-downloads", { file_key: "exports/nope.json", filename: "nope.json" }, admin),
          northfield,
        ),
      ),
    );
    expect(response).toHaveRedirect("/northfield/admin-downloads");
    await expect(response).toSendToast({
      type: "error",
      description: "Failed to download nope.json: File not found",
    });
  });

  it("says 'No download URL received' when the API answers without a link", async () => {
    const [file] = (
      await loaderJson(downloadsLoader, args(getRequest("/northfield/admin-downloads", admin), northfield))
    ).files as { key: string; filename: string }[];
    const context = testContext(host);
    context.apiFetch = async (request) =>
      new URL(request.url).pathname === "/v1/admin_downloads/download"
        ? Response.json({ download_url: "", url: "", expires_at: new Date().toISOString() })
        : host.api.fetch(request);
    const blank = await settle(() =>
      downloadAction(
        args(
          formRequest("/northfield/admin-downloads", { file_key: file.key, filename: "export.json" }, admin),
          northfield,
          context,
        ),
      ),
    );
    await expect(blank).toSendToast({
      type: "error",
      description: `Failed to download ${file.filename}: No download URL received`,
    });

    context.apiFetch = async (request) =>
      new URL(request.url).pathname === "/v1/admin_downloads/download" ? Response.json({}) : host.api.fetch(request);
    const missing = await settle(() =>
      downloadAction(
        args(
          formRequest("/northfield/admin-downloads", { file_key: file.key, filename: "export.json" }, admin),
          northfield,
          context,
        ),
      ),
    );
    await expect(missing).toSendToast({
      type: "error",
      description: `Failed to download ${file.filename}: No download URL received`,
    });
  });

  it("downloads only the files of the page's client, under an agent it has", async () => {
    // A System Admin reaches every client's files: the page's client, not the caller's reach, scopes the key.
    const staff = (await signInAs(host, "admin@example.com")).user_token;
    const apps = (await call("GET", "/v1/apps?status=active", { token: staff })).body.apps as {
      id: number;
      url_code: string;
    }[];
    const harbor = apps.find((a) => a.url_code !== "northfield")!;
    expect((await call("POST", `/v1/apps/${harbor.id}/exports/export`, { token: staff })).status).toBe(200);
    const harborFile = Object.values(
      (await call("GET", `/v1/admin_downloads/latest_files?app_id=${harbor.id}`, { token: staff })).body
        .files as Record<string, { key: string; filename: string }>,
    )[0];
    const refused = await settle(() =>
      downloadAction(
        args(
          formRequest(
            "/northfield/admin-downloads",
            { file_key: harborFile.key, filename: harborFile.filename },
            admin,
          ),
          northfield,
        ),
      ),
    );
    expect(refused).toHaveRedirect("/northfield/admin-downloads");
    await expect(refused).toSendToast({
      type: "error",
      description: `Failed to download ${harborFile.filename}: File not found`,
    });
    const [own] = (
      await loaderJson(downloadsLoader, args(getRequest("/northfield/admin-downloads", admin), northfield))
    ).files as { key: string; filename: string }[];
    const ghost = await settle(() =>
      agentDownloadAction(
        args(
          formRequest("/northfield/agent/ghost/admin-downloads", { file_key: own.key, filename: own.filename }, admin),
          { appName: "northfield", agentName: "ghost" },
        ),
      ),
    );
    expect(ghost.status).toBe(404);
  });

  it("shows an export failure as an error toast", async () => {
    const context = testContext(host);
    context.apiFetch = async (request) =>
      new URL(request.url).pathname.endsWith("/exports/export")
        ? Response.json({ message: "Storage is full" }, { status: 400 })
        : host.api.fetch(request);
    const response = await settle(() =>
      homeAction(args(formRequest("/northfield?index", { intent: "export" }, admin), northfield, context)),
    );
    expect(response).toHaveRedirect("/northfield");
    await expect(response).toSendToast({
      type: "error",
      description: "Failed to export Northfield University: Storage is full",
    });
  });
});
