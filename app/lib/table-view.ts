import { readPageParam } from "./query-params";

/**
 * The shared table's state in the address (spec: sortable column headers, rows per page 10, 20,
 * 50, 100, default 10): `sort`, `order`, `page` (from 1) and `page_size`, so a pasted link shows
 * the same rows in the same order.
 */
export const TABLE_PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_TABLE_PAGE_SIZE = 10;

export type SortOrder = "asc" | "desc";

export interface TableView {
  /** A sortable column's key, or null for the order the API gave. */
  sort: string | null;
  order: SortOrder;
  page: number;
  pageSize: number;
}

export function readTableView(search: URLSearchParams, sortable: readonly string[]): TableView {
  const sort = search.get("sort");
  const size = Number(search.get("page_size"));
  return {
    sort: sort && sortable.includes(sort) ? sort : null,
    order: search.get("order") === "desc" ? "desc" : "asc",
    page: readPageParam(search.get("page")),
    pageSize: (TABLE_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_TABLE_PAGE_SIZE,
  };
}

const collator = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** One page of rows in the view's order (a page past the end shows the last one). */
export function viewRows<T>(rows: readonly T[], view: TableView, valueOf: (row: T, column: string) => string) {
  const sorted = view.sort
    ? [...rows].sort((a, b) => {
        const compared = collator.compare(valueOf(a, view.sort!), valueOf(b, view.sort!));
        return view.order === "desc" ? -compared : compared;
      })
    : [...rows];
  const totalPages = Math.max(1, Math.ceil(sorted.length / view.pageSize));
  const page = Math.min(view.page, totalPages);
  return {
    rows: sorted.slice((page - 1) * view.pageSize, page * view.pageSize),
    page,
    totalPages,
    total: sorted.length,
  };
}

/**
 * The address after a change of view. A new sort column starts ascending, the same one flips;
 * changing the sort or the page size goes back to page 1. Other params stay.
 */
export function tableViewSearch(
  search: URLSearchParams,
  view: TableView,
  change: { sort?: string; page?: number; pageSize?: number },
) {
  const next = new URLSearchParams(search);
  if (change.sort !== undefined) {
    const order: SortOrder = view.sort === change.sort && view.order === "asc" ? "desc" : "asc";
    next.set("sort", change.sort);
    next.set("order", order);
    next.delete("page");
  }
  if (change.pageSize !== undefined) {
    next.set("page_size", String(change.pageSize));
    next.delete("page");
  }
  if (change.page !== undefined) {
    if (change.page > 1) next.set("page", String(change.page));
    else next.delete("page");
  }
  return `?${next}`;
}
