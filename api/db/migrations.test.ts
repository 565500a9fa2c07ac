import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHost } from "../../tests/support/test-host";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

const rowsOf = (result: unknown) => (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows);

describe("migrations", () => {
  it("leave no statement trigger notifying every write (the page cache they fed is gone)", async () => {
    const triggers = await host.deps.db.execute(
      sql`select c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid where t.tgname = 'console_changed'`,
    );
    expect(rowsOf(triggers)).toEqual([]);
    const functions = await host.deps.db.execute(sql`select proname from pg_proc where proname = 'console_changed'`);
    expect(rowsOf(functions)).toEqual([]);
  });
});
