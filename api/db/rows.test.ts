import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestHost } from "../../tests/support/test-host";
import { rowsAsOne, rowsOf } from "./rows";

let host: Awaited<ReturnType<typeof startTestHost>>;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.close());

describe("rowsAsOne", () => {
  const query = sql`
    select i as id, 'text ''' || i || E'\\n' as every, case when i % 2 = 0 then null else i * 1.5 end::float8 as factor,
      array[i, i + 1]::int[] as matched, i % 3 = 0 as third
    from generate_series(1, 300) as i order by i desc limit 250`;

  it("answers the rows as the statement answers them, in its order", async () => {
    const one = await rowsAsOne<Record<string, unknown>>(host.deps.db, query);
    const each = rowsOf<Record<string, unknown>>(await host.deps.db.execute(query));
    expect(one).toHaveLength(250);
    expect(one[0]).toEqual({ id: 300, every: "text '300\n", factor: null, matched: [300, 301], third: true });
    expect(one[1]).toEqual({ id: 299, every: "text '299\n", factor: 448.5, matched: [299, 300], third: false });
    expect(one.map((row) => Number(row.id))).toEqual(each.map((row) => Number(row.id)));
    expect(one.map((row) => row.every)).toEqual(each.map((row) => row.every));
  });

  it("answers no rows as an empty list", async () => {
    expect(await rowsAsOne(host.deps.db, sql`select 1 as id where false`)).toEqual([]);
  });
});
