import { Link } from "@remix-run/react";
import type { ClientTab } from "./client-tabs";
import * as s from "./clients.css";

/** Tabs as links (`?type=…`, keeping the search), so they work without JavaScript and paste as links. */
export function ClientTypeTabs({ tabs, selected, search }: { tabs: ClientTab[]; selected: string; search: string }) {
  const hrefOf = (key: string) => `?${new URLSearchParams({ type: key, ...(search ? { search } : {}) })}`;
  return (
    <nav aria-label="Client types">
      <ul className={s.tabs}>
        {tabs.map((tab) => (
          <li key={tab.key}>
            <Link
              to={hrefOf(tab.key)}
              className={s.tab}
              aria-current={tab.key === selected ? "page" : undefined}
              data-type={tab.key}
            >
              {tab.label} <span className={s.tabCount}>({tab.count})</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
