import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPEARANCE_DEFAULTS } from "@contract";
import { PNG_BYTES, SVG_TEXT } from "../../tests/support/files";
import { apiCaller, demoCallers, signInAs, startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let clientAdmin: string;
let clientUser: string;
let appId: number;
let otherId: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ clientAdmin, clientUser, northfield: appId, harbor: otherId } = await demoCallers(host));
});
afterAll(() => host?.close());

const path = (tp = "admissions") => `/v1/appearances?appId=${appId}&triggerPoint=${tp}`;

async function upload(bytes: Uint8Array, name: string, token = clientAdmin, app = appId) {
  const form = new FormData();
  form.append("file", new File([new Uint8Array(bytes)], name));
  const response = await host.api.request(`/v1/appearances/upload_file?appId=${app}&triggerPoint=admissions`, {
    method: "POST",
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: response.status, body: await response.json() };
}

describe("appearance", () => {
  it("answers the defaults and the field catalogue by section", async () => {
    const { status, body } = await call("GET", path(), { token: clientUser });
    expect(status).toBe(200);
    expect(body.data).toEqual(APPEARANCE_DEFAULTS);
    expect(Object.keys(body.fields_data)).toEqual([
      "BASIC_SETTINGS_FIELDS",
      "ADVANCED_SETTINGS_FIELDS",
      "IMAGES_AND_ICONS",
    ]);
    expect(
      body.fields_data.BASIC_SETTINGS_FIELDS.find((f: { internalName: string }) => f.internalName === "primary_color"),
    ).toMatchObject({
      name: "primary_color",
      label: "Primary Colour",
      type: "color",
      defaultValue: "#1f4b99",
      isHidden: false,
    });
    expect(body.pushed_at).toBeNull();
  });

  it("saves stage values checked by type, and refuses script or CSS smuggled into any of them", async () => {
    const saved = await call("PUT", path(), {
      token: clientAdmin,
      body: {
        appearance: { value: { primary_color: "#0a7d4f", font_size: "16", bot_name: "Nora", show_sources: false } },
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Success!");
    expect(saved.body.data).toMatchObject({
      primary_color: "#0a7d4f",
      font_size: 16,
      bot_name: "Nora",
      show_sources: false,
      position: "bottom-right",
    });
    const attacks: Record<string, unknown> = {
      primary_color: "red;} body{display:none",
      background_color: "url(javascript:alert(1))",
      font_family: "Comic Sans'; behavior:url(x)",
      font_size: 99,
      width: "380px; position:fixed",
      position: "top-left",
      avatar_url: "https://evil.example/a.png",
      header_logo_url: "javascript:alert(1)",
      show_sources: "yes",
      bot_name: "Nora\t<script>",
      made_up: "x",
    };
    const refused = await call("PUT", path(), { token: clientAdmin, body: { appearance: { value: attacks } } });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors).sort()).toEqual(
      Object.keys(attacks)
        .map((k) => `appearance.value.${k}`)
        .sort(),
    );
    expect(refused.body.errors["appearance.value.primary_color"]).toEqual([
      "Primary Colour must be a colour like #1f4b99",
    ]);
    expect(refused.body.errors["appearance.value.font_size"]).toEqual([
      "Font Size must be a whole number from 12 to 20",
    ]);
    // A NUL never gets as far as the field checks: the API's input guard refuses it, naming the field.
    const nul = await call("PUT", path(), {
      token: clientAdmin,
      body: { appearance: { value: { bot_name: "Nora\u0000" } } },
    });
    expect(nul.status).toBe(400);
    expect(JSON.stringify(nul.body)).toContain("bot_name");
    // Markup in a text is just text: the widget never renders it as HTML.
    expect(
      (
        await call("PUT", path(), {
          token: clientAdmin,
          body: { appearance: { value: { greeting_message: "<b>Hi</b> & welcome" } } },
        })
      ).status,
    ).toBe(200);
    expect((await call("GET", path(), { token: clientAdmin })).body.data).toMatchObject({
      primary_color: "#0a7d4f",
      greeting_message: "<b>Hi</b> & welcome",
    });
  });

  it("stores text byte for byte, and refuses half an emoji rather than store U+FFFD in its place", async () => {
    const text = "Type your question… 😀👩🏽‍💻 مرحبا 你好";
    expect(
      (await call("PUT", path(), { token: clientAdmin, body: { appearance: { value: { input_placeholder: text } } } }))
        .status,
    ).toBe(200);
    const stored = (await call("GET", path(), { token: clientAdmin })).body.data.input_placeholder as string;
    expect(Buffer.from(stored, "utf8").toString("hex")).toBe(Buffer.from(text, "utf8").toString("hex"));
    // JSON may spell a lone surrogate; written to the database it would become ef bf bd.
    const broken = await call("PUT", path(), {
      token: clientAdmin,
      rawBody: '{"appearance":{"value":{"input_placeholder":"Type your question\\ud83d…"}}}',
    });
    expect(broken.status).toBe(400);
    expect(JSON.stringify(broken.body)).toMatch(/broken character|half of an emoji|surrogate/i);
    expect((await call("GET", path(), { token: clientAdmin })).body.data.input_placeholder).toBe(text);
  });

  it("refuses control characters no one types, naming the field, and keeps line breaks", async () => {
    for (const control of ["\u0001", "\u0008", "\u000b", "\u001b[31m", "\u007f", "\u0085"]) {
      const refused = await call("PUT", path(), {
        token: clientAdmin,
        body: { appearance: { value: { input_placeholder: `Ask${control}us` } } },
      });
      expect(refused.status, JSON.stringify(control)).toBe(400);
      expect(refused.body.errors["appearance.value.input_placeholder"]).toEqual(["Contains a control character"]);
    }
    expect(
      (
        await call("PUT", path(), {
          token: clientAdmin,
          body: { appearance: { value: { greeting_message: "Hi there\nWelcome" } } },
        })
      ).status,
    ).toBe(200);
    // The other texts are one line in the console's form, which would drop a line break on the next save.
    const twoLines = await call("PUT", path(), {
      token: clientAdmin,
      body: { appearance: { value: { bot_name: "Sage\nBot" } } },
    });
    expect(twoLines.status).toBe(400);
    expect(twoLines.body.errors["appearance.value.bot_name"]).toEqual([
      "Assistant Name is one line: take out its line breaks",
    ]);
  });

  it("refuses a blank Assistant Name or Launcher Text, which would leave the panel or the launcher without a name", async () => {
    for (const [name, label] of [
      ["bot_name", "Assistant Name"],
      ["launcher_text", "Launcher Text"],
    ]) {
      for (const blank of ["", "   "]) {
        const refused = await call("PUT", path(), {
          token: clientAdmin,
          body: { appearance: { value: { [name]: blank } } },
        });
        expect(refused.status, `${name} ${JSON.stringify(blank)}`).toBe(400);
        expect(refused.body.errors[`appearance.value.${name}`]).toEqual([`${label} is required`]);
      }
    }
    // Nothing was stored; other texts may be left empty.
    const { body } = await call("GET", path(), { token: clientAdmin });
    expect(body.data.bot_name.trim()).not.toBe("");
    expect(body.data.launcher_text.trim()).not.toBe("");
    expect(
      (await call("PUT", path(), { token: clientAdmin, body: { appearance: { value: { input_placeholder: "" } } } }))
        .status,
    ).toBe(200);
  });

  it("keeps trigger points apart, over the client default; unknown trigger points are refused", async () => {
    await call("PUT", path(""), {
      token: clientAdmin,
      body: { appearance: { value: { launcher_text: "Ask Northfield" } } },
    });
    expect((await call("GET", path("studentsuccess"), { token: clientAdmin })).body.data).toMatchObject({
      launcher_text: "Ask Northfield",
      primary_color: "#1f4b99",
    });
    expect((await call("GET", path(), { token: clientAdmin })).body.data).toMatchObject({
      launcher_text: "Ask Northfield",
      primary_color: "#0a7d4f",
    });
    expect((await call("GET", path("nowhere"), { token: clientAdmin })).status).toBe(400);
  });

  it("shows the difference between stage and production, and pushes stage to production", async () => {
    const diff = await call("POST", `/v1/appearances/get_diff?appId=${appId}&triggerPoint=admissions`, {
      token: clientUser,
      body: { appearance: { value: {} } },
    });
    expect(diff.body.current_prod_style_guide.primary_color).toBe("#1f4b99");
    expect(diff.body.current_stage_style_guide.primary_color).toBe("#0a7d4f");
    expect(diff.body.changes).toContainEqual({
      internalName: "primary_color",
      label: "Primary Colour",
      production: "#1f4b99",
      stage: "#0a7d4f",
    });
    const pushed = await call("PUT", path(), {
      token: clientAdmin,
      body: { appearance: { value: diff.body.current_stage_style_guide }, targetEnv: "production" },
    });
    expect(pushed.body.message).toBe("Pushed to production");
    const after = await call("POST", `/v1/appearances/get_diff?appId=${appId}&triggerPoint=admissions`, {
      token: clientAdmin,
      body: { appearance: { value: {} } },
    });
    expect(after.body.changes).toEqual([]);
    // The body-less GET answers the same comparison.
    expect(
      (await call("GET", `/v1/appearances/get_diff?appId=${appId}&triggerPoint=admissions`, { token: clientAdmin }))
        .body,
    ).toEqual(after.body);
    expect((await call("GET", path(), { token: clientAdmin })).body.pushed_at).toEqual(expect.any(String));
  });

  it("records nothing and says so when a push finds production already showing stage's values", async () => {
    const historyOf = async () =>
      (await call("GET", `/v1/apps/${appId}/history?kind=appearance`, { token: clientAdmin })).body as {
        total: number;
      };
    const stage = (await call("GET", path(), { token: clientAdmin })).body.data;
    await call("PUT", path(), { token: clientAdmin, body: { appearance: { value: stage }, targetEnv: "production" } });
    const before = await historyOf();
    const again = await call("PUT", path(), {
      token: clientAdmin,
      body: { appearance: { value: stage }, targetEnv: "production" },
    });
    expect(again.status).toBe(200);
    expect(again.body.message).toBe("Production already shows these values: nothing was pushed");
    expect((await historyOf()).total).toBe(before.total);
  });

  it("keeps both of two saves of different values made at once, each recorded in History from the other's state", async () => {
    const tp = "studentsuccess";
    const save = (value: Record<string, string>) =>
      call("PUT", path(tp), { token: clientAdmin, body: { appearance: { value } } });
    for (let round = 0; round < 3; round++) {
      const colours = [`#1${round}1${round}1${round}`, `#2${round}2${round}2${round}`];
      const saved = await Promise.all([save({ primary_color: colours[0] }), save({ header_text_color: colours[1] })]);
      expect(saved.map((answer) => answer.status)).toEqual([200, 200]);
      const stage = (await call("GET", path(tp), { token: clientAdmin })).body.data;
      expect([stage.primary_color, stage.header_text_color]).toEqual(colours);
    }
    // Each entry's "before" is the state the entry before it left: a revert writes back a state that was.
    const states = (await call("GET", `/v1/apps/${appId}/history?kind=appearance&page_size=6`, { token: clientAdmin }))
      .body.data as { before: unknown; after: unknown }[];
    expect(states).toHaveLength(6);
    for (let i = 0; i + 1 < states.length; i++) expect(states[i].before).toEqual(states[i + 1].after);
  });

  it("compares the posted values about to be pushed, checked like a save, without saving them", async () => {
    const pending = await call("POST", `/v1/appearances/get_diff?appId=${appId}&triggerPoint=admissions`, {
      token: clientAdmin,
      body: { appearance: { value: { bot_name: "Ada" } } },
    });
    expect(pending.status).toBe(200);
    expect(pending.body.current_stage_style_guide.bot_name).toBe("Ada");
    expect(pending.body.changes).toContainEqual(expect.objectContaining({ internalName: "bot_name", stage: "Ada" }));
    expect((await call("GET", path(), { token: clientAdmin })).body.data.bot_name).not.toBe("Ada");
    const refused = await call("POST", `/v1/appearances/get_diff?appId=${appId}&triggerPoint=admissions`, {
      token: clientAdmin,
      body: { appearance: { value: { font_size: 99 } } },
    });
    expect(refused).toMatchObject({
      status: 400,
      body: { errors: { "appearance.value.font_size": [expect.any(String)] } },
    });
  });

  it("takes the values as JSON text too, and refuses a body without appearance.value", async () => {
    const saved = await call("PUT", path("studentsuccess"), {
      token: clientAdmin,
      body: { appearance: { value: JSON.stringify({ bot_name: "Sol" }) } },
    });
    expect(saved).toMatchObject({ status: 200, body: { data: { bot_name: "Sol" } } });
    const old = await call("PUT", path("studentsuccess"), { token: clientAdmin, body: { data: { bot_name: "Sol" } } });
    expect(old).toMatchObject({ status: 400, body: { errors: { appearance: [expect.any(String)] } } });
    const badTarget = await call("PUT", path("studentsuccess"), {
      token: clientAdmin,
      body: { appearance: { value: {} }, targetEnv: "moon" },
    });
    expect(badTarget.status).toBe(400);
  });

  it("refuses in values sent as JSON text what it refuses in an object, naming the field", async () => {
    const before = (await call("GET", path("studentsuccess"), { token: clientAdmin })).body.data;
    // JSON's own escapes: the text itself holds none of these characters until it is parsed.
    for (const [field, text] of [
      ["bot_name", '{"bot_name":"Ad\\u202emin"}'],
      ["input_placeholder", '{"input_placeholder":"Ask\\u0001us"}'],
    ]) {
      const refused = await call("PUT", path("studentsuccess"), {
        token: clientAdmin,
        body: { appearance: { value: text } },
      });
      expect(refused.status, text).toBe(400);
      expect(refused.body.errors[`appearance.value.${field}`], text).toEqual([expect.stringMatching(/^Contains a/)]);
    }
    expect((await call("GET", path("studentsuccess"), { token: clientAdmin })).body.data).toEqual(before);
  });

  it("stores uploaded images checked by content; only this client's images are accepted as values", async () => {
    const image = await upload(PNG_BYTES, "avatar.png");
    expect(image.status).toBe(200);
    expect(image.body.url).toMatch(new RegExp(`^/storage/public/appearance/${appId}/[0-9a-f-]{36}\\.png$`));
    expect(
      (
        await call("PUT", path(), {
          token: clientAdmin,
          body: { appearance: { value: { avatar_url: image.body.url } } },
        })
      ).status,
    ).toBe(200);
    const fake = await upload(new TextEncoder().encode("<html>not an image</html>"), "avatar.png");
    expect(fake.status).toBe(400);
    // The refusal names the file as it was chosen.
    expect(fake.body.message).toBe("avatar.png does not contain a PNG, JPEG, GIF or WebP image");
    const pdf = await upload(new TextEncoder().encode("%PDF-1.4 not an image"), "plain.pdf");
    expect(pdf.body.message).toBe("plain.pdf does not contain a PNG, JPEG, GIF or WebP image");
    const svg = await upload(
      new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
      "logo.svg",
    );
    expect(svg.status).toBe(400);
    // A script element under a prefix is a script all the same (api/storage/images.test.ts has more).
    const prefixed = await upload(
      new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg"><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script></svg>',
      ),
      "logo.svg",
    );
    expect(prefixed).toMatchObject({
      status: 400,
      body: { message: "logo.svg contains scripts or embedded content, which logos may not" },
    });
    expect((await upload(new TextEncoder().encode(SVG_TEXT), "logo.svg")).status).toBe(200);
    const theirs = await upload(
      PNG_BYTES,
      "other.png",
      (await signInAs(host, "admin@example.com")).user_token,
      otherId,
    );
    const borrowed = await call("PUT", path(), {
      token: clientAdmin,
      body: { appearance: { value: { avatar_url: theirs.body.url } } },
    });
    expect(borrowed.body.errors["appearance.value.avatar_url"]).toEqual([
      "Assistant Avatar must be an image uploaded here",
    ]);
  });

  it("lets client users read but not save, push or upload; other clients are not found", async () => {
    expect(
      (await call("PUT", path(), { token: clientUser, body: { appearance: { value: { bot_name: "X" } } } })).status,
    ).toBe(403);
    expect((await upload(PNG_BYTES, "a.png", clientUser)).status).toBe(403);
    expect((await call("GET", `/v1/appearances?appId=${otherId}`, { token: clientAdmin })).status).toBe(404);
  });
});
