import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { finetunings } from "../db/schema";
import { apiCaller, demoCallers, startTestHost } from "../../tests/support/test-host";
import { cleanupRulesFor, penaltyRulesFor } from "./finetunings";

let host: Awaited<ReturnType<typeof startTestHost>>;
let call: ReturnType<typeof apiCaller>;
let admin: string;
let clientAdmin: string;
let clientUser: string;
let northfield: number;
let harbor: number;

beforeAll(async () => {
  host = await startTestHost();
  call = apiCaller(host);
  ({ admin, clientAdmin, clientUser, northfield, harbor } = await demoCallers(host));
});
afterAll(() => host?.close());

const upsert = (token: string, rows: unknown[], extra: Record<string, unknown> = {}) =>
  call("POST", "/v1/controls/upsert_finetunings", { token, body: { finetunings: rows, ...extra } });

describe("AI finetuning rules", () => {
  it("saves the three tables' rows (penalty as number or text, metadata as JSON text or object, blank metadata as {}) and ignores blank rows", async () => {
    const saved = await upsert(clientAdmin, [
      {
        id: null,
        app_id: northfield,
        trigger_point: "",
        finetuning_type: "url_pattern",
        pattern: "/news/",
        penalty: 0.5,
      },
      { id: null, app_id: northfield, trigger_point: "", finetuning_type: "url_pattern", pattern: "", penalty: "" },
      {
        app_id: northfield,
        trigger_point: "admissions",
        finetuning_type: "pdf_weightage",
        pattern: "*.pdf",
        penalty: "0.25",
        metadata: "",
      },
      {
        app_id: northfield,
        trigger_point: "",
        finetuning_type: "html_weightage",
        pattern: "/blog/",
        penalty: 1,
        metadata: { note: "old posts" },
      },
      {
        app_id: northfield,
        trigger_point: "",
        finetuning_type: "html_tags_to_remove",
        metadata: '{"tags": ["table", ".promo"]}',
      },
      { app_id: northfield, trigger_point: "", finetuning_type: "html_tags_to_remove", metadata: "  " },
      { app_id: northfield, isNew: true, hasChanges: false, finetuning_type: "html_tags_to_remove", metadata: null },
    ]);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ message: "Finetuning saved", saved: 4, deleted: 0 });
    expect(saved.body.finetunings.map(({ id: _id, ...rest }: { id: number }) => rest)).toEqual([
      {
        app_id: northfield,
        trigger_point: "",
        finetuning_type: "url_pattern",
        pattern: "/news/",
        penalty: 0.5,
        metadata: {},
      },
      {
        app_id: northfield,
        trigger_point: "",
        finetuning_type: "html_weightage",
        pattern: "/blog/",
        penalty: 1,
        metadata: { note: "old posts" },
      },
      {
        app_id: northfield,
        trigger_point: "admissions",
        finetuning_type: "pdf_weightage",
        pattern: "*.pdf",
        penalty: 0.25,
        metadata: {},
      },
      {
        app_id: northfield,
        trigger_point: "",
        finetuning_type: "html_tags_to_remove",
        pattern: "",
        penalty: null,
        metadata: { tags: ["table", ".promo"] },
      },
    ]);
    const listed = await call("GET", `/v1/controls/list_finetunings?app_id=${northfield}`, { token: clientUser });
    expect(listed).toEqual({ status: 200, body: { finetunings: saved.body.finetunings } });
    const onePoint = await call("GET", `/v1/controls/list_finetunings?app_id=${northfield}&trigger_point=admissions`, {
      token: clientUser,
    });
    expect(onePoint.body.finetunings.map((f: { finetuning_type: string }) => f.finetuning_type)).toEqual([
      "pdf_weightage",
    ]);
  });

  it("is idempotent: the same new rows saved again update the saved rules", async () => {
    const rows = [
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/news/", penalty: 0.4 },
      { app_id: northfield, finetuning_type: "html_tags_to_remove", metadata: { tags: [".promo", "table"] } },
      { app_id: northfield, finetuning_type: "html_tags_to_remove", metadata: { tags: ["table", ".promo"] } },
    ];
    // The two clean-up rows differ (order of tags): both saved; the url pattern updates the saved rule.
    const first = await upsert(clientAdmin, rows);
    expect(first.status).toBe(200);
    const second = await upsert(clientAdmin, rows);
    expect(second.body.finetunings).toEqual(first.body.finetunings);
    expect(
      first.body.finetunings.filter((f: { finetuning_type: string }) => f.finetuning_type === "url_pattern"),
    ).toEqual([expect.objectContaining({ pattern: "/news/", penalty: 0.4 })]);
    expect(await host.deps.db.select().from(finetunings).where(eq(finetunings.appId, northfield))).toHaveLength(5);
  });

  it("removes rows marked deleted in the same save, and through bulk_delete_finetunings", async () => {
    const before = (await call("GET", `/v1/controls/list_finetunings?app_id=${northfield}`, { token: clientAdmin }))
      .body.finetunings;
    const spare = before.find((f: { metadata: { tags?: string[] } }) => f.metadata.tags?.[0] === ".promo");
    const saved = await upsert(clientAdmin, [
      { ...spare, deleted: true },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/events/*/2019", penalty: 0.9 },
    ]);
    expect(saved.body).toMatchObject({ saved: 1, deleted: 1 });
    expect(saved.body.finetunings.map((f: { id: number }) => f.id)).not.toContain(spare.id);

    const events = saved.body.finetunings.find((f: { pattern: string }) => f.pattern === "/events/*/2019");
    const shopRule = await upsert(admin, [
      { app_id: harbor, trigger_point: "shop", finetuning_type: "url_pattern", pattern: "/sale/", penalty: 0.1 },
    ]);
    const shopId = shopRule.body.finetunings[0].id;
    expect(
      (
        await call("DELETE", "/v1/controls/bulk_delete_finetunings", {
          token: clientUser,
          body: { app_id: northfield, ids: [events.id] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call("DELETE", "/v1/controls/bulk_delete_finetunings", {
          token: clientAdmin,
          body: { app_id: harbor, ids: [shopId] },
        })
      ).status,
    ).toBe(404);
    // Another client's id in the list is left alone.
    const deleted = await call("DELETE", "/v1/controls/bulk_delete_finetunings", {
      token: clientAdmin,
      body: { app_id: northfield, ids: [events.id, shopId] },
    });
    expect(deleted).toEqual({ status: 200, body: { message: "Deleted 1 rule", deleted: 1 } });
    expect(
      (await call("GET", `/v1/controls/list_finetunings?app_id=${harbor}`, { token: admin })).body.finetunings,
    ).toHaveLength(1);
    const empty = await call("DELETE", "/v1/controls/bulk_delete_finetunings", {
      token: clientAdmin,
      body: { app_id: northfield, ids: [] },
    });
    expect(empty.body.errors).toEqual({ ids: ["Choose at least one rule to delete"] });
  });

  it("refuses a pattern written as a regular expression, which would match no page, and says how patterns are written", async () => {
    const before = await host.deps.db.select().from(finetunings).orderBy(asc(finetunings.id));
    const regex = await upsert(clientAdmin, [
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/news/.*", penalty: 0.5 },
      {
        app_id: northfield,
        finetuning_type: "html_weightage",
        pattern: "^https://www\\.northfield\\.edu/$",
        penalty: 1,
      },
      { app_id: northfield, finetuning_type: "pdf_weightage", pattern: "/(catalog|bulletin)/", penalty: 0.5 },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/events/*/2019", penalty: 0.5 },
      // An address may hold a "|" (an Exclude rule copies the address whole).
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "^https://www.northfield.edu/a|b$", penalty: 1 },
    ]);
    expect(regex.status).toBe(400);
    const message =
      "Patterns are not regular expressions: * stands for any characters, a leading ^ ties the pattern to the start of the address and a trailing $ to its end";
    expect(regex.body.errors).toEqual({
      "finetunings.0.pattern": [message],
      "finetunings.1.pattern": [message],
      "finetunings.2.pattern": [message],
    });
    expect(await host.deps.db.select().from(finetunings).orderBy(asc(finetunings.id))).toEqual(before);
  });

  it("refuses metadata nested deeper than any request may be, which storing it would overflow the stack on", async () => {
    const before = await host.deps.db.select().from(finetunings).orderBy(asc(finetunings.id));
    const deep = `{"a":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    const refused = await upsert(clientAdmin, [
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/deep/", penalty: 0.5, metadata: deep },
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual({ "finetunings.0.metadata": ["Nested too deeply: at most 32 levels"] });
    expect(await host.deps.db.select().from(finetunings).orderBy(asc(finetunings.id))).toEqual(before);
  });

  it("refuses in metadata sent as JSON text what any request's JSON may not hold, and metadata larger than a rule needs", async () => {
    const before = await host.deps.db.select().from(finetunings).orderBy(asc(finetunings.id));
    const cleanup = (metadata: unknown) => ({
      app_id: northfield,
      finetuning_type: "html_tags_to_remove",
      trigger_point: "",
      metadata,
    });
    const penalty = (metadata: unknown) => ({
      app_id: northfield,
      finetuning_type: "url_pattern",
      pattern: "/m/",
      penalty: 0.5,
      metadata,
    });
    // JSON's own escapes: the text holds none of these characters until it is parsed.
    const cases: [unknown, string][] = [
      [cleanup('{"tags":["footer"],"note":"a\\u0001b"}'), '"note": Contains a control character'],
      [cleanup('{"tags":["footer"],"note":"a\\u202eb"}'), expect.stringMatching(/^"note": Contains a text-direction/)],
      [cleanup('{"tags":["footer"],"\\u0007":1}'), "An entry's name must be one line, without tabs"],
      [penalty('{"k\\u0002":"v"}'), "An entry's name must be one line, without tabs"],
      [penalty({ "a\tb": "v" }), "An entry's name must be one line, without tabs"],
      [penalty({ ["k".repeat(101)]: 1 }), "Keep each entry's name to at most 100 characters"],
      [penalty({ note: "x".repeat(20_001) }), "Keep the metadata to at most 20,000 characters of JSON"],
    ];
    for (const [row, message] of cases) {
      const refused = await upsert(clientAdmin, [row]);
      expect(refused.status, JSON.stringify(row).slice(0, 120)).toBe(400);
      expect(refused.body.errors).toEqual({ "finetunings.0.metadata": [message] });
    }
    expect(await host.deps.db.select().from(finetunings).orderBy(asc(finetunings.id))).toEqual(before);
  });

  it("validates every row with per-field messages and saves nothing on error", async () => {
    const before = await host.deps.db.select().from(finetunings).orderBy(asc(finetunings.id));
    const bad = await upsert(clientAdmin, [
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/a/", penalty: 1.5 },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/b/", penalty: "half" },
      { app_id: northfield, finetuning_type: "html_weightage", pattern: "", penalty: 0.5 },
      { app_id: northfield, finetuning_type: "pdf_weightage", pattern: "/c/" },
      { app_id: northfield, finetuning_type: "html_tags_to_remove", metadata: "{not json" },
      { app_id: northfield, finetuning_type: "html_tags_to_remove", metadata: "[1, 2]" },
      { app_id: northfield, finetuning_type: "html_tags_to_remove", metadata: { tags: ["div > p"] } },
      {
        app_id: northfield,
        trigger_point: "admissions",
        finetuning_type: "html_tags_to_remove",
        metadata: { tags: ["aside"] },
      },
      { app_id: northfield, finetuning_type: "weird" },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/d/", penalty: true },
      // Number() would read these as 1; nobody means a penalty in hexadecimal or binary.
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/e/", penalty: "0x1" },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/f/", penalty: "0b1" },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      "finetunings.0.penalty": ["The penalty must be a number from 0 to 1"],
      "finetunings.1.penalty": ["The penalty must be a number from 0 to 1"],
      "finetunings.2.pattern": ["Enter a pattern (use * to match every page)"],
      "finetunings.3.penalty": ["Enter a penalty from 0 to 1, for example 0.5"],
      "finetunings.4.metadata": [
        'Metadata must be a JSON object, like {"tags": ["footer", ".cookie-banner", "#promo"]}',
      ],
      "finetunings.5.metadata": [
        'Metadata must be a JSON object, like {"tags": ["footer", ".cookie-banner", "#promo"]}',
      ],
      "finetunings.6.metadata.tags.0": ["Each entry is a tag name (footer), a class (.promo) or an id (#banner)"],
      "finetunings.7.trigger_point": [
        "Clean-up rules act when pages are indexed, which all agents of a client share: choose Default as the site",
      ],
      "finetunings.8.finetuning_type": [
        "finetuning_type must be one of url_pattern, html_weightage, pdf_weightage, html_tags_to_remove",
      ],
      "finetunings.9.penalty": ["The penalty must be a number from 0 to 1"],
      "finetunings.10.penalty": ["The penalty must be a number from 0 to 1"],
      "finetunings.11.penalty": ["The penalty must be a number from 0 to 1"],
    });
    const semantic = await upsert(clientAdmin, [
      { app_id: northfield, trigger_point: "mars", finetuning_type: "url_pattern", pattern: "/a/", penalty: 0.5 },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/dup/", penalty: 0.5 },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/dup/", penalty: 0.7 },
      { app_id: harbor, finetuning_type: "url_pattern", pattern: "/x/", penalty: 0.5 },
    ]);
    expect(semantic.body.errors).toEqual({
      "finetunings.3.app_id": ["Every row must belong to the client being saved"],
    });
    const semantic2 = await upsert(clientAdmin, [
      { app_id: northfield, trigger_point: "mars", finetuning_type: "url_pattern", pattern: "/a/", penalty: 0.5 },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/dup/", penalty: 0.5 },
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/dup/", penalty: 0.7 },
      { id: 999_999, app_id: northfield, finetuning_type: "url_pattern", pattern: "/gone/", penalty: 0.7 },
    ]);
    expect(semantic2.body.errors).toEqual({
      "finetunings.0.trigger_point": [
        `"mars" is not a trigger point of this client; choose Default, one of its trigger points or an agent's site code`,
      ],
      "finetunings.2.pattern": ["The same rule is listed twice for this site"],
    });
    const gone = await upsert(clientAdmin, [
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/fresh/", penalty: 0.5 },
      { id: 999_999, app_id: northfield, finetuning_type: "url_pattern", pattern: "/gone/", penalty: 0.7 },
    ]);
    expect(gone.body.errors).toEqual({ "finetunings.1.id": ["This rule no longer exists; reload the page"] });
    expect(await host.deps.db.select().from(finetunings).orderBy(asc(finetunings.id))).toEqual(before);
  });

  it("needs a client it may configure", async () => {
    expect((await upsert(clientAdmin, [])).body.errors).toEqual({ app_id: ["Say which client this is for (app_id)"] });
    expect((await upsert(clientAdmin, [], { app_id: northfield })).status).toBe(200);
    expect(
      (await upsert(clientUser, [{ app_id: northfield, finetuning_type: "url_pattern", pattern: "/x/", penalty: 0.5 }]))
        .status,
    ).toBe(403);
    expect(
      (await upsert(clientAdmin, [{ app_id: harbor, finetuning_type: "url_pattern", pattern: "/x/", penalty: 0.5 }]))
        .status,
    ).toBe(404);
    expect((await call("GET", `/v1/controls/list_finetunings?app_id=${harbor}`, { token: clientUser })).status).toBe(
      404,
    );
    expect((await call("GET", "/v1/controls/list_finetunings", { token: admin })).status).toBe(400);
  });

  it("a rule moved off a pattern frees it for a new row of the same save, and two rules may trade patterns", async () => {
    const rule = (pattern: string, penalty: number, id?: number) => ({
      ...(id ? { id } : {}),
      app_id: northfield,
      trigger_point: "studentsuccess",
      finetuning_type: "html_weightage",
      pattern,
      penalty,
    });
    const first = await upsert(clientAdmin, [rule("/old-a/", 0.5), rule("/old-b/", 0.2)]);
    const idOf = (pattern: string) =>
      first.body.finetunings.find((f: { pattern: string }) => f.pattern === pattern).id as number;
    const [a, b] = [idOf("/old-a/"), idOf("/old-b/")];
    const ours = (list: { id: number; pattern: string; penalty: number; trigger_point: string }[]) =>
      list
        .filter((f) => f.trigger_point === "studentsuccess")
        .map((f) => [f.pattern, f.penalty])
        .sort();

    // The table lists a new row above the saved ones: it takes the pattern the saved rule gives up.
    const moved = await upsert(clientAdmin, [rule("/old-a/", 0.3), rule("/new-a/", 0.5, a)]);
    expect(moved.status).toBe(200);
    expect(ours(moved.body.finetunings)).toEqual([
      ["/new-a/", 0.5],
      ["/old-a/", 0.3],
      ["/old-b/", 0.2],
    ]);

    const traded = await upsert(clientAdmin, [rule("/old-b/", 0.5, a), rule("/new-a/", 0.2, b)]);
    expect(traded.status).toBe(200);
    expect(
      traded.body.finetunings
        .filter((f: { id: number }) => f.id === a || f.id === b)
        .map((f: { id: number; pattern: string }) => [f.id, f.pattern]),
    ).toEqual([
      [a, "/old-b/"],
      [b, "/new-a/"],
    ]);

    await host.deps.db.delete(finetunings).where(eq(finetunings.triggerPoint, "studentsuccess"));
  });
});

describe("rules as the pipeline and retrieval read them", () => {
  it("penalties: Default rules plus the trigger point's own, an own rule replacing the Default one of the same type and pattern", async () => {
    await upsert(clientAdmin, [
      { app_id: northfield, finetuning_type: "url_pattern", pattern: "/archive/", penalty: 0.5 },
      {
        app_id: northfield,
        trigger_point: "studentsuccess",
        finetuning_type: "url_pattern",
        pattern: "/archive/",
        penalty: 0.1,
      },
    ]);
    const general = await penaltyRulesFor(northfield, "", host.deps.db);
    const student = await penaltyRulesFor(northfield, "studentsuccess", host.deps.db);
    const archive = (rules: typeof general) =>
      rules.filter((r) => r.pattern === "/archive/").map((r) => [r.triggerPoint, r.penalty]);
    expect(archive(general)).toEqual([["", 0.5]]);
    expect(archive(student)).toEqual([["studentsuccess", 0.1]]);
    expect(student.some((r) => r.type === "pdf_weightage")).toBe(false); // admissions' own rule
  });

  it("clean-up: the tags of every Default rule", async () => {
    expect(await cleanupRulesFor(northfield, host.deps.db)).toEqual({ removeSelectors: ["table", ".promo"] });
    expect(await cleanupRulesFor(harbor, host.deps.db)).toEqual({ removeSelectors: [] });
  });
});
