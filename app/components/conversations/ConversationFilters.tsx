import { Form, Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import {
  CONVERSATION_RATING_FILTERS,
  CONVERSATION_SORT_LABELS,
  CONVERSATION_SORTS,
} from "@contract/values/conversations";
import { INSIGHT_ENVIRONMENT_LABELS, INSIGHT_ENVIRONMENTS } from "@contract/values/insights";
import {
  clearedFiltersSearch,
  DEFAULT_CONVERSATION_PAGE_SIZE,
  LEAD_FILTER_LABELS,
  narrowsList,
  pageSizeChoices,
  RATING_FILTER_LABELS,
  REVIEWED_FILTER_LABELS,
  type ConversationFilter,
  type ConversationFilterValues,
} from "~/lib/conversations";
import { fieldAria } from "~/components/FormField";
import { focusFirstProblem } from "~/components/useFocusFirstProblem";
import { OutcomeOptions } from "~/components/testing/OutcomeOptions";
import * as ui from "~/styles/ui.css";
import * as s from "./conversations.css";

type FieldErrors = Partial<Record<ConversationFilter, string[]>>;

const APPLY_ID = "conversations-apply";
/** The id of the control that had the keyboard when the filters were applied or cleared (one page has one such form). */
let focusedWhenLeft: string | null = null;

/** One filter: its label, its control and, when the address held a value the API refuses, why, right beside it. */
function Filter({
  name,
  label,
  errors,
  children,
}: {
  name: ConversationFilter;
  label: string;
  errors: FieldErrors;
  children: ReactNode;
}) {
  return (
    <div className={s.filterField}>
      <label htmlFor={`conversations-${name}`} className={ui.label}>
        {label}
      </label>
      {children}
      {errors[name]?.length ? (
        <p id={`conversations-${name}-error`} className={ui.fieldError}>
          {errors[name]!.join("\n")}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Every filter, the sort and the page size as address parameters: a plain GET form, so a filtered
 * list is a link ops can share, and it works without JavaScript. What the address held is shown
 * again as it was, a refused value with its message.
 */
export function ConversationFilters({
  values,
  fieldErrors,
  exportHref,
}: {
  values: ConversationFilterValues;
  fieldErrors: FieldErrors;
  /** The CSV of these filters; none while a filter is refused. */
  exportHref: string | null;
}) {
  const { pathname, search } = useLocation();
  const control = (name: ConversationFilter, fallback = "") => ({
    id: `conversations-${name}`,
    name,
    defaultValue: values[name] || fallback,
    className: ui.input,
    ...fieldAria({ id: `conversations-${name}`, errors: fieldErrors[name] }),
  });
  // The sort and the rows per page leave nothing out: clearing the filters keeps them.
  const filtered = narrowsList(values);
  // A refused filter takes focus, as a refused form field does; else the control that applied or
  // cleared the filters keeps it. (The form is new for each address: the old one took the focus
  // with it to the page's body.)
  const formRef = useRef<HTMLFormElement>(null);
  const refused = Object.keys(fieldErrors).length > 0;
  useEffect(() => {
    if (refused && formRef.current) focusFirstProblem(formRef.current);
    else if (focusedWhenLeft) document.getElementById(focusedWhenLeft)?.focus();
    focusedWhenLeft = null;
  }, [search, refused]);
  return (
    // Keyed by the address, so going back to another one shows that address's choices.
    <Form
      key={search}
      ref={formRef}
      method="get"
      role="search"
      aria-label="Filter the conversations"
      className={s.filters}
      onSubmit={() => (focusedWhenLeft = document.activeElement?.id || APPLY_ID)}
    >
      {/* The list's days are UTC days (the API's), as Business Insights' are: said where they are chosen. */}
      <Filter name="from" label="From (UTC day)" errors={fieldErrors}>
        <input type="date" {...control("from")} />
      </Filter>
      <Filter name="to" label="To (UTC day)" errors={fieldErrors}>
        <input type="date" {...control("to")} />
      </Filter>
      <Filter name="environment" label="Environment" errors={fieldErrors}>
        <select {...control("environment", "all")}>
          {INSIGHT_ENVIRONMENTS.map((env) => (
            <option key={env} value={env}>
              {INSIGHT_ENVIRONMENT_LABELS[env]}
            </option>
          ))}
        </select>
      </Filter>
      <Filter name="outcome" label="Outcome" errors={fieldErrors}>
        <select {...control("outcome")}>
          <OutcomeOptions anyLabel="Any outcome" />
        </select>
      </Filter>
      <Filter name="rating" label="Rating" errors={fieldErrors}>
        <select {...control("rating")}>
          <option value="">Any rating</option>
          {CONVERSATION_RATING_FILTERS.map((rating) => (
            <option key={rating} value={rating}>
              {RATING_FILTER_LABELS[rating]}
            </option>
          ))}
        </select>
      </Filter>
      <Filter name="lead" label="Lead" errors={fieldErrors}>
        <select {...control("lead")}>
          <option value="">With or without</option>
          <option value="true">{LEAD_FILTER_LABELS.true}</option>
          <option value="false">{LEAD_FILTER_LABELS.false}</option>
        </select>
      </Filter>
      <Filter name="reviewed" label="Reviewed" errors={fieldErrors}>
        <select {...control("reviewed")}>
          <option value="">Reviewed or not</option>
          <option value="true">{REVIEWED_FILTER_LABELS.true}</option>
          <option value="false">{REVIEWED_FILTER_LABELS.false}</option>
        </select>
      </Filter>
      <Filter name="search" label="Search" errors={fieldErrors}>
        <input type="search" {...control("search")} placeholder="Words of any message" />
      </Filter>
      <Filter name="sort" label="Sort" errors={fieldErrors}>
        <select {...control("sort", "latest")}>
          {CONVERSATION_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {CONVERSATION_SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </Filter>
      <Filter name="page_size" label="Rows per page" errors={fieldErrors}>
        <select {...control("page_size", String(DEFAULT_CONVERSATION_PAGE_SIZE))}>
          {pageSizeChoices(values.page_size).map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </Filter>
      <div className={s.filterActions}>
        <button type="submit" id={APPLY_ID} className={ui.button.primary}>
          Apply
        </button>
        {filtered ? (
          <Link
            to={`${pathname}${clearedFiltersSearch(values)}`}
            className={ui.button.secondary}
            onClick={() => (focusedWhenLeft = APPLY_ID)}
          >
            Clear filters
          </Link>
        ) : null}
        {exportHref ? (
          <a href={exportHref} className={ui.button.secondary} download>
            Export CSV
          </a>
        ) : null}
      </div>
    </Form>
  );
}
