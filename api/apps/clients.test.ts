import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HIGHER_ED_PERSONALITY } from "../controls/defaults";
import { agents, clientApps, controls } from "../db/schema";
import { PNG_BYTES, SVG_TEXT, multipart } from "../../tests/support/files";
import { apiCaller, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
const tokens: Record<string, string> = {};
let northfieldId: number;
let harborId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  for (const email of ["admin@example.com", "client.admin@example.com", "client.user@example.com"]) {
    tokens[email.split("@")[0]] = (await signInAs(host, email)).user_token;
  }
  const apps = await host.deps.db.select().from(clientApps);
  northfieldId = apps.find((a) => a.urlCode === "northfield")!.id;
  harborId = apps.find((a) => a.urlCode === "shopharbor-outfitters")!.id;
});
afterAll(() => host?.close());

const newClient = (overrides: Record<string, unknown> = {}) => ({
  client_name: "Lakeside College",
  primary_website: "https://www.lakeside.edu",
  notes: "",
  url_code: "lakeside",
  project_url: "",
  market: "us_lakeside",
  logo_url: null,
  country: "US",
  copy_market: "us_eduenroll",
  client_type: "higher_ed",
  onboard_existing_client: true,
  trigger_points: [],
  mode_env: "staging",
  insync_prod_app_id: null,
  ...overrides,
});

const personalityControl = (text: string, trigger_point: string) => ({
  internal_name: "ai_personality_guidelines",
  display_name: "Chatbot Personality",
  prompt_input_raw: text,
  trigger_point,
  metadata: {},
});

async function upload(path: string, token: string, form: FormData) {
  const response = await host.api.request(path, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

describe("clients", () => {
  it("onboards a client with every field and lists it", async () => {
    const created = await call("POST", "/v1/apps", {
      token: tokens.admin,
      body: newClient({ trigger_points: ["main"] }),
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      client_name: "Lakeside College",
      url_code: "lakeside",
      market: "us_lakeside",
      client_type: "higher_ed",
      status: "active",
      agents: [],
    });
    const listed = await call("GET", "/v1/apps?status=active&saerch=lakes", { token: tokens.admin });
    expect(listed.body.apps.map((a: { url_code: string }) => a.url_code)).toEqual(["lakeside"]);
  });

  it("lists clients of one name in the order they were onboarded, however often one was changed since", async () => {
    const codes = ["twin-a", "twin-b", "twin-c"];
    for (const url_code of codes) {
      const created = await call("POST", "/v1/apps", {
        token: tokens.admin,
        body: newClient({ client_name: "Twin College", url_code, market: url_code }),
      });
      expect(created.status).toBe(201);
    }
    // A change writes the row anew, at the end of the table on PostgreSQL: read in storage order, it
    // would come last.
    const first = (await call("GET", "/v1/apps?saerch=twin-a", { token: tokens.admin })).body.apps[0];
    expect(first.url_code).toBe("twin-a");
    const { agents: _agents, id, ...fields } = first;
    expect(
      (await call("PUT", `/v1/apps/${id}`, { token: tokens.admin, body: { ...fields, notes: "Moved" } })).status,
    ).toBe(200);
    const twins = (apps: { url_code: string }[]) =>
      apps.map((app) => app.url_code).filter((code) => codes.includes(code));
    expect(twins((await call("GET", "/v1/apps", { token: tokens.admin })).body.apps)).toEqual(codes);
    expect(twins((await call("GET", "/v1/apps?saerch=twin", { token: tokens.admin })).body.apps)).toEqual(codes);
  });

  it("refuses url_codes the console uses, taken ones and malformed ones, next to the field", async () => {
    const reserved = await call("POST", "/v1/apps", { token: tokens.admin, body: newClient({ url_code: "clients" }) });
    expect(reserved).toMatchObject({
      status: 400,
      body: { errors: { url_code: ["This url_code is used by the console itself; choose another"] } },
    });
    const taken = await call("POST", "/v1/apps", { token: tokens.admin, body: newClient({ url_code: "northfield" }) });
    expect(taken.body.errors.url_code).toEqual(["The url_code northfield is already used by another client"]);
    const malformed = await call("POST", "/v1/apps", {
      token: tokens.admin,
      body: newClient({ url_code: "bad code!" }),
    });
    expect(malformed.status).toBe(400);
    const missing = await call("POST", "/v1/apps", { token: tokens.admin, body: newClient({ client_name: "  " }) });
    expect(missing.body.errors.client_name).toEqual(["This string is required"]);
    // Zero-width characters show nothing: a name of them would be a blank card.
    const invisible = await call("POST", "/v1/apps", {
      token: tokens.admin,
      body: newClient({ client_name: "\u200b\u2060", url_code: "invisible" }),
    });
    expect(invisible.body.errors.client_name).toEqual(["This string is required"]);
    const agent = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: northfieldId, name: "\u00ad\ufeff", site_code: "invisible" },
    });
    expect(agent.body.errors.name).toEqual(["This string is required"]);
  });

  it("words each refusal for the person who typed the value, one message a field", async () => {
    const refused = await call("POST", "/v1/apps", {
      token: tokens.admin,
      body: newClient({
        client_name: "L".repeat(201),
        notes: "n".repeat(5001),
        url_code: "",
        country: "XX",
        trigger_points: ["Main", "main", "a\tb", ""],
      }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      client_name: ["Use at most 200 characters"],
      notes: ["Use at most 5,000 characters"],
      url_code: ["This string is required"],
      country: ["Choose a country from the list"],
      "trigger_points.1": ["The trigger point “main” is listed twice"],
      "trigger_points.2": ["Write each trigger point on one line, without tabs"],
      "trigger_points.3": ["Leave no trigger point empty"],
    });
  });

  it("refuses a trigger point with a comma, which the client form would split in two on its next save", async () => {
    const refused = await call("POST", "/v1/apps", {
      token: tokens.admin,
      body: newClient({ url_code: "comma-points", trigger_points: ["main", "Apply, Undergrad"] }),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({
      "trigger_points.1": ["Leave commas out of a trigger point: commas separate trigger points"],
    });
  });

  it("lets only staff onboard clients", async () => {
    expect(
      (await call("POST", "/v1/apps", { token: tokens["client.admin"], body: newClient({ url_code: "x1" }) })).status,
    ).toBe(403);
  });

  it("updates a client, answering in `response`; url_code and country stay as they are", async () => {
    const current = (await call("GET", "/v1/apps", { token: tokens.admin })).body.apps.find(
      (a: { id: number }) => a.id === northfieldId,
    );
    const { agents: _agents, id: _id, ...fields } = current;
    const updated = await call("PUT", `/v1/apps/${northfieldId}`, {
      token: tokens["client.admin"],
      body: { ...fields, notes: "Edited by the client admin" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.response.notes).toBe("Edited by the client admin");
    const renamed = await call("PUT", `/v1/apps/${northfieldId}`, {
      token: tokens.admin,
      body: { ...fields, url_code: "renamed" },
    });
    expect(renamed.body.errors.url_code).toEqual(["The url_code cannot be changed once the client exists"]);
  });

  it("hides foreign clients (404) and refuses read-only users (403)", async () => {
    const body = newClient({ url_code: "shopharbor-outfitters" });
    expect((await call("PUT", `/v1/apps/${harborId}`, { token: tokens["client.admin"], body })).status).toBe(404);
    expect(
      (
        await call("PUT", `/v1/apps/${northfieldId}`, {
          token: tokens["client.user"],
          body: newClient({ url_code: "northfield" }),
        })
      ).status,
    ).toBe(403);
  });
});

describe("logo uploads", () => {
  it("stores a PNG and an SVG and serves them back, the SVG sandboxed", async () => {
    const { status, body } = await upload(
      "/v1/apps/logo_upload",
      tokens.admin,
      multipart([
        { field: "files[]", name: "logo.png", bytes: PNG_BYTES, type: "image/png" },
        { field: "files[]", name: "mark.svg", bytes: SVG_TEXT, type: "image/svg+xml" },
      ]),
    );
    expect(status).toBe(200);
    expect(body.files).toEqual([
      { url: expect.stringMatching(/^\/storage\/public\/logos\/.+\.png$/) },
      { url: expect.stringMatching(/\.svg$/) },
    ]);
    const png = await host.api.request(body.files[0].url);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await png.arrayBuffer())).toEqual(PNG_BYTES);
    const svg = await host.api.request(body.files[1].url);
    expect(svg.headers.get("content-security-policy")).toContain("sandbox");
  });

  it("checks content, not names: disguised, unsupported, scripted and oversized files get a clear 400", async () => {
    const cases: [string, Uint8Array | string, string][] = [
      ["fake.png", "just text", "fake.png does not contain a PNG image"],
      ["photo.gif", PNG_BYTES, "photo.gif: only .svg, .png and .img files are accepted"],
      [
        "evil.svg",
        `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
        "evil.svg contains scripts or embedded content, which logos may not",
      ],
      ["huge.png", new Uint8Array(2 * 1024 * 1024 + 1).fill(1), "huge.png is larger than 2 MB"],
    ];
    for (const [name, bytes, message] of cases) {
      const { status, body } = await upload(
        "/v1/apps/logo_upload",
        tokens.admin,
        multipart([{ field: "files[]", name, bytes }]),
      );
      expect({ status, message: body.message }).toEqual({ status: 400, message });
    }
    expect(
      (
        await upload(
          "/v1/apps/logo_upload",
          tokens.admin,
          multipart([{ field: "files[]", name: "pic.img", bytes: PNG_BYTES }]),
        )
      ).status,
    ).toBe(200);
    // A name is checked as every string input is, before any message repeats it.
    const names: [string, string][] = [
      [
        "x\u202Egnp.exe.png",
        "The file's name: Contains a text-direction control character (U+202A–U+202E, U+2066–U+2069)",
      ],
      ["a\u0007b.png", "The file's name: Contains a control character"],
      [`${"b".repeat(256)}.png`, "Keep the file's name to at most 255 characters"],
    ];
    for (const [name, message] of names) {
      const { status, body } = await upload(
        "/v1/apps/logo_upload",
        tokens.admin,
        multipart([{ field: "files[]", name, bytes: "just text" }]),
      );
      expect({ status, body }).toEqual({ status: 400, body: { message, errors: { "files[]": [message] } } });
    }
    expect(
      (
        await upload(
          "/v1/apps/logo_upload",
          tokens["client.user"],
          multipart([{ field: "files[]", name: "a.png", bytes: PNG_BYTES }]),
        )
      ).status,
    ).toBe(403);
  });
});

describe("agents", () => {
  it("refuses metadata larger than an agent needs, or with entries whose names are not one line, storing nothing", async () => {
    const before = await call("GET", `/v1/apps/${northfieldId}/agents`, { token: tokens["client.admin"] });
    for (const [metadata, message] of [
      [{ note: "x".repeat(20_001) }, "Keep the metadata to at most 20,000 characters of JSON"],
      [{ "two\nlines": 1 }, "An entry's name must be one line, without tabs"],
    ] as const) {
      const refused = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
        token: tokens["client.admin"],
        body: { app_id: northfieldId, name: "Metadata", site_code: "metadata", metadata },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ metadata: [message] });
    }
    expect(await call("GET", `/v1/apps/${northfieldId}/agents`, { token: tokens["client.admin"] })).toEqual(before);
  });

  it("keeps an accented letter of a site code as its base letter, and drops only what has none", async () => {
    const created = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens["client.admin"],
      body: { app_id: northfieldId, name: "Admisión 2025", site_code: "admisión-2025" },
    });
    expect(created.status).toBe(200);
    expect(created.body.site_code).toBe("admision2025");
    const unspaced = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens["client.admin"],
      body: { app_id: northfieldId, name: "入学", site_code: "入学" },
    });
    expect(unspaced.status).toBe(400);
    expect(unspaced.body.errors.site_code).toEqual(["Use at least one letter or digit"]);
  });

  it("creates with the spec's defaults, strips the site code, and stores the default personality", async () => {
    const created = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens["client.admin"],
      body: { app_id: northfieldId, name: "Graduate Admissions", site_code: "grad-admissions 2026!" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      agent_type: "enrollment",
      site_code: "gradadmissions2026",
      status: "active",
      mode_env: "staging",
      metadata: {},
      logo: null,
    });
    const [personality] = await host.deps.db
      .select()
      .from(controls)
      .where(and(eq(controls.appId, northfieldId), eq(controls.triggerPoint, "gradadmissions2026")));
    expect(personality).toMatchObject({
      internalName: "ai_personality_guidelines",
      promptInputRaw: HIGHER_ED_PERSONALITY,
    });
    const fetched = await call("GET", `/v1/apps/${northfieldId}/agents/${created.body.id}`, {
      token: tokens["client.user"],
    });
    expect(fetched.body.name).toBe("Graduate Admissions");
  });

  it("gives ecommerce agents an empty personality", async () => {
    const created = await call("POST", `/v1/apps/${harborId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: harborId, name: "Returns Helper", agent_type: "ecommerce", site_code: "returns" },
    });
    const [personality] = await host.deps.db
      .select()
      .from(controls)
      .where(and(eq(controls.appId, harborId), eq(controls.triggerPoint, created.body.site_code)));
    expect(personality.promptInputRaw).toBe("");
  });

  it("answers an agent saved for a client id that names no client with a 404, as every client's call does", async () => {
    const missing = 999_999;
    const answer = await call("POST", `/v1/apps/${missing}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: missing, name: "Nobody's agent", site_code: "nobody" },
    });
    expect(answer).toEqual({ status: 404, body: { message: "Client not found" } });
    expect(await host.deps.db.select().from(agents).where(eq(agents.appId, missing))).toEqual([]);
  });

  it("gives a client agents of its own types only: a higher education client no ecommerce agent, an ecommerce client ecommerce by default", async () => {
    const refused = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: northfieldId, name: "Shop", agent_type: "ecommerce", site_code: "shop" },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.agent_type).toEqual([
      "A higher education client's agents are Enrollment or Engagement agents",
    ]);
    const untyped = await call("POST", `/v1/apps/${harborId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: harborId, name: "Sizes Helper", site_code: "sizes" },
    });
    expect(untyped.body.agent_type).toBe("ecommerce");
    const retyped = await call("POST", `/v1/apps/${harborId}/agents/update_agents`, {
      token: tokens.admin,
      body: {
        id: untyped.body.id,
        app_id: harborId,
        name: "Sizes Helper",
        site_code: "sizes",
        agent_type: "engagement",
      },
    });
    expect(retyped.body.errors.agent_type).toEqual(["An ecommerce client's agents are Ecommerce agents"]);
  });

  it("updates by id, refuses a site code another agent uses, and keeps clients apart", async () => {
    const list = (await call("GET", "/v1/apps", { token: tokens.admin })).body.apps.find(
      (a: { id: number }) => a.id === northfieldId,
    );
    const admissions = list.agents.find((a: { site_code: string }) => a.site_code === "admissions");
    const updated = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: {
        id: admissions.id,
        app_id: northfieldId,
        name: "Admissions Assistant",
        site_code: "admissions",
        url: "https://northfield.edu/apply",
        status: "inactive",
      },
    });
    expect(updated.body).toMatchObject({ url: "https://northfield.edu/apply", status: "inactive" });
    // An id wins over the site code: renaming an agent's code onto another agent's is refused.
    const clash = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { id: admissions.id, app_id: northfieldId, name: "Copy", site_code: "studentsuccess" },
    });
    expect(clash.body.errors.site_code).toEqual([
      "The site code studentsuccess is already used by another agent of this client",
    ]);
    // In another case too: it would read as the same agent in addresses and selectors.
    const cased = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: northfieldId, name: "Copy", site_code: "StudentSuccess" },
    });
    expect(cased.body.errors.site_code).toEqual([
      "The site code StudentSuccess is already used by another agent of this client",
    ]);
    // An agent may change the case of its own code.
    const own = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { id: admissions.id, app_id: northfieldId, name: "Admissions Assistant", site_code: "Admissions" },
    });
    expect(own.body.site_code).toBe("Admissions");
    await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { id: admissions.id, app_id: northfieldId, name: "Admissions Assistant", site_code: "admissions" },
    });
    expect((await call("GET", `/v1/apps/${harborId}/agents/${admissions.id}`, { token: tokens.admin })).status).toBe(
      404,
    );
    expect((await call("GET", `/v1/apps/${harborId}/agents/1`, { token: tokens["client.admin"] })).status).toBe(404);
    expect(
      (
        await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
          token: tokens["client.user"],
          body: { app_id: northfieldId, name: "X", site_code: "x" },
        })
      ).status,
    ).toBe(403);
    const wrongApp = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: harborId, name: "X", site_code: "x" },
    });
    expect(wrongApp.body.errors.app_id).toBeDefined();
  });

  it("updates the client's agent of the posted site code when no id is sent (the spec's body), changing only the fields sent", async () => {
    const before = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: {
        app_id: northfieldId,
        name: "Night Classes",
        agent_type: "engagement",
        site_code: "night",
        logo: null,
        url: "https://northfield.edu/night",
        status: "active",
        mode_env: "staging",
        metadata: { tone: "calm" },
      },
    });
    const agentsBefore = (await call("GET", "/v1/apps", { token: tokens.admin })).body.apps.find(
      (a: { id: number }) => a.id === northfieldId,
    ).agents.length;
    const updated = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: northfieldId, name: "Evening Classes", site_code: "night", status: "inactive" },
    });
    expect(updated).toMatchObject({
      status: 200,
      body: {
        id: before.body.id,
        name: "Evening Classes",
        status: "inactive",
        agent_type: "engagement",
        url: "https://northfield.edu/night",
        metadata: { tone: "calm" },
      },
    });
    const agentsAfter = (await call("GET", "/v1/apps", { token: tokens.admin })).body.apps.find(
      (a: { id: number }) => a.id === northfieldId,
    ).agents.length;
    expect(agentsAfter).toBe(agentsBefore);
    // Another client's agent of the same site code is not touched: this creates Harbor's own.
    const harbors = await call("POST", `/v1/apps/${harborId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: harborId, name: "Night Shop", site_code: "night" },
    });
    expect(harbors.body.id).not.toBe(before.body.id);
    expect(
      (await call("GET", `/v1/apps/${northfieldId}/agents/${before.body.id}`, { token: tokens.admin })).body.name,
    ).toBe("Evening Classes");
  });

  it("moves what an agent keeps under its site code when the code changes, and refuses a code already holding settings", async () => {
    const created = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: northfieldId, name: "Transfer Desk", site_code: "transfer" },
    });
    const personality = "Answer transfer students plainly.";
    await call("PUT", `/v1/controls?app_id=${northfieldId}`, {
      token: tokens.admin,
      body: { controls: [personalityControl(personality, "transfer")] },
    });
    const renamed = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { id: created.body.id, app_id: northfieldId, name: "Transfer Desk", site_code: "transfers" },
    });
    expect(renamed.body.site_code).toBe("transfers");
    const kept = await host.deps.db
      .select({ triggerPoint: controls.triggerPoint, text: controls.promptInputRaw })
      .from(controls)
      .where(and(eq(controls.appId, northfieldId), eq(controls.internalName, "ai_personality_guidelines")));
    expect(kept).toContainEqual({ triggerPoint: "transfers", text: personality });
    expect(kept.some((row) => row.triggerPoint === "transfer")).toBe(false);

    // Settings kept under a name no agent has (a client trigger point) are not merged into the agent's.
    await host.deps.db.insert(controls).values({
      appId: northfieldId,
      internalName: "ai_personality_guidelines",
      promptInputRaw: "Main site voice.",
      triggerPoint: "mainsite",
    });
    const onto = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { id: created.body.id, app_id: northfieldId, name: "Transfer Desk", site_code: "mainsite" },
    });
    expect(onto.status).toBe(400);
    expect(onto.body.errors.site_code).toEqual([
      "Settings, test questions or conversations of this client are already kept under “mainsite”; choose another site code",
    ]);
    expect(
      (await call("GET", `/v1/apps/${northfieldId}/agents/${created.body.id}`, { token: tokens.admin })).body.site_code,
    ).toBe("transfers");
  });

  it("keeps an agent's settings with it when two renames of it arrive at once", async () => {
    const created = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: { app_id: northfieldId, name: "Library Desk", site_code: "library" },
    });
    await call("PUT", `/v1/controls?app_id=${northfieldId}`, {
      token: tokens.admin,
      body: { controls: [personalityControl("Speak softly.", "library")] },
    });
    const rename = (code: string) =>
      call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
        token: tokens.admin,
        body: { id: created.body.id, app_id: northfieldId, name: "Library Desk", site_code: code },
      });
    const answers = await Promise.all([rename("library-b"), rename("library-c")]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const agent = await call("GET", `/v1/apps/${northfieldId}/agents/${created.body.id}`, { token: tokens.admin });
    const kept = await host.deps.db
      .select({ triggerPoint: controls.triggerPoint })
      .from(controls)
      .where(and(eq(controls.appId, northfieldId), eq(controls.promptInputRaw, "Speak softly.")));
    expect(kept).toEqual([{ triggerPoint: agent.body.site_code }]);
  });

  it("keeps an agent's mode read-only for those who may not edit the client: a client admin can neither create nor move one into production", async () => {
    const created = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens["client.admin"],
      body: { app_id: northfieldId, name: "Live Desk", site_code: "livedesk", mode_env: "production" },
    });
    expect(created.status).toBe(400);
    expect(created.body.errors.mode_env).toEqual(["An agent's mode is read-only; staff change it"]);
    const sandbox = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens["client.admin"],
      body: { app_id: northfieldId, name: "Live Desk", site_code: "livedesk", mode_env: "staging" },
    });
    expect(sandbox.body.mode_env).toBe("staging");
    const promoted = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens["client.admin"],
      body: {
        id: sandbox.body.id,
        app_id: northfieldId,
        name: "Live Desk",
        site_code: "livedesk",
        mode_env: "production",
      },
    });
    expect(promoted.status).toBe(400);
    expect(promoted.body.errors.mode_env).toEqual(["An agent's mode is read-only; staff change it"]);
    // Sending the mode it has is no change, and the rest of the save stands.
    const renamed = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens["client.admin"],
      body: {
        id: sandbox.body.id,
        app_id: northfieldId,
        name: "Live Help",
        site_code: "livedesk",
        mode_env: "staging",
      },
    });
    expect(renamed.body).toMatchObject({ name: "Live Help", mode_env: "staging" });
    // Staff still may, as the spec's body carries it.
    const byStaff = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens.admin,
      body: {
        id: sandbox.body.id,
        app_id: northfieldId,
        name: "Live Help",
        site_code: "livedesk",
        mode_env: "production",
      },
    });
    expect(byStaff.body.mode_env).toBe("production");
    // And once in production, a client admin's save that leaves the mode out keeps it.
    const kept = await call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
      token: tokens["client.admin"],
      body: { id: sandbox.body.id, app_id: northfieldId, name: "Live Helper", site_code: "livedesk" },
    });
    expect(kept.body).toMatchObject({ name: "Live Helper", mode_env: "production" });
  });

  it("takes as an agent's logo only an image uploaded for this client: another client's or an outside address is refused beside the logo", async () => {
    const logoOf = async (appId: number, token: string) =>
      (
        await upload(
          `/v1/apps/${appId}/agents/logo_upload`,
          token,
          multipart([{ field: "file", name: "a.png", bytes: PNG_BYTES }]),
        )
      ).body.url as string;
    const own = await logoOf(northfieldId, tokens["client.admin"]);
    const theirs = await logoOf(harborId, tokens.admin);
    const save = (logo: string | null, id?: number) =>
      call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
        token: tokens["client.admin"],
        body: { ...(id ? { id } : {}), app_id: northfieldId, name: "Logo Desk", site_code: "logodesk", logo },
      });
    for (const logo of [theirs, "https://tracker.example/pixel.png", "/storage/public/logos/x.png"]) {
      const refused = await save(logo);
      expect(refused.status, logo).toBe(400);
      expect(refused.body.errors.logo, logo).toEqual(["The logo must be an image uploaded for this client"]);
    }
    const created = await save(own);
    expect(created.body.logo).toBe(own);
    const edited = await save(theirs, created.body.id);
    expect(edited.body.errors.logo).toEqual(["The logo must be an image uploaded for this client"]);
    expect((await save(null, created.body.id)).body.logo).toBeNull();
    // A logo an agent already has stays through a save that sends it back unchanged.
    await host.deps.db
      .update(agents)
      .set({ logo: "https://cdn.northfield.edu/desk.png" })
      .where(eq(agents.id, created.body.id));
    const kept = await save("https://cdn.northfield.edu/desk.png", created.body.id);
    expect(kept.status).toBe(200);
  });

  it("gives a site code to one agent only when two saves claim it in two cases at once", async () => {
    const claim = (name: string, site_code: string) =>
      call("POST", `/v1/apps/${northfieldId}/agents/update_agents`, {
        token: tokens["client.admin"],
        body: { app_id: northfieldId, name, site_code },
      });
    const answers = await Promise.all([claim("Racer One", "Racer"), claim("Racer Two", "racer")]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    const refused = answers.find((answer) => answer.status === 400)!;
    expect(refused.body.errors.site_code[0]).toMatch(
      /^The site code (Racer|racer) is already used by another agent of this client$/,
    );
    const holders = await host.deps.db
      .select({ siteCode: agents.siteCode })
      .from(agents)
      .where(and(eq(agents.appId, northfieldId), sql`lower(${agents.siteCode}) = 'racer'`));
    expect(holders).toHaveLength(1);
  });

  it("uploads a single agent logo", async () => {
    const one = await upload(
      `/v1/apps/${northfieldId}/agents/logo_upload`,
      tokens["client.admin"],
      multipart([{ field: "file", name: "a.png", bytes: PNG_BYTES }]),
    );
    expect(one.body.url).toMatch(/^\/storage\/public\/agents\/\d+\/.+\.png$/);
    const two = await upload(
      `/v1/apps/${northfieldId}/agents/logo_upload`,
      tokens["client.admin"],
      multipart([
        { field: "file", name: "a.png", bytes: PNG_BYTES },
        { field: "file", name: "b.png", bytes: PNG_BYTES },
      ]),
    );
    expect(two.body.message).toBe("Upload a single logo file");
  });
});
