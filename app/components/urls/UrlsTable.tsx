import { Form, Link, useActionData, useFetcher, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { UrlRow } from "@contract";
import { ConfirmStep } from "~/components/ConfirmStep";
import { StatusChip } from "~/components/StatusChip";
import { useHydrated } from "~/components/useHydrated";
import {
  BULK_ACTIONS,
  BULK_DELETE_CONFIRMED,
  bulkDeleteQuestion,
  type BulkDeleteQuestion,
  parseRefreshDays,
  REFRESH_DAYS_DEBOUNCE_MS,
  REFRESH_DAYS_ERROR,
  RELOAD_DELAY_MS,
  REFRESH_DAYS_MIN,
  sortBy,
  viewToParams,
  type BulkAction,
  type OrderColumn,
  type RefusedRefreshDays,
  type UrlView,
} from "~/lib/urls";
import * as ui from "~/styles/ui.css";
import * as s from "./urls.css";
import { formatDateTime } from "~/lib/dates";
import { readableAddress } from "~/lib/readable-address";

const BULK_FORM_ID = "urls-bulk-actions";

export interface UrlsTableProps {
  rows: UrlRow[];
  view: UrlView;
  defaultPageSize: number;
  canConfigure: boolean;
  defaultRefreshDays: number;
  /** The unified drawer shows each row's website and no refresh days or chunks. */
  showWebsite: boolean;
  showRefreshDays: boolean;
  chunksHref?: (row: UrlRow) => string;
  emptyText: string;
  onToast: (type: "success" | "error", description: string) => void;
  /** A refresh-days value refused without JavaScript: its row shows it again. */
  refusedDays?: RefusedRefreshDays | null;
}

/**
 * The URL table with its bulk actions. The row checkboxes belong to the bulk form by their `form`
 * attribute, so each Refresh Days cell can be a form of its own. After a bulk action the
 * selection is cleared and, with JavaScript, the view reloads once more 500 ms later.
 */
export function UrlsTable(props: UrlsTableProps) {
  const { rows, view, canConfigure } = props;
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const visible = useMemo(() => rows.filter((row) => selected.has(row.id)).map((row) => row.id), [rows, selected]);
  const allSelected = rows.length > 0 && visible.length === rows.length;

  const bulkPending = navigation.state !== "idle" && navigation.formData?.get("intent") === "bulk";
  const wasBulk = useRef(false);
  useEffect(() => {
    if (wasBulk.current && !bulkPending) {
      setSelected(new Set());
      const timer = setTimeout(() => revalidator.revalidate(), RELOAD_DELAY_MS);
      wasBulk.current = false;
      return () => clearTimeout(timer);
    }
    wasBulk.current = bulkPending;
  }, [bulkPending, revalidator]);

  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const sortHref = (column: OrderColumn) => `?${viewToParams(sortBy(view, column), props.defaultPageSize)}`;
  const sortState = (column: OrderColumn) =>
    view.orderBy === column ? (view.order === "asc" ? "ascending" : "descending") : "none";
  const arrow = (column: OrderColumn) => (view.orderBy === column ? (view.order === "asc" ? "▲" : "▼") : "↕");
  const columns = 3 + (props.showWebsite ? 1 : 0) + (props.showRefreshDays ? 1 : 0) + (props.chunksHref ? 1 : 0);

  return (
    <>
      <BulkDeleteConfirm />
      {canConfigure ? (
        <Form method="post" id={BULK_FORM_ID} className={s.toolbar} preventScrollReset aria-label="Bulk Actions">
          <input type="hidden" name="intent" value="bulk" />
          <span className={ui.label}>Bulk Actions</span>
          {(Object.keys(BULK_ACTIONS) as BulkAction[]).map((action) => (
            <button
              key={action}
              type="submit"
              name="bulk"
              value={action}
              className={action === "delete" ? ui.button.danger : ui.button.secondary}
              disabled={bulkPending || (hydrated && visible.length === 0)}
            >
              {BULK_ACTIONS[action].label}
            </button>
          ))}
          {hydrated && visible.length ? <span className={ui.muted}>{visible.length} selected</span> : null}
        </Form>
      ) : null}
      <div className={ui.tableScroll} tabIndex={0}>
        <table className={s.table}>
          <thead>
            <tr>
              {canConfigure ? (
                <th className={`${s.th} ${s.checkCell}`}>
                  <input
                    type="checkbox"
                    aria-label="Select all URLs on this page"
                    checked={allSelected}
                    disabled={!hydrated || rows.length === 0}
                    onChange={(event) =>
                      setSelected(event.target.checked ? new Set(rows.map((row) => row.id)) : new Set())
                    }
                  />
                </th>
              ) : null}
              <th className={s.th} aria-sort={sortState("url")}>
                <Link to={sortHref("url")} className={s.sortLink} preventScrollReset>
                  URLS <span aria-hidden="true">{arrow("url")}</span>
                </Link>
              </th>
              {props.showWebsite ? <th className={s.th}>Website</th> : null}
              {props.showRefreshDays ? <th className={s.th}>Refresh Days</th> : null}
              <th className={s.th} aria-sort={sortState("status")}>
                <Link to={sortHref("status")} className={s.sortLink} preventScrollReset>
                  Status <span aria-hidden="true">{arrow("status")}</span>
                </Link>
              </th>
              {props.chunksHref ? <th className={s.th}>Chunks</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={columns + (canConfigure ? 1 : 0)} className={s.empty}>
                  {props.emptyText}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id} data-url-id={row.id} data-status={row.status}>
                  {canConfigure ? (
                    <td className={`${s.td} ${s.checkCell}`}>
                      <input
                        type="checkbox"
                        form={BULK_FORM_ID}
                        name="url_ids"
                        value={row.id}
                        aria-label={`Select ${row.url}`}
                        {...(hydrated
                          ? { checked: selected.has(row.id), onChange: (event) => toggle(row.id, event.target.checked) }
                          : {})}
                      />
                    </td>
                  ) : null}
                  <td className={s.td}>
                    <a href={row.url} target="_blank" rel="noreferrer" className={s.urlLink}>
                      {readableAddress(row.url)}
                    </a>
                    {row.title ? <div className={s.title}>{row.title}</div> : null}
                    {row.changed_at ? (
                      <div className={s.title}>
                        Last changed {formatDateTime(row.changed_at)}
                        {row.checked_at && row.checked_at !== row.changed_at
                          ? `, checked ${formatDateTime(row.checked_at)}`
                          : ""}{" "}
                        UTC
                      </div>
                    ) : null}
                    {row.status.startsWith("failed") && row.metadata.error_message ? (
                      <p className={s.errorText}>Error: {row.metadata.error_message}</p>
                    ) : null}
                  </td>
                  {props.showWebsite ? (
                    <td className={s.td}>
                      <span className={s.title}>{row.website_url}</span>
                    </td>
                  ) : null}
                  {props.showRefreshDays ? (
                    <td className={s.td}>
                      <RefreshDays
                        row={row}
                        fallback={props.defaultRefreshDays}
                        disabled={!canConfigure}
                        onToast={props.onToast}
                        refused={props.refusedDays?.urlId === row.id ? props.refusedDays : null}
                      />
                    </td>
                  ) : null}
                  <td className={s.td}>
                    <StatusChip status={row.status} />
                  </td>
                  {props.chunksHref ? (
                    <td className={s.td}>
                      <Link
                        to={props.chunksHref(row)}
                        className={ui.button.secondary}
                        aria-label={`View chunks of ${row.url}`}
                        preventScrollReset
                      >
                        View
                      </Link>
                    </td>
                  ) : null}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * Refresh days of one URL. With JavaScript the value saves itself 500 ms after the last keystroke
 * (a value outside 1–365 raises the spec's toast instead); without it the row's Save button posts it.
 */
function RefreshDays({
  row,
  fallback,
  disabled,
  onToast,
  refused,
}: {
  row: UrlRow;
  fallback: number;
  disabled: boolean;
  onToast: UrlsTableProps["onToast"];
  refused: RefusedRefreshDays | null;
}) {
  const hydrated = useHydrated();
  const fetcher = useFetcher<{ ok: boolean; error?: string }>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const answered = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || answered.current === fetcher.data) return;
    answered.current = fetcher.data;
    if (fetcher.data.ok) onToast("success", "Refresh days saved");
    else onToast("error", fetcher.data.error ?? REFRESH_DAYS_ERROR);
  }, [fetcher.state, fetcher.data, onToast]);
  const inputId = `refresh-days-${row.id}`;
  return (
    <fetcher.Form
      method="post"
      className={s.inlineForm}
      preventScrollReset
      onSubmit={(event) => hydrated && event.preventDefault()}
    >
      <input type="hidden" name="intent" value="refresh-days" />
      <input type="hidden" name="url_id" value={row.id} />
      <label htmlFor={inputId} className={ui.visuallyHidden}>
        Refresh days for {row.url}
      </label>
      <input
        id={inputId}
        type="number"
        name="refresh_days"
        min={REFRESH_DAYS_MIN}
        step={1}
        defaultValue={refused ? refused.value : (row.refresh_days ?? fallback)}
        aria-invalid={refused ? true : undefined}
        disabled={disabled}
        className={`${ui.input} ${s.daysInput}`}
        onChange={(event) => {
          const value = event.target.value;
          clearTimeout(timer.current);
          timer.current = setTimeout(() => {
            const days = parseRefreshDays(value);
            if (days === null) return onToast("error", REFRESH_DAYS_ERROR);
            fetcher.submit(
              { intent: "refresh-days", url_id: String(row.id), refresh_days: String(days), _fetcher: "1" },
              { method: "post" },
            );
          }, REFRESH_DAYS_DEBOUNCE_MS);
        }}
      />
      {hydrated ? null : (
        <button
          type="submit"
          className={ui.button.secondary}
          disabled={disabled}
          aria-label={`Save refresh days for ${row.url}`}
        >
          Save
        </button>
      )}
    </fetcher.Form>
  );
}

/**
 * The question the bulk Delete answers first (with or without JavaScript): the chosen URLs go with
 * it as hidden fields, and Delete posts them again, confirmed. Cancel returns to the view as it was.
 */
function BulkDeleteConfirm() {
  const posted = useActionData() as Partial<BulkDeleteQuestion> | undefined;
  const location = useLocation();
  if (posted?.intent !== "confirm-bulk-delete" || !posted.urlIds?.length) return null;
  return (
    <ConfirmStep
      label="Delete selected URLs"
      question={bulkDeleteQuestion(posted.urlIds.length)}
      confirm="Delete"
      intent="bulk"
      cancelTo={`${location.pathname}${location.search}`}
      focusKey={posted.urlIds.join(",")}
    >
      <input type="hidden" name="bulk" value="delete" />
      <input type="hidden" name={BULK_DELETE_CONFIRMED} value="yes" />
      {posted.urlIds.map((id) => (
        <input key={id} type="hidden" name="url_ids" value={id} />
      ))}
    </ConfirmStep>
  );
}
