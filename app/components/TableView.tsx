import { Form, Link, useLocation } from "@remix-run/react";
import { pageSizeOptions, SelfApplyingSelect } from "~/components/SelfApplyingSelect";
import { HiddenParams } from "~/components/urls/params";
import { TABLE_PAGE_SIZES, tableViewSearch, type TableView } from "~/lib/table-view";
import * as ui from "~/styles/ui.css";

export interface TableColumn {
  label: string;
  /** The `sort` value of a sortable column. */
  sort?: string;
}

/** A column header; a sortable one is a link that sorts by it (again: the other way). */
export function ColumnHeader({ column, view }: { column: TableColumn; view?: TableView }) {
  const location = useLocation();
  if (!column.sort || !view) return <th scope="col">{column.label}</th>;
  const current = view.sort === column.sort;
  const ariaSort = current ? (view.order === "asc" ? "ascending" : "descending") : "none";
  return (
    <th scope="col" aria-sort={ariaSort}>
      {/* The arrow is drawn by CSS (data-sort) with empty alternative text, so the header and its link are named by the column alone. */}
      <Link
        to={tableViewSearch(new URLSearchParams(location.search), view, { sort: column.sort })}
        className={ui.sortLink}
        data-sort={ariaSort}
        preventScrollReset
      >
        {column.label}
      </Link>
    </th>
  );
}

/**
 * Rows per page (10, 20, 50, 100) and previous/next, all in the address. `closes` names the address
 * parameters of a question open over the table (`delete`, say): another page of the table closes it.
 */
export function TablePager({
  view,
  page,
  totalPages,
  total,
  closes = [],
}: {
  view: TableView;
  page: number;
  totalPages: number;
  total: number;
  closes?: readonly string[];
}) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  for (const name of closes) search.delete(name);
  return (
    <nav aria-label="Pagination" className={ui.pager}>
      <Form method="get" className={ui.pagerForm} preventScrollReset>
        <HiddenParams omit={["page_size", "page", ...closes]} />
        <label htmlFor="table-page-size">Rows per page</label>
        <SelfApplyingSelect
          id="table-page-size"
          name="page_size"
          value={String(view.pageSize)}
          options={pageSizeOptions(TABLE_PAGE_SIZES)}
          button="Apply"
        />
      </Form>
      <span className={ui.muted}>{total.toLocaleString("en-US")} in all</span>
      {page > 1 ? (
        <Link to={tableViewSearch(search, view, { page: page - 1 })} className={ui.button.secondary} preventScrollReset>
          Previous
        </Link>
      ) : null}
      <span>
        Page {page} of {totalPages}
      </span>
      {page < totalPages ? (
        <Link to={tableViewSearch(search, view, { page: page + 1 })} className={ui.button.secondary} preventScrollReset>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
