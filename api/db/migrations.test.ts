import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ChangeKind } from "@contract";
import {
  appearances,
  chunks,
  clientApps,
  configChanges,
  conversations,
  insightQuestions,
  insightSources,
  knowledgeFiles,
  messages,
  testResults,
  testRuns,
  urls,
  websites,
} from "./schema";
import { writtenBy } from "../history/written";
import { startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);

/** A migration's statements, split where drizzle splits them. */
const statementsOf = (file: string) =>
  readFileSync(new URL(`./migrations/${file}`, import.meta.url), "utf8").split("--> statement-breakpoint");

/** Runs migration statements again, over rows a test wrote in the shape they had before it. */
async function runStatements(statements: string[]) {
  for (const statement of statements) await host.deps.db.execute(sql.raw(statement));
}

describe("migrations", () => {
  it("compose the names of files stored decomposed", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const decomposed = "Prüfungsordnung Übersicht.pdf".normalize("NFD");
    const [file] = await db
      .insert(knowledgeFiles)
      .values({ appId, fileName: decomposed, uploadKey: `uploads/${appId}/nfd/file.pdf` })
      .returning();
    const [other] = await db
      .insert(knowledgeFiles)
      .values({ appId, fileName: "Guide.pdf", uploadKey: `uploads/${appId}/nfc/file.pdf` })
      .returning();
    await runStatements(statementsOf("0044_file_names_composed.sql"));
    const names = await db.select({ id: knowledgeFiles.id, fileName: knowledgeFiles.fileName }).from(knowledgeFiles);
    expect(names).toEqual(
      expect.arrayContaining([
        { id: file.id, fileName: "Prüfungsordnung Übersicht.pdf".normalize("NFC") },
        { id: other.id, fileName: "Guide.pdf" },
      ]),
    );
  });

  it("record what each controls change wrote, as a change recorded today records it", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const control = (internal_name: string, prompt_input_raw: string, metadata: object = {}) => ({
      id: null,
      internal_name,
      display_name: internal_name,
      prompt_input_raw,
      metadata,
    });
    const personality = control("ai_personality_guidelines", "Be brief.");
    const check = control("quality_check", "", { min_retrieval_confidence: 0.04, max_sources: 3 });
    const states: { kind: ChangeKind; before: unknown; after: unknown }[] = [
      // A No-Go topic added: the No-Go list alone, the other controls as they were.
      {
        kind: "controls",
        before: [personality, check],
        after: [personality, control("no_go_topics", "parking", { disclaimer: "Ask security." }), check],
      },
      // The Quality Check's numbers and the personality changed at once.
      {
        kind: "controls",
        before: [personality, check],
        after: [control("ai_personality_guidelines", "Be warm."), { ...check, metadata: { max_sources: 5 } }],
      },
      // The first change recorded, with nothing before it; and one that changed nothing of a control.
      { kind: "controls", before: null, after: [personality] },
      { kind: "controls", before: [personality], after: [personality] },
      // Other kinds are written back whole.
      { kind: "input_prompts", before: [], after: [{ internal_name: "tone", prompt_input_raw: "Be formal." }] },
    ];
    const rows = await db
      .insert(configChanges)
      .values(
        states.map((state) => ({ appId, userEmail: "someone@example.com", summary: "Recorded before", ...state })),
      )
      .returning({ id: configChanges.id });
    await runStatements(statementsOf("0045_history_written_parts.sql").slice(-1));
    const written = await db
      .select({ id: configChanges.id, written: configChanges.written })
      .from(configChanges)
      .where(
        inArray(
          configChanges.id,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(configChanges.id);
    expect(written.map((row) => row.written)).toEqual([
      ["no_go_topics"],
      ["ai_personality_guidelines", "quality_check"],
      ["ai_personality_guidelines"],
      [],
      null,
    ]);
    expect(written.map((row) => row.written)).toEqual(
      states.map((state) => writtenBy(state.kind, state.before, state.after)),
    );
  });

  it("record a topic list saved again under new rows, its topics the same, as not written", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const topic = (id: number, prompt_input_raw: string) => ({
      id,
      internal_name: "no_go_topics",
      display_name: "No-Go Topics",
      prompt_input_raw,
      metadata: { disclaimer: "Ask the office." },
    });
    const personality = (text: string) => ({
      id: 1,
      internal_name: "ai_personality_guidelines",
      display_name: "AI Personality",
      prompt_input_raw: text,
      metadata: {},
    });
    // An import before topics were updated in place wrote every list of its file again, under new ids.
    const states: { kind: ChangeKind; before: unknown; after: unknown }[] = [
      {
        kind: "controls",
        before: [personality("Be brief."), topic(11, "parking"), topic(12, "dorms")],
        after: [personality("Be warm."), topic(21, "parking"), topic(22, "dorms")],
      },
      { kind: "controls", before: [topic(11, "parking")], after: [topic(21, "fees")] },
    ];
    const rows = await db
      .insert(configChanges)
      .values(
        states.map((state) => ({
          appId,
          userEmail: "someone@example.com",
          summary: "Recorded before",
          // As migration 0045 recorded it, the topics' ids compared too.
          written: ["ai_personality_guidelines", "no_go_topics"],
          ...state,
        })),
      )
      .returning({ id: configChanges.id });
    await runStatements(statementsOf("0051_history_written_topics.sql"));
    const written = await db
      .select({ written: configChanges.written })
      .from(configChanges)
      .where(
        inArray(
          configChanges.id,
          rows.map((row) => row.id),
        ),
      )
      .orderBy(configChanges.id);
    expect(written.map((row) => row.written)).toEqual([["ai_personality_guidelines"], ["no_go_topics"]]);
    expect(written.map((row) => row.written)).toEqual(
      states.map((state) => writtenBy(state.kind, state.before, state.after)),
    );
  });

  it("take production's last push time from when a push last wrote it, and give stage none", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const pushed = new Date("2025-04-05T06:07:08.000Z");
    const rows = await db
      .insert(appearances)
      .values([
        { appId, triggerPoint: "migrated", environment: "prod", values: {}, updatedAt: pushed },
        { appId, triggerPoint: "migrated", environment: "stage", values: {}, updatedAt: pushed },
      ])
      .returning({ id: appearances.id });
    await runStatements(statementsOf("0047_appearance_pushed_at.sql").slice(-1));
    const after = await db
      .select({ environment: appearances.environment, pushedAt: appearances.pushedAt })
      .from(appearances)
      .where(sql`${appearances.id} in (${rows[0].id}, ${rows[1].id})`)
      .orderBy(appearances.environment);
    expect(after).toEqual([
      { environment: "prod", pushedAt: pushed },
      { environment: "stage", pushedAt: null },
    ]);
  });

  it("say a failure on our side in one plain sentence, keeping a page's or a file's own reasons", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const [site] = await db
      .insert(websites)
      .values({ appId, url: "https://failures.example.org/", status: "sitemap_generated" })
      .returning();
    const pageFailures = [
      'Failed query: insert into "chunks" ("app_id", "text") values ($1, $2)\nparams: 1,Secret draft text',
      "ECONNRESET: socket hang up",
      "The server answered 404 Not Found",
    ];
    const pages = await db
      .insert(urls)
      .values(
        pageFailures.map((error_message, i) => ({
          appId,
          websiteId: site.id,
          url: `https://failures.example.org/${i}`,
          status: "failed_to_index",
          metadata: { error_message, internal_url: "kept" },
        })),
      )
      .returning({ id: urls.id });
    const fileFailures = [
      "ENOENT: no such file or directory, open '/srv/console/data/files/apps/1/files/9/guide.pdf'",
      "This PDF holds no text to read (a scan without OCR?)",
    ];
    const files = await db
      .insert(knowledgeFiles)
      .values(
        fileFailures.map((errorMessage, i) => ({
          appId,
          fileName: `failed-${i}.pdf`,
          uploadKey: `uploads/${appId}/failed/${i}.pdf`,
          status: "failed",
          errorMessage,
        })),
      )
      .returning({ id: knowledgeFiles.id });
    await runStatements(statementsOf("0049_failures_said_plainly.sql"));

    const pagesAfter = await db
      .select({ metadata: urls.metadata })
      .from(urls)
      .where(
        inArray(
          urls.id,
          pages.map((p) => p.id),
        ),
      )
      .orderBy(urls.id);
    const ours =
      "The page could not be saved because of an error on our side, which was logged; index it again to retry.";
    expect(pagesAfter.map((p) => p.metadata)).toEqual([
      { error_message: ours, internal_url: "kept" },
      { error_message: ours, internal_url: "kept" },
      { error_message: "The server answered 404 Not Found", internal_url: "kept" },
    ]);
    const filesAfter = await db
      .select({ errorMessage: knowledgeFiles.errorMessage })
      .from(knowledgeFiles)
      .where(sql`${knowledgeFiles.id} in (${files[0].id}, ${files[1].id})`)
      .orderBy(knowledgeFiles.id);
    expect(filesAfter.map((f) => f.errorMessage)).toEqual([
      "The file could not be indexed because of an error on our side, which was logged; index it again to retry.",
      fileFailures[1],
    ]);
  });

  it("fill which day's unanswered ask came last where the rollup can tell, and leave the rest unknown", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const row = { appId, triggerPoint: "migrated", environment: "stage", day: "2025-03-01", askedAsAnswer: 41 };
    await db.insert(insightQuestions).values([
      { ...row, questionKey: "every ask unanswered", asked: 2, unanswered: 2 },
      { ...row, questionKey: "some asks answered", asked: 3, unanswered: 1 },
      { ...row, questionKey: "every ask answered", asked: 2, unanswered: 0 },
    ]);
    await runStatements(statementsOf("0048_insight_answered_since.sql").slice(1, 2));
    const after = await db
      .select({ key: insightQuestions.questionKey, last: insightQuestions.lastFallbackAnswer })
      .from(insightQuestions)
      .where(eq(insightQuestions.triggerPoint, "migrated"))
      .orderBy(insightQuestions.questionKey);
    expect(after).toEqual([
      { key: "every ask answered", last: null },
      { key: "every ask unanswered", last: 41 },
      { key: "some asks answered", last: null },
    ]);
  });

  it("drop the user name and password stored in addresses before, keeping one page per address", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const [site, clash] = await db
      .insert(websites)
      .values([
        {
          appId,
          url: "https://editor:s3cret@creds.example.org/",
          status: "sitemap_generated",
          seedUrls: [
            "https://editor:s3cret@creds.example.org/a",
            "https://creds.example.org/a",
            "https://creds.example.org/b",
          ],
          sitemaps: ["https://editor:s3cret@creds.example.org/sitemap.xml"],
          lastError: "https://bot:pw@creds.example.org/old.xml: HTTP 404; https://creds.example.org/x.xml: HTTP 500",
          urlsCount: 5,
        },
        // Its address without the password is another website's: left as it is, for people to sort out.
        { appId, url: "https://editor:s3cret@kept.example.org/", status: "sitemap_generated" },
      ])
      .returning();
    await db.insert(websites).values({ appId, url: "https://kept.example.org/", status: "sitemap_generated" });
    const page = (url: string, extra: Partial<typeof urls.$inferInsert> = {}) => ({
      appId,
      websiteId: site.id,
      url,
      status: "indexed",
      ...extra,
    });
    const stored = await db
      .insert(urls)
      .values([
        page("https://creds.example.org/plain"),
        page("https://editor:s3cret@creds.example.org/plain"),
        page("https://editor:s3cret@creds.example.org/only"),
        page("https://one:x@creds.example.org/twice"),
        page("https://two:y@creds.example.org/twice"),
        page("https://creds.example.org/failed", {
          status: "failed_to_index",
          metadata: { error_message: "Redirected to https://u:p@creds.example.org/login, not followed" },
        }),
      ])
      .returning({ id: urls.id, url: urls.url });
    await runStatements(statementsOf("0050_addresses_without_credentials.sql"));

    const pagesAfter = await db
      .select({ id: urls.id, url: urls.url, metadata: urls.metadata })
      .from(urls)
      .where(eq(urls.websiteId, site.id))
      .orderBy(urls.id);
    const idOf = (url: string) => stored.find((row) => row.url === url)?.id;
    expect(pagesAfter).toEqual([
      { id: idOf("https://creds.example.org/plain"), url: "https://creds.example.org/plain", metadata: {} },
      {
        id: idOf("https://editor:s3cret@creds.example.org/only"),
        url: "https://creds.example.org/only",
        metadata: {},
      },
      { id: idOf("https://one:x@creds.example.org/twice"), url: "https://creds.example.org/twice", metadata: {} },
      {
        id: idOf("https://creds.example.org/failed"),
        url: "https://creds.example.org/failed",
        metadata: { error_message: "Redirected to https://creds.example.org/login, not followed" },
      },
    ]);
    const [siteAfter, clashAfter] = await db
      .select()
      .from(websites)
      .where(sql`${websites.id} in (${site.id}, ${clash.id})`)
      .orderBy(websites.id);
    expect(siteAfter).toMatchObject({
      url: "https://creds.example.org/",
      seedUrls: ["https://creds.example.org/a", "https://creds.example.org/b"],
      sitemaps: ["https://creds.example.org/sitemap.xml"],
      lastError: "https://creds.example.org/old.xml: HTTP 404; https://creds.example.org/x.xml: HTTP 500",
      urlsCount: 4,
    });
    expect(clashAfter.url).toBe("https://editor:s3cret@kept.example.org/");
  });

  it("make no two websites of one client share an address when it drops their user names and passwords", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const site = (url: string) => ({ appId, url, status: "sitemap_generated" });
    const stored = await db
      .insert(websites)
      .values([
        // Two websites of one address once their passwords go: the first stored takes it.
        site("https://one:x@twins.example.org/"),
        site("https://two:y@twins.example.org/"),
        // The same website as one the client has, as decision 043 compares addresses.
        site("https://editor:s3cret@Slash.example.org/docs/"),
        site("https://slash.example.org/docs"),
        site("https://port.example.org:443/x"),
        site("https://editor:s3cret@port.example.org/x/"),
        // Another query is another website, whatever it ends with.
        site("https://query.example.org/p?a=1?b=2"),
        site("https://editor:s3cret@query.example.org/p?c=3?b=2"),
      ])
      .returning({ id: websites.id });
    await runStatements(statementsOf("0050_addresses_without_credentials.sql"));

    const after = await db
      .select({ url: websites.url })
      .from(websites)
      .where(
        inArray(
          websites.id,
          stored.map((row) => row.id),
        ),
      )
      .orderBy(websites.id);
    expect(after.map((row) => row.url)).toEqual([
      "https://twins.example.org/",
      "https://two:y@twins.example.org/",
      "https://editor:s3cret@Slash.example.org/docs/",
      "https://slash.example.org/docs",
      "https://port.example.org:443/x",
      "https://editor:s3cret@port.example.org/x/",
      "https://query.example.org/p?a=1?b=2",
      "https://query.example.org/p?c=3?b=2",
    ]);
  });

  it("drop a password with an @ in it whole, as a browser reads the address", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const [site] = await db
      .insert(websites)
      .values({
        appId,
        url: "https://editor:p@ss@at.example.org/",
        status: "failed_sitemap_generation",
        lastError: "https://bot:p@ss@at.example.org/sitemap.xml: HTTP 401",
      })
      .returning({ id: websites.id });
    await runStatements(statementsOf("0050_addresses_without_credentials.sql"));

    const [after] = await db
      .select({ url: websites.url, lastError: websites.lastError })
      .from(websites)
      .where(eq(websites.id, site.id));
    expect(new URL("https://editor:p@ss@at.example.org/").host).toBe("at.example.org");
    expect(after).toEqual({
      url: "https://at.example.org/",
      lastError: "https://at.example.org/sitemap.xml: HTTP 401",
    });
  });

  it("drop user names and passwords from the records of what was answered, and of what changed", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const secret = "https://editor:p@ss@creds.example.org/fees";
    const clean = "https://creds.example.org/fees";
    const passage = (url: string) => ({ title: "Fees", url, score: 0.5, text: "Mail x@y.org; see https://x.org/a@b" });
    const [conversation] = await db
      .insert(conversations)
      .values({ id: randomUUID(), appId, environment: "staging", triggerPoint: "admissions" })
      .returning();
    const [message] = await db
      .insert(messages)
      .values({
        conversationId: conversation.id,
        appId,
        role: "assistant",
        text: "Fees are due in May.",
        outcome: "answered",
        sources: [{ title: "Fees", url: secret }],
        closest: [passage("http://bot:pw@creds.example.org/old")],
        trace: { threshold: 0.04, top_score: 1, passages: [{ url: secret }], controls: [], model: false } as never,
      })
      .returning({ id: messages.id });
    const [run] = await db
      .insert(testRuns)
      .values({ appId, environment: "staging", trigger: "manual", status: "finished" })
      .returning();
    const [result] = await db
      .insert(testResults)
      .values({
        runId: run.id,
        question: "When are fees due?",
        passed: true,
        outcome: "answered",
        answer: "In May.",
        sources: [{ title: "Fees", url: secret }],
      })
      .returning({ id: testResults.id });
    const day = "2026-01-05";
    const rollup = { appId, day, triggerPoint: "admissions", environment: "staging" };
    await db.insert(insightQuestions).values({
      ...rollup,
      questionKey: "fees due",
      asked: 1,
      unanswered: 1,
      closest: [passage(secret)],
    });
    await db.insert(insightSources).values([
      { ...rollup, url: clean, title: "Fees", cited: 2 },
      { ...rollup, url: secret, title: "Fees", cited: 3 },
      { ...rollup, url: "https://one:x@creds.example.org/only", title: "Only", cited: 1 },
      { ...rollup, url: "https://two:y@creds.example.org/only", title: "Only", cited: 4 },
    ]);
    const [change] = await db
      .insert(configChanges)
      .values({
        appId,
        userEmail: "admin@example.org",
        kind: "website",
        target: "1",
        summary: `Website ${secret} added`,
        before: null,
        after: { url: secret, sitemaps: ["https://bot:pw@creds.example.org/sitemap.xml"] },
      })
      .returning({ id: configChanges.id });
    await runStatements(statementsOf("0054_sources_without_credentials.sql"));

    const [messageAfter] = await db.select().from(messages).where(eq(messages.id, message.id));
    expect(messageAfter.sources).toEqual([{ title: "Fees", url: clean }]);
    // An address's own @ (a path's, an email's in the text) stays: only a user name and password go.
    expect(messageAfter.closest).toEqual([passage("http://creds.example.org/old")]);
    expect(messageAfter.trace?.passages).toEqual([{ url: clean }]);
    const [resultAfter] = await db.select().from(testResults).where(eq(testResults.id, result.id));
    expect(resultAfter.sources).toEqual([{ title: "Fees", url: clean }]);
    const [questionAfter] = await db
      .select({ closest: insightQuestions.closest })
      .from(insightQuestions)
      .where(and(eq(insightQuestions.appId, appId), eq(insightQuestions.questionKey, "fees due")));
    expect(questionAfter.closest).toEqual([passage(clean)]);
    // One page a day, its counts added together.
    const sourcesAfter = await db
      .select({ url: insightSources.url, cited: insightSources.cited })
      .from(insightSources)
      .where(and(eq(insightSources.appId, appId), eq(insightSources.day, day)))
      .orderBy(insightSources.url);
    expect(sourcesAfter).toEqual([
      { url: clean, cited: 5 },
      { url: "https://creds.example.org/only", cited: 5 },
    ]);
    const [changeAfter] = await db.select().from(configChanges).where(eq(configChanges.id, change.id));
    expect(changeAfter).toMatchObject({
      summary: `Website ${clean} added`,
      before: null,
      after: { url: clean, sitemaps: ["https://creds.example.org/sitemap.xml"] },
    });
  });

  it("leave no statement trigger notifying every write (the page cache they fed is gone)", async () => {
    const triggers = await host.deps.db.execute(
      sql`select c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = 'console_changed'`,
    );
    expect(rowsOf(triggers)).toEqual([]);
    const functions = await host.deps.db.execute(sql`select proname from pg_proc where proname = 'console_changed'`);
    expect(rowsOf(functions)).toEqual([]);
  });

  it("keep a passage's row that fits in a page as it is, without trying to compress it", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const [site] = await db
      .insert(websites)
      .values({ appId, url: "https://probe.example.org/", status: "sitemap_generated" })
      .returning();
    const [page] = await db
      .insert(urls)
      .values({ appId, websiteId: site.id, url: "https://probe.example.org/long", status: "indexed" })
      .returning();
    // About 3 KB of text that compresses well: over the 2 KB at which Postgres would compress it, had
    // migration 0015 not aimed passages' rows at a whole page (a row read whole, no tries thrown away).
    const text = "Applications for the fall term close on January 15 every year. ".repeat(48);
    const [row] = await db.insert(chunks).values({ appId, urlId: page.id, position: 0, text }).returning();
    const stored = await db.execute(
      sql`select pg_column_compression(text) as method, pg_column_size(text) as size from chunks where id = ${row.id}`,
    );
    expect(rowsOf(stored)).toEqual([{ method: null, size: text.length + 4 }]);
  });

  it("file History's changes of an agent renamed before under its new code, each rename over the changes made before it", async () => {
    const { db } = host.deps;
    const [{ id: appId }] = await db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield"));
    const change = (kind: string, target: string, before: unknown, after: unknown) => ({
      appId,
      userEmail: "someone@example.com",
      summary: "Recorded before",
      kind,
      target,
      before,
      after,
    });
    const topic = (triggerPoint: string) => ({
      internal_name: "no_go_topics",
      prompt_input_raw: "x",
      trigger_point: triggerPoint,
    });
    const rule = (triggerPoint: string) => ({ trigger_point: triggerPoint, pattern: "/p/" });
    const insert = async (rows: ReturnType<typeof change>[]) =>
      (await db.insert(configChanges).values(rows).returning({ id: configChanges.id })).map((row) => row.id);
    // "mig-a" became "mig-b", then "mig-c"; a new agent took "mig-a" again after the first rename.
    const early = await insert([
      change("controls", "mig-a", [], [topic("mig-a")]),
      change("appearance", "stage/mig-a", {}, { primary_color: "#111111" }),
      change("finetuning", "", [rule("")], [rule(""), rule("mig-a")]),
      change("test_questions", "901", null, { question: "Q?", trigger_point: "mig-a" }),
      change("agent", "901", { site_code: "mig-a" }, { site_code: "mig-b" }),
    ]);
    const late = await insert([
      change("controls", "mig-a", [], [topic("mig-a")]),
      change("agent", "901", { site_code: "mig-b" }, { site_code: "mig-c" }),
    ]);
    await runStatements(statementsOf("0052_history_follows_renamed_agents.sql"));
    const rows = await db
      .select({ target: configChanges.target, before: configChanges.before, after: configChanges.after })
      .from(configChanges)
      .where(
        sql`${configChanges.id} in (${sql.join(
          [...early, ...late].map((id) => sql`${id}`),
          sql`, `,
        )})`,
      )
      .orderBy(configChanges.id);
    expect(rows).toEqual([
      { target: "mig-c", before: [], after: [topic("mig-c")] },
      { target: "stage/mig-c", before: {}, after: { primary_color: "#111111" } },
      { target: "", before: [rule("")], after: [rule(""), rule("mig-c")] },
      { target: "901", before: null, after: { question: "Q?", trigger_point: "mig-c" } },
      // The renames themselves stay as they were made.
      { target: "901", before: { site_code: "mig-a" }, after: { site_code: "mig-b" } },
      // The new agent's "mig-a", changed after the first rename, stays its own.
      { target: "mig-a", before: [], after: [topic("mig-a")] },
      { target: "901", before: { site_code: "mig-b" }, after: { site_code: "mig-c" } },
    ]);
  });
});
