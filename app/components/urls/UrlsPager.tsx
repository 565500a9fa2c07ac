import { Form, Link, useSubmit } from "@remix-run/react";
import { useHydrated } from "~/components/SaveBar";
import { viewToParams, withPage, type UrlView } from "~/lib/urls";
import * as ui from "~/styles/ui.css";
import { HiddenParams } from "./params";
import * as s from "./urls.css";

/** Zero-based paging in the address: page size (a new size starts again at page 0) and previous/next. */
export function UrlsPager({
  view,
  totalPages,
  pageSizes,
  defaultPageSize,
}: {
  view: UrlView;
  totalPages: number;
  pageSizes: readonly number[];
  defaultPageSize: number;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const hrefFor = (page: number) => `?${viewToParams(withPage(view, page), defaultPageSize)}`;
  return (
    <nav aria-label="Pagination" className={s.pager}>
      <Form method="get" className={s.inlineForm} preventScrollReset>
        <HiddenParams omit={["page_size", "page"]} />
        <label htmlFor="url-page-size">Rows per page</label>
        <select
          id="url-page-size"
          name="page_size"
          defaultValue={String(view.pageSize)}
          className={ui.input}
          onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
        {hydrated ? null : (
          <button type="submit" className={ui.button.secondary}>
            Apply
          </button>
        )}
      </Form>
      {view.page > 0 ? (
        <Link to={hrefFor(view.page - 1)} className={ui.button.secondary} preventScrollReset>
          Previous
        </Link>
      ) : null}
      <span>
        Page {Math.min(view.page + 1, Math.max(totalPages, 1))} of {Math.max(totalPages, 1)}
      </span>
      {view.page + 1 < totalPages ? (
        <Link to={hrefFor(view.page + 1)} className={ui.button.secondary} preventScrollReset>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
