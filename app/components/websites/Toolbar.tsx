import { Form, Link, useLocation } from "@remix-run/react";
import { DEFAULT_WEBSITES_PAGE_SIZE, statusFilterOptions, urlsDrawerPath, WEBSITES_PAGE_SIZES } from "~/lib/websites";
import { useListSearch } from "./useListSearch";
import * as ui from "~/styles/ui.css";
import * as s from "./WebsitesTable.css";

/** The search box: a GET form on `query` that starts again at page 1 and keeps the page size. */
export function WebsiteSearch({ query, pageSize }: { query: string; pageSize: number }) {
  return (
    <Form method="get" role="search" className={s.search} aria-label="Search websites">
      <input
        type="search"
        name="query"
        defaultValue={query}
        aria-label="Search websites"
        placeholder="Search websites"
        className={`${ui.input} ${s.searchInput}`}
      />
      {pageSize !== DEFAULT_WEBSITES_PAGE_SIZE ? <input type="hidden" name="page_size" value={pageSize} /> : null}
      <button type="submit" className={ui.button.secondary}>
        Search
      </button>
    </Form>
  );
}

/** The status filter: 'All URLs' and each status with its count, leading to the unified URL drawer. */
export function StatusFilter({
  statusCounts,
  totalCount,
}: {
  statusCounts: Record<string, number>;
  totalCount: number;
}) {
  const listSearch = useListSearch();
  return (
    <details className={s.menu}>
      <summary className={`${ui.button.secondary} ${s.menuSummary}`}>Status: All URLs ▾</summary>
      <ul className={s.menuListStart} aria-label="Filter URLs by status">
        {statusFilterOptions(statusCounts, totalCount).map((option) => (
          <li key={option.label}>
            <Link to={urlsDrawerPath(option.status, listSearch)} className={s.menuItem}>
              <span>{option.label}</span>
              {/* Read out, the link is "indexed, 6", not "indexed6": the two sit apart only on screen.
                  Not an aria-label: the name then holds exactly the text shown (WCAG 2.5.3). */}
              <span className={ui.visuallyHidden}>, </span>
              <span className={s.count}>{option.count}</span>
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Rows per page: 10 or 25, as links that keep the search and start at page 1. */
export function PageSizes({ pageSize }: { pageSize: number }) {
  const location = useLocation();
  const hrefFor = (size: number) => {
    const params = new URLSearchParams(location.search);
    params.set("page_size", String(size));
    params.delete("page");
    return `${location.pathname}?${params}`;
  };
  return (
    <nav aria-label="Rows per page" className={s.pageSizes}>
      <span className={ui.muted}>Rows per page:</span>
      {WEBSITES_PAGE_SIZES.map((size) =>
        size === pageSize ? (
          <span key={size} className={s.currentSize} aria-current="true">
            {size}
          </span>
        ) : (
          <Link key={size} to={hrefFor(size)}>
            {size}
          </Link>
        ),
      )}
    </nav>
  );
}
