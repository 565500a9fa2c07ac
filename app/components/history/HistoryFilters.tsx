import { Form, Link, useLocation } from "@remix-run/react";
import { CHANGE_KIND_LABELS, type ChangeKind } from "@contract/values/history";
import { TABLE_PAGE_SIZES } from "~/lib/table-view";
import * as ui from "~/styles/ui.css";
import * as s from "./history.css";

/** Kind and person as address parameters: a plain GET form, so a filtered history is a link and works without JavaScript. */
export function HistoryFilters({
  kinds,
  people,
  filters,
  kindError,
}: {
  kinds: readonly ChangeKind[];
  people: string[];
  filters: { kind: string; user: string; pageSize: number };
  /** Why the address's kind was refused (one the screen does not offer). */
  kindError: string | null;
}) {
  const { pathname } = useLocation();
  return (
    // Keyed by the filters, so going back to another address shows that address's choices.
    <Form
      key={`${filters.kind} ${filters.user} ${filters.pageSize}`}
      method="get"
      role="search"
      aria-label="Filter the history"
      className={ui.toolbar}
    >
      <label className={s.filterLabel}>
        Kind
        <select
          name="kind"
          defaultValue={kindError ? "" : filters.kind}
          className={ui.input}
          aria-invalid={kindError ? true : undefined}
          aria-describedby={kindError ? "history-kind-error" : undefined}
        >
          <option value="">Any kind</option>
          {kinds.map((kind) => (
            <option key={kind} value={kind}>
              {CHANGE_KIND_LABELS[kind]}
            </option>
          ))}
        </select>
        {kindError ? (
          <span id="history-kind-error" className={ui.fieldError}>
            {kindError}
          </span>
        ) : null}
      </label>
      <label className={s.filterLabel}>
        Person
        <input
          type="email"
          name="user"
          defaultValue={filters.user}
          list="history-people"
          placeholder="Anyone"
          maxLength={320}
          className={ui.input}
        />
      </label>
      <datalist id="history-people">
        {people.map((email) => (
          <option key={email} value={email} />
        ))}
      </datalist>
      <label className={s.filterLabel}>
        Rows per page
        <select name="page_size" defaultValue={String(filters.pageSize)} className={ui.input}>
          {TABLE_PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={ui.button.secondary}>
        Filter
      </button>
      {filters.kind || filters.user ? (
        <Link to={pathname} className={ui.button.link}>
          Show every change
        </Link>
      ) : null}
    </Form>
  );
}
