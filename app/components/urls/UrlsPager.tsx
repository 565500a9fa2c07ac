import { Form, Link } from "@remix-run/react";
import { pageSizeOptions, SelfApplyingSelect } from "~/components/SelfApplyingSelect";
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
  const hrefFor = (page: number) => `?${viewToParams(withPage(view, page), defaultPageSize)}`;
  return (
    <nav aria-label="Pagination" className={s.pager}>
      <Form method="get" className={s.inlineForm} preventScrollReset>
        <HiddenParams omit={["page_size", "page"]} />
        <label htmlFor="url-page-size">Rows per page</label>
        <SelfApplyingSelect
          id="url-page-size"
          name="page_size"
          value={String(view.pageSize)}
          options={pageSizeOptions(pageSizes)}
          button="Apply"
          replace={false}
        />
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
