import { Dialog } from "~/components/Dialog";
import { Link, useFetcher, useRevalidator } from "@remix-run/react";
import { ConfirmStep } from "~/components/ConfirmStep";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import {
  deleteUrlsQuestion,
  MENU_ACTIONS,
  menuIntent,
  RELOAD_AFTER_ACTION_MS,
  withListSearch,
  type MenuAction,
} from "~/lib/websites";
import { closeMenuOf, closeMenuOnEscape } from "~/components/menus";
import { useListSearch } from "./useListSearch";
import * as ui from "~/styles/ui.css";
import * as s from "./WebsitesTable.css";

/**
 * Row-menu actions with JavaScript: posted by a fetcher (what is typed in the table stays), the
 * action redirects back with a toast, and the view reloads once more after the spec's 500 ms.
 */
export function useMenuActions() {
  const fetcher = useFetcher();
  const { revalidate } = useRevalidator();
  const revalidateRef = useRef(revalidate);
  revalidateRef.current = revalidate;
  const [pendingDelete, setPendingDelete] = useState<{ websiteId: number; url: string } | null>(null);
  const wasBusy = useRef(false);

  useEffect(() => {
    if (fetcher.state !== "idle") {
      wasBusy.current = true;
      return;
    }
    if (!wasBusy.current) return;
    wasBusy.current = false;
    const timer = setTimeout(() => revalidateRef.current(), RELOAD_AFTER_ACTION_MS);
    return () => clearTimeout(timer);
  }, [fetcher.state]);

  const run = (action: MenuAction, websiteId: number, confirmed = false) =>
    fetcher.submit({ intent: menuIntent(action, websiteId, confirmed) }, { method: "post" });

  return {
    busy: fetcher.state !== "idle",
    run,
    pendingDelete,
    askDelete: (websiteId: number, url: string) => setPendingDelete({ websiteId, url }),
    cancelDelete: () => setPendingDelete(null),
    confirmDelete: () => {
      if (pendingDelete) run("delete-urls", pendingDelete.websiteId, true);
      setPendingDelete(null);
    },
  };
}

export type MenuActions = ReturnType<typeof useMenuActions>;

const ORDER: MenuAction[] = ["index-all", "force-index", "skip-all", "delete-urls", "refresh-sitemap"];

/**
 * The row menu: a `<details>` of submit buttons of the table's form, so each works without
 * JavaScript (Delete URLs then answers with the server's confirm step). View Links stays for
 * users who may only look; the other entries are disabled for them.
 */
export function RowMenu({
  websiteId,
  url,
  row,
  canConfigure,
  readsSitemaps,
  actions,
}: {
  websiteId: number;
  url: string;
  row: number;
  canConfigure: boolean;
  /** False for a website of given URLs (few_urls): it has no sitemap to refresh. */
  readsSitemaps: boolean;
  actions: MenuActions;
}) {
  const close = (event: MouseEvent<HTMLElement>) => closeMenuOf(event.currentTarget);
  const listSearch = useListSearch();
  return (
    <details className={s.menu} onKeyDown={closeMenuOnEscape}>
      <summary className={`${ui.button.secondary} ${s.menuSummary}`} aria-label={`Actions for ${url || `row ${row}`}`}>
        ⋯
      </summary>
      <ul className={s.menuList}>
        <li>
          <Link to={withListSearch(String(websiteId), listSearch)} className={s.menuItem} onClick={close}>
            View Links
          </Link>
        </li>
        {ORDER.filter((action) => readsSitemaps || action !== "refresh-sitemap").map((action) => (
          <li key={action}>
            <button
              type="submit"
              name="intent"
              value={menuIntent(action, websiteId)}
              formNoValidate
              className={s.menuItem}
              disabled={!canConfigure || actions.busy}
              onClick={(event) => {
                event.preventDefault();
                close(event);
                if (action === "delete-urls") actions.askDelete(websiteId, url);
                else actions.run(action, websiteId);
              }}
            >
              {MENU_ACTIONS[action].label}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The Delete URLs question with JavaScript: a dialog over the page. */
export function DeleteUrlsDialog({ actions }: { actions: MenuActions }) {
  const pending = actions.pendingDelete;
  if (!pending) return null;
  return (
    // Described by its question, which a screen reader then reads with the dialog's name as it opens.
    <Dialog aria-label="Delete URLs" aria-describedby="delete-urls-question" onDismiss={actions.cancelDelete}>
      <p id="delete-urls-question">{deleteUrlsQuestion(pending.url)}</p>
      <div className={ui.toolbar}>
        <button type="button" className={ui.button.secondary} onClick={actions.cancelDelete}>
          Cancel
        </button>
        <button type="button" className={ui.button.danger} onClick={actions.confirmDelete}>
          Delete URLs
        </button>
      </div>
    </Dialog>
  );
}

/** The same question without JavaScript: the action's answer renders it above the table. */
export function DeleteUrlsConfirm({ websiteId, url, cancelTo }: { websiteId: number; url: string; cancelTo: string }) {
  return (
    <ConfirmStep
      label="Delete URLs"
      question={deleteUrlsQuestion(url)}
      confirm="Delete URLs"
      intent={menuIntent("delete-urls", websiteId, true)}
      cancelTo={cancelTo}
      focusKey={websiteId}
    />
  );
}
