import { useLocation, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useEffect, useRef } from "react";
import type { ClientApp, UserInfo } from "@contract";
import { backofficeUrl } from "~/lib/backoffice";
import { breadcrumbsFor, type Crumb } from "~/lib/breadcrumbs";
import { isUnknownClientPath, selectedClientFor } from "~/lib/clients";
import { isActive, navigationFor, type NavItem } from "~/lib/navigation";
import { userCan } from "~/lib/permissions";
import * as s from "~/styles/shell.css";
import * as ui from "~/styles/ui.css";
import { InAppLink, useInAppLinkClicks } from "./InAppLink";
import { LogoutButton } from "./LogoutButton";
import { closeMenuOnEscape } from "./menus";
import { PageSkeleton } from "./PageSkeleton";

/** The main landmark's id, which the skip link targets. */
const MAIN_ID = "main";

export interface ShellProps {
  user: UserInfo;
  apps: ClientApp[];
  backoffice: { template?: string; origin: string };
  children: ReactNode;
}

/** The authenticated shell: top bar, the navigation variant of the current path, breadcrumbs. */
export function Shell({ user, apps, backoffice, children }: ShellProps) {
  const location = useLocation();
  const navigation = useNavigation();
  const app = selectedClientFor(location.pathname, apps);
  const nav = navigationFor(location.pathname, app, { canManageUsers: userCan(user, "manage_users") });
  const crumbs = breadcrumbsFor(location.pathname, app);

  useEffect(() => {
    // The spec remembers the selection in browser storage; the URL stays the source of truth.
    if (app) window.localStorage.setItem("selectedApp", app.url_code);
    else window.localStorage.removeItem("selectedApp");
  }, [app]);

  // A <details> menu stays open across client-side navigation unless told otherwise. Not on the
  // first render: the menu works before the page hydrates, and one opened meanwhile stays open.
  const profileMenu = useRef<HTMLDetailsElement>(null);
  const hydrated = useRef(false);
  useEffect(() => {
    if (hydrated.current && profileMenu.current) profileMenu.current.open = false;
    hydrated.current = true;
  }, [location.pathname, location.search]);

  const waitingForClients = navigation.state === "loading" && isUnknownClientPath(navigation.location.pathname, apps);
  const followLink = useInAppLinkClicks();

  return (
    <div className={s.layout} onClick={followLink}>
      {/* First in the tab order: a keyboard user goes past the top bar and the navigation (~20 links)
          in one step. A plain fragment link, so it works without JavaScript too. */}
      <a href={`#${MAIN_ID}`} className={s.skipLink}>
        Skip to main content
      </a>
      <header className={s.topBar}>
        {/* A link's name starts with the text it shows (WCAG 2.5.3), then says where it goes. */}
        <InAppLink to="/" className={s.logo}>
          <span className={s.logoMark} aria-hidden="true" />
          Assistant Console<span className={ui.visuallyHidden}>, home: all clients</span>
        </InAppLink>
        {app ? (
          <span className={s.clientName} title={app.client_name} data-testid="selected-client">
            {app.client_name}
          </span>
        ) : null}
        <span className={s.spacer} />
        <details className={s.profileMenu} ref={profileMenu} onKeyDown={closeMenuOnEscape}>
          {/* Named by the text it shows, then what it opens (WCAG 2.5.3: a visitor who speaks the name finds it). */}
          <summary className={s.profileSummary} aria-label={`${user.name || user.email}, profile menu`}>
            {user.name || user.email}
          </summary>
          <div className={s.profilePanel}>
            <div className={s.menuItem} aria-hidden="true">
              {user.email}
            </div>
            {userCan(user, "view_jobs") ? (
              <>
                <InAppLink to="/jobs" className={s.menuItem}>
                  Background jobs
                </InAppLink>
                <InAppLink to="/jobs/queues" className={s.menuItem}>
                  Queue console
                </InAppLink>
              </>
            ) : null}
            <LogoutButton />
          </div>
        </details>
      </header>
      <nav
        className={s.nav}
        aria-label={`${nav.variant === "global" ? "Global" : nav.variant === "client" ? "Client" : "Agent"} navigation`}
        data-variant={nav.variant}
      >
        <div className={s.navLinks}>
          <NavList items={nav.items} app={app} backoffice={backoffice} pathname={location.pathname} />
        </div>
      </nav>
      {/* Focusable by the skip link (not by Tab), so the next Tab goes on from inside the page. */}
      <main id={MAIN_ID} tabIndex={-1} className={s.main}>
        <Breadcrumbs crumbs={crumbs} />
        {waitingForClients ? <PageSkeleton /> : children}
      </main>
    </div>
  );
}

function NavList({
  items,
  app,
  backoffice,
  pathname,
  nested = false,
}: {
  items: NavItem[];
  app: ClientApp | null;
  backoffice: ShellProps["backoffice"];
  pathname: string;
  nested?: boolean;
}) {
  return (
    <ul className={nested ? s.navChildren : s.navList}>
      {items.map((item) => (
        <li key={`${item.label}-${item.to ?? item.external?.page}`}>
          {item.external && app ? (
            <a
              className={s.navLink}
              href={backofficeUrl({
                ...backoffice,
                app,
                page: item.external.page,
                triggerPoint: item.external.triggerPoint,
              })}
              target="_blank"
              rel="noreferrer"
            >
              {item.label} <span aria-hidden="true">↗</span>
            </a>
          ) : (
            <InAppLink
              to={item.to!}
              className={s.navLink}
              aria-current={isActive(item, pathname, true) ? "page" : undefined}
            >
              {item.label}
            </InAppLink>
          )}
          {item.children?.length ? (
            <NavList items={item.children} app={app} backoffice={backoffice} pathname={pathname} nested />
          ) : null}
        </li>
      ))}
    </ul>
  );
}

function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  if (!crumbs.length) return null;
  return (
    <nav aria-label="Breadcrumb" className={s.breadcrumbs}>
      <ol className={s.crumbList}>
        {crumbs.map((crumb, index) => (
          <li key={`${index}-${crumb.label}`} className={s.crumb}>
            {crumb.to ? (
              <InAppLink to={crumb.to}>{crumb.label}</InAppLink>
            ) : (
              // Only the last crumb is the page shown; an earlier one without a link is a step with no page.
              <span aria-current={index === crumbs.length - 1 ? "page" : undefined}>{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
