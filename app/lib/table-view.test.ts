import { describe, expect, it } from "vitest";
import { readTableView, tableViewSearch, viewRows } from "./table-view";

const people = ["carol@x.org", "alice@x.org", "Bob@x.org", "dave@x.org"].map((email, i) => ({ email, n: String(i) }));
const valueOf = (row: { email: string }) => row.email;

describe("the shared table's view in the address", () => {
  it("defaults to 10 rows, page 1, the API's order; ignores what it does not know", () => {
    expect(readTableView(new URLSearchParams(""), ["email"])).toEqual({
      sort: null,
      order: "asc",
      page: 1,
      pageSize: 10,
    });
    expect(readTableView(new URLSearchParams("sort=password&page=-2&page_size=7&order=sideways"), ["email"])).toEqual({
      sort: null,
      order: "asc",
      page: 1,
      pageSize: 10,
    });
    expect(readTableView(new URLSearchParams("sort=email&order=desc&page=2&page_size=20"), ["email"])).toEqual({
      sort: "email",
      order: "desc",
      page: 2,
      pageSize: 20,
    });
  });

  it("sorts without regard to case, then pages", () => {
    const view = readTableView(new URLSearchParams("sort=email&page_size=10"), ["email"]);
    expect(viewRows(people, view, valueOf).rows.map((r) => r.email)).toEqual([
      "alice@x.org",
      "Bob@x.org",
      "carol@x.org",
      "dave@x.org",
    ]);
    const desc = { ...view, order: "desc" as const, pageSize: 10 };
    expect(viewRows(people, desc, valueOf).rows[0].email).toBe("dave@x.org");
    const many = Array.from({ length: 25 }, (_, i) => ({ email: `u${String(i).padStart(2, "0")}@x.org` }));
    const third = viewRows(many, { sort: "email", order: "asc", page: 3, pageSize: 10 }, valueOf);
    expect(third).toMatchObject({ page: 3, totalPages: 3, total: 25 });
    expect(third.rows.map((r) => r.email)).toEqual(["u20@x.org", "u21@x.org", "u22@x.org", "u23@x.org", "u24@x.org"]);
    expect(viewRows(many, { sort: null, order: "asc", page: 9, pageSize: 10 }, valueOf).page).toBe(3);
  });

  it("starts a new sort ascending, flips the same one, and goes back to page 1 on sort or size", () => {
    const search = new URLSearchParams("sort=email&order=asc&page=3&tab=x");
    const view = readTableView(search, ["email", "name"]);
    expect(tableViewSearch(search, view, { sort: "email" })).toBe("?sort=email&order=desc&tab=x");
    expect(tableViewSearch(search, view, { sort: "name" })).toBe("?sort=name&order=asc&tab=x");
    expect(tableViewSearch(search, view, { pageSize: 50 })).toBe("?sort=email&order=asc&tab=x&page_size=50");
    expect(tableViewSearch(search, view, { page: 4 })).toBe("?sort=email&order=asc&page=4&tab=x");
  });
});
