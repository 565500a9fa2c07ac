import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import type { ChangeKind } from "@contract";
import { appearances, chunks, clientApps, configChanges, knowledgeFiles, urls, websites } from "./schema";
import { writtenBy } from "../history/written";
import { startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);

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
    const migration = readFileSync(new URL("./migrations/0044_file_names_composed.sql", import.meta.url), "utf8");
    await db.execute(sql.raw(migration));
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
    const migration = readFileSync(new URL("./migrations/0045_history_written_parts.sql", import.meta.url), "utf8");
    await db.execute(sql.raw(migration.split("--> statement-breakpoint").at(-1)!));
    const written = await db
      .select({ id: configChanges.id, written: configChanges.written })
      .from(configChanges)
      .where(
        sql`${configChanges.id} in (${sql.join(
          rows.map((row) => sql`${row.id}`),
          sql`, `,
        )})`,
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
    const migration = readFileSync(new URL("./migrations/0047_appearance_pushed_at.sql", import.meta.url), "utf8");
    await db.execute(sql.raw(migration.split("--> statement-breakpoint").at(-1)!));
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
});
