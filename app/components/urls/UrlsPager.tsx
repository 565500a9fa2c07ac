import { Form, Link } from "@remix-run/react";
import { pageSizeOptions, SelfApplyingSelect } from "~/components/SelfApplyingSelect";
import { pagerState, viewToParams, withPage, type UrlView } from "~/lib/urls";
import * as ui from "~/styles/ui.css";
import { HiddenParams } from "./params";
import * as s from "./urls.css";

/**
 * Zero-based paging in the address: page size (a new size starts again at page 0) and previous/next.
 * Under a search or review filter the API stops counting matches at its cap (`capped`): the pages
 * counted are then the least there are, and Next stays while a page comes back full.
 */
export function UrlsPager({
  view,
  totalPages,
  capped = false,
  rowsShown,
  pageSizes,
  defaultPageSize,
}: {
  view: UrlView;
  totalPages: number;
  capped?: boolean;
  rowsShown: number;
  pageSizes: readonly number[];
  defaultPageSize: number;
}) {
  const hrefFor = (page: number) => `?${viewToParams(withPage(view, page), defaultPageSize)}`;
  const { shownPage, knownPages, hasNext } = pagerState({ ...view, totalPages, capped, rowsShown });
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
        Page {shownPage} of {knownPages}
        {capped ? "+" : ""}
      </span>
      {hasNext ? (
        <Link to={hrefFor(view.page + 1)} className={ui.button.secondary} preventScrollReset>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
