import { SCAN_MODES } from "@contract/values/knowledge";
import type { Website } from "@contract";
import { StatusChip } from "~/components/StatusChip";
import { cx } from "~/components/editable-table/cells";
import { ROW_ERROR } from "~/components/editable-table/rows";
import { DiscardRowButton, RowsForm, useSaving } from "~/components/editable-table/RowsForm";
import { useRowsState } from "~/components/editable-table/useRowsState";
import type { FieldErrors } from "~/lib/required-check";
import {
  ALLOWED_PATTERN_SUGGESTIONS,
  blankWebsiteRow,
  changedWebsiteFields,
  isBlankNewRow,
  isNewWebsiteRow,
  showsSitemapDiff,
  SITEMAP_DIFF_TEXT,
  pagesRefreshLine,
  sitemapRefreshLine,
  tagOptionsFor,
  WEBSITE_REQUIRED_FIELDS,
  websiteRowNeedsSave,
  type WebsiteFormRow,
} from "~/lib/websites";
import * as ui from "~/styles/ui.css";
import { PatternsCell, SelectCell, TagsCell, UrlCell } from "./cells";
import { DeleteUrlsDialog, RowMenu, useMenuActions } from "./RowMenu";
import * as s from "./WebsitesTable.css";

export const WEBSITE_COLUMNS = [
  "Urls",
  "Scan Mode",
  "Status",
  "Data Tags",
  "Skip Patterns",
  "Allowed Patterns",
  "Added By",
];
export const READ_ONLY_MESSAGE = "You can view this client's websites, but not change them.";

export interface WebsitesTableProps {
  rows: WebsiteFormRow[];
  errors: (FieldErrors | null)[];
  formError: string | null;
  /** The websites as the loader last gave them (status, added by, sitemap differences), by id. */
  live: Record<string, Website>;
  canConfigure: boolean;
  /** What the skip patterns box suggests (skipPatternSuggestions of the loader's year). */
  skipSuggestions: readonly string[];
}

/**
 * The Websites table: one form saving every new or changed row (the shared save bar), each row's
 * address, scan mode, tags and patterns editable in place, and a row menu of actions on the website.
 * Status, Added By and the red dot come from the latest load, so polling never resets what is typed.
 */
/** The table's form, which a confirmation outside it posts again. */
export const WEBSITES_FORM_ID = "websites-form";

export function WebsitesTable({ rows, errors, formError, live, canConfigure, skipSuggestions }: WebsitesTableProps) {
  const table = useRowsState({ rows, errors, required: WEBSITE_REQUIRED_FIELDS, toCheck: websiteRowNeedsSave });
  const saving = useSaving();
  const actions = useMenuActions();
  const dirty = table.items.some(({ row }) => websiteRowNeedsSave(row));
  const readOnly = !canConfigure;

  return (
    <>
      <RowsForm
        id={WEBSITES_FORM_ID}
        label="Websites"
        columns={WEBSITE_COLUMNS}
        lastColumn="Actions"
        hideLastHeader
        dense
        dirty={dirty}
        saving={saving}
        readOnly={readOnly}
        readOnlyMessage={READ_ONLY_MESSAGE}
        formError={formError}
        rowsFlagged={table.anyErrors}
        addLabel="+ Add Website"
        onAdd={() => {
          // Only one blank new row at a time: a second click goes back to the one there is.
          const blank = table.items.find(({ row }) => isBlankNewRow(row));
          return `websites-${blank ? blank.key : table.addRow(blankWebsiteRow())}-url`;
        }}
        validate={table.validate}
        empty={table.items.length === 0}
      >
        {table.items.map(({ key, row }, index) => {
          const n = index + 1;
          const e = table.rowErrors[key] ?? {};
          const changed = changedWebsiteFields(row);
          const isNew = isNewWebsiteRow(row);
          const website = isNew ? undefined : live[row.id];
          const name = (field: string) => `websites[${index}].${field}`;
          const id = (field: string) => `websites-${key}-${field}`;
          return (
            <tr key={key} className={cx(Object.keys(e).length > 0 && s.rowFlagged)} data-row={n}>
              <UrlCell
                id={id("url")}
                name={name("url")}
                label={`Urls, row ${n}`}
                value={row.url}
                errors={[...(e.url ?? []), ...(e[ROW_ERROR] ?? [])]}
                changed={changed.has("url")}
                readOnly={readOnly}
                onChange={(url) => table.update(key, { url })}
                marker={
                  showsSitemapDiff(website) ? (
                    <span
                      className={s.diffDot}
                      role="img"
                      aria-label={SITEMAP_DIFF_TEXT}
                      title={SITEMAP_DIFF_TEXT}
                      data-testid="sitemap-diff"
                    />
                  ) : null
                }
              >
                <input type="hidden" name={name("id")} value={row.id} />
                {row.loaded ? <input type="hidden" name={name("loaded")} value={JSON.stringify(row.loaded)} /> : null}
              </UrlCell>
              <SelectCell
                id={id("site_map")}
                name={name("site_map")}
                label={`Scan Mode, row ${n}`}
                value={row.site_map}
                options={SCAN_MODES}
                placeholder="Select a scan mode"
                errors={e.site_map}
                changed={changed.has("site_map")}
                readOnly={readOnly}
                onChange={(site_map) => table.update(key, { site_map })}
              />
              <td className={s.statusCell}>
                {website ? <StatusChip status={website.status} /> : <span className={ui.muted}>Not saved yet</span>}
                {website?.last_error ? <p className={s.lastError}>Error: {website.last_error}</p> : null}
                {website?.last_refresh ? <RefreshSummary record={website.last_refresh} /> : null}
                {website?.last_sitemap_refresh ? (
                  <p className={`${ui.muted} ${s.refreshSummary}`} data-testid="sitemap-refresh-summary">
                    {sitemapRefreshLine(website.last_sitemap_refresh)}
                  </p>
                ) : null}
              </td>
              <TagsCell
                id={id("tags")}
                name={name("tags")}
                label={`Data Tags, row ${n}`}
                value={row.tags}
                options={tagOptionsFor(row, row.loaded)}
                errors={e.tags}
                changed={changed.has("tags")}
                readOnly={readOnly}
                onChange={(tags) => table.update(key, { tags })}
              />
              <PatternsCell
                id={id("skip_patterns")}
                name={name("skip_patterns")}
                label={`Skip Patterns, row ${n}`}
                value={row.skip_patterns}
                suggestions={skipSuggestions}
                errors={e.skip_patterns}
                changed={changed.has("skip_patterns")}
                readOnly={readOnly}
                onChange={(skip_patterns) => table.update(key, { skip_patterns })}
              />
              <PatternsCell
                id={id("allowed_patterns")}
                name={name("allowed_patterns")}
                label={`Allowed Patterns, row ${n}`}
                value={row.allowed_patterns}
                suggestions={ALLOWED_PATTERN_SUGGESTIONS}
                errors={e.allowed_patterns}
                changed={changed.has("allowed_patterns")}
                readOnly={readOnly}
                onChange={(allowed_patterns) => table.update(key, { allowed_patterns })}
              />
              <td className={s.addedBy}>{website?.user?.name ?? (isNew ? "" : "—")}</td>
              <td className={s.actionsCell}>
                {isNew ? (
                  <DiscardRowButton index={index} rowNumber={n} onDiscard={() => table.discard(key)} />
                ) : (
                  <RowMenu
                    websiteId={Number(row.id)}
                    url={row.loaded?.url ?? row.url}
                    row={n}
                    canConfigure={canConfigure}
                    readsSitemaps={(row.loaded?.site_map ?? row.site_map) !== "few_urls"}
                    actions={actions}
                  />
                )}
              </td>
            </tr>
          );
        })}
      </RowsForm>
      <DeleteUrlsDialog actions={actions} />
    </>
  );
}

/** What the website's last refresh did, once any page of it has come out. */
function RefreshSummary({ record }: { record: NonNullable<Website["last_refresh"]> }) {
  const line = pagesRefreshLine(record);
  if (!line) return null;
  return (
    <p className={`${ui.muted} ${s.refreshSummary}`} data-testid="refresh-summary">
      {line}
    </p>
  );
}
