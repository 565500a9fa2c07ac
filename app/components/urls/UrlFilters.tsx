import { Form, Link, useLocation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { REVIEW_STATUSES, URL_STATUSES } from "@contract/values/knowledge";
import { activeFilterCount, viewToParams, type UrlView } from "~/lib/urls";
import { useFieldFollowsAddress } from "~/components/useFieldFollowsAddress";
import * as ui from "~/styles/ui.css";
import { HiddenParams } from "./params";
import * as s from "./urls.css";

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box, a GET form. It applies on Enter; with `asYouType` (the unified drawer) and
 * JavaScript it also submits itself 300 ms after the last keystroke.
 */
export function UrlSearch({ view, asYouType = false }: { view: UrlView; asYouType?: boolean }) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const input = useFieldFollowsAddress<HTMLInputElement>(view.search);
  return (
    <Form
      method="get"
      role="search"
      className={s.inlineForm}
      preventScrollReset
      // Submitted now: the search the typing had queued would land later, after a Back too.
      onSubmit={() => clearTimeout(timer.current)}
    >
      <HiddenParams omit={["search", "url", "page"]} />
      <label htmlFor="url-search" className={ui.visuallyHidden}>
        Search URLs
      </label>
      <input
        ref={input}
        id="url-search"
        type="search"
        name="search"
        defaultValue={view.search}
        placeholder="Search URLs"
        className={ui.input}
        onChange={(event) => {
          if (!asYouType) return;
          const form = event.currentTarget.form;
          clearTimeout(timer.current);
          timer.current = setTimeout(
            () => submit(form, { replace: true, preventScrollReset: true }),
            SEARCH_DEBOUNCE_MS,
          );
        }}
      />
      <button type="submit" className={ui.button.secondary}>
        Search
      </button>
    </Form>
  );
}

/** Status and Sitemap Review Status filters, multi-select checkboxes in a GET form, with a count badge. */
export function FilterMenu({ view, defaultPageSize }: { view: UrlView; defaultPageSize: number }) {
  const location = useLocation();
  const count = activeFilterCount(view);
  const cleared = viewToParams({ ...view, statuses: [], reviews: [], page: 0 }, defaultPageSize).toString();
  return (
    <details className={s.menu} key={location.search}>
      <summary className={`${ui.button.secondary} ${s.menuSummary}`}>
        Filters{" "}
        {count ? (
          <span className={s.badge} aria-label={`${count} active filters`}>
            {count}
          </span>
        ) : null}
      </summary>
      <Form method="get" className={s.menuPanel} preventScrollReset>
        <HiddenParams omit={["status", "review", "page"]} />
        <fieldset className={s.fieldset}>
          <legend className={s.legend}>Status</legend>
          {URL_STATUSES.map((status) => (
            <label key={status} className={s.check}>
              <input type="checkbox" name="status" value={status} defaultChecked={view.statuses.includes(status)} />
              {status}
            </label>
          ))}
        </fieldset>
        <fieldset className={s.fieldset}>
          <legend className={s.legend}>Sitemap Review Status</legend>
          {REVIEW_STATUSES.map((review) => (
            <label key={review} className={s.check}>
              <input type="checkbox" name="review" value={review} defaultChecked={view.reviews.includes(review)} />
              {review}
            </label>
          ))}
        </fieldset>
        <div className={s.toolbar}>
          <button type="submit" className={ui.button.primary}>
            Apply filters
          </button>
          <Link to={`?${cleared}`} className={ui.button.secondary} preventScrollReset>
            Clear filters
          </Link>
        </div>
      </Form>
    </details>
  );
}
