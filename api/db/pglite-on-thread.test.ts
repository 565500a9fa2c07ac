import { afterAll, describe, expect, it } from "vitest";
import { PGlite } from "@electric-sql/pglite";
import { BACKGROUND_WAIT_MS, PGliteOnThread } from "./pglite-on-thread";
import { beginAnswering } from "./foreground";

/** Any cluster will do: a copy of the run's template starts faster than a new one (docs/decisions/038). */
const anyDatabase = { from: process.env.TEST_DATABASE_TEMPLATE, startParams: PGlite.defaultStartParams };

describe("PGlite on its own thread", () => {
  const db = new PGliteOnThread(anyDatabase);
  afterAll(() => db.close());

  it("answers statements, keeps Postgres' error fields, and commits or rolls back transactions", async () => {
    await db.waitReady;
    await db.exec("create table t (id int primary key, at timestamptz default now())");
    await db.query("insert into t (id) values ($1)", [1]);
    const duplicate = await db.query("insert into t (id) values (1)").catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(Error);
    expect(duplicate).toMatchObject({ code: "23505", constraint: "t_pkey" });

    await expect(
      db.transaction(async (tx) => {
        await tx.query("insert into t (id) values (2)");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    const kept = await db.transaction(async (tx) => {
      await tx.query("insert into t (id) values (3)");
      return (await tx.query("select count(*)::int as n from t")).rows[0];
    });
    expect(kept).toEqual({ n: 2 });
    expect((await db.query("select id from t order by id", [], { rowMode: "array" })).rows).toEqual([[1], [3]]);
  });

  it("gives dates as written when asked (as Drizzle asks), as Date objects otherwise", async () => {
    const asked = await db.query("select at from t where id = 1", [], { parsers: {} });
    expect(typeof (asked.rows[0] as { at: unknown }).at).toBe("string");
    const plain = await db.query("select at from t where id = 1");
    expect((plain.rows[0] as { at: unknown }).at).toBeInstanceOf(Date);

    // Arrays of dates too, in and out of transactions, whichever kind of statement came first.
    const arrays = "select array[at, at] as ats, array[at::date] as days from t where id = 1";
    const inTransaction = await db.transaction(async (tx) => [
      (await tx.query(arrays)).rows[0],
      (await tx.query(arrays, [], { parsers: {} })).rows[0],
    ]);
    for (const row of [(await db.query(arrays)).rows[0], inTransaction[0]] as { ats: unknown[]; days: unknown[] }[]) {
      expect(row.ats).toHaveLength(2);
      expect(row.ats[0]).toBeInstanceOf(Date);
      expect(row.days[0]).toBeInstanceOf(Date);
    }
    for (const row of [(await db.query(arrays, [], { parsers: {} })).rows[0], inTransaction[1]] as {
      ats: unknown;
      days: unknown;
    }[]) {
      expect(row.ats).toMatch(/^\{"\d{4}-\d\d-\d\d [^"]+","[^"]+"\}$/);
      expect(row.days).toMatch(/^\{\d{4}-\d\d-\d\d\}$/);
    }
  });

  it("delivers notifications to a listener until it stops listening", async () => {
    const heard: string[] = [];
    const stop = await db.listen("jobs", (payload) => heard.push(payload));
    await db.query("select pg_notify('jobs', 'one')");
    await expect.poll(() => heard).toEqual(["one"]);
    await stop();
    await db.query("select pg_notify('jobs', 'two')");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual(["one"]);
  });

  it("runs a statement outside a transaction only after the open transaction ends", async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query("insert into t (id) values (4)");
      order.push("in transaction");
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = db
      .query("select count(*)::int as n from t")
      .then((r) => order.push(`outside saw ${(r.rows[0] as { n: number }).n}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await Promise.all([transaction, outside]);
    expect(order).toEqual(["in transaction", "outside saw 3"]);
  });
});

describe("the background lane", () => {
  const db = new PGliteOnThread(anyDatabase);
  const background = db.background();
  afterAll(() => db.close());
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("holds background work while a page or API call is answered, and lets it go when that ends", async () => {
    await db.waitReady;
    const answered = beginAnswering();
    let done = false;
    const work = background.query("select 1 as one").then((result) => {
      done = true;
      return result.rows;
    });
    await sleep(BACKGROUND_WAIT_MS / 3);
    // The answer's own statements are not held.
    expect((await db.query("select 2 as two")).rows).toEqual([{ two: 2 }]);
    expect(done).toBe(false);
    answered();
    expect(await work).toEqual([{ one: 1 }]);
  });

  it("lets held background work go after BACKGROUND_WAIT_MS, so a steady stream of answers cannot stop it", async () => {
    const answered = beginAnswering();
    try {
      const started = performance.now();
      await background.exec("select 1");
      expect(performance.now() - started).toBeGreaterThanOrEqual(BACKGROUND_WAIT_MS - 5);
    } finally {
      answered();
    }
  });

  it("runs a request's statement after the background statement already running, before those queued", async () => {
    const order: string[] = [];
    const queued = ["first", "second", "third"].map((name) =>
      background.query("select pg_sleep(0.05)").then(() => order.push(`background ${name}`)),
    );
    await sleep(10);
    const answered = beginAnswering();
    await db.query("select 1").then(() => order.push("request"));
    answered();
    await Promise.all(queued);
    expect(order).toEqual(["background first", "request", "background second", "background third"]);
  });

  it("keeps a background transaction whole: its statements are never held, and it commits", async () => {
    await background.exec("create table lane (n int)");
    let answered = () => {};
    await background.transaction(async (tx) => {
      await tx.query("insert into lane values (1)");
      answered = beginAnswering();
      await tx.query("insert into lane values (2)");
    });
    answered();
    expect((await db.query("select count(*)::int as n from lane")).rows).toEqual([{ n: 2 }]);
  });
});

describe("a closed database's thread", () => {
  it("opens the next database, which starts empty and works as a new thread's would", async () => {
    const first = new PGliteOnThread(anyDatabase);
    await first.waitReady;
    await first.exec("create table left_behind (n int)");
    const thread = first.threadId;
    await first.close();
    await expect(first.query("select 1")).rejects.toThrow("the database is closed");

    const next = new PGliteOnThread(anyDatabase);
    try {
      await next.waitReady;
      expect(next.threadId).toBe(thread);
      const found = await next.query("select to_regclass('left_behind')::text as found");
      expect(found.rows).toEqual([{ found: null }]);
      await next.exec("create table t (n int)");
      await next.transaction(async (tx) => {
        await tx.query("insert into t values (1)");
      });
      const heard: string[] = [];
      await next.listen("jobs", (payload) => heard.push(payload));
      await next.query("select pg_notify('jobs', 'after reuse')");
      await expect.poll(() => heard).toEqual(["after reuse"]);
      expect((await next.query("select count(*)::int as n from t")).rows).toEqual([{ n: 1 }]);
    } finally {
      await next.close();
    }
  });

  it("is kept for one database at most: two open at once get two threads, and the second closed is ended", async () => {
    const one = new PGliteOnThread(anyDatabase);
    const two = new PGliteOnThread(anyDatabase);
    await Promise.all([one.waitReady, two.waitReady]);
    expect(one.threadId).not.toBe(two.threadId);
    await one.close();
    await two.close();
    const after = new PGliteOnThread(anyDatabase);
    const again = new PGliteOnThread(anyDatabase);
    try {
      await Promise.all([after.waitReady, again.waitReady]);
      // The first closed thread was kept; the second was ended, so the fourth database has a new one.
      expect(after.threadId).toBe(one.threadId);
      expect([one.threadId, two.threadId]).not.toContain(again.threadId);
    } finally {
      await Promise.all([after.close(), again.close()]);
    }
  });
});
