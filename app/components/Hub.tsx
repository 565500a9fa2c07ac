import type { MetaFunction } from "@remix-run/node";
import { Link, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import { backofficeUrl } from "~/lib/backoffice";
import { selectedAgentFor, selectedClientFor } from "~/lib/clients";
import { HUBS, hubBasePath, hubTypeOf } from "~/lib/hubs";
import { INVALID_PAGE_TYPE } from "~/lib/messages";
import { agentPageMeta } from "~/lib/page-title";
import * as s from "~/styles/shell.css";
import * as ui from "~/styles/ui.css";

/** A hub page: cards for the sections under it, chosen by the path's last segment. */
export function HubPage() {
  const { pathname } = useLocation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const pageType = hubTypeOf(pathname);
  const hub = HUBS[pageType];
  if (!hub) return <h1>{INVALID_PAGE_TYPE}</h1>;
  const base = hubBasePath(pathname, pageType);
  const app = root?.signedIn ? selectedClientFor(pathname, root.signedIn.apps) : null;
  const agent = selectedAgentFor(pathname, app);
  return (
    <section>
      <h1>{hub.title}</h1>
      <div className={s.hubGrid}>
        {hub.cards.map((card) => {
          const body = (
            <>
              <h2>{card.title}</h2>
              <p className={ui.muted}>{card.description}</p>
            </>
          );
          if (card.slug) {
            return (
              <Link key={card.title} to={`${base}/${card.slug}`} className={s.hubCard}>
                {body}
              </Link>
            );
          }
          if (card.backofficePage && app && root?.signedIn) {
            const href = backofficeUrl({
              ...root.signedIn.backoffice,
              app,
              page: card.backofficePage,
              triggerPoint: agent?.site_code,
            });
            return (
              <a key={card.title} href={href} target="_blank" rel="noreferrer" className={s.hubCard}>
                {body}
              </a>
            );
          }
          return (
            <div key={card.title} className={s.hubCard}>
              {body}
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** A hub page's title: the hub's heading, then the agent's and the client's names. */
export const hubMeta: MetaFunction = (args) =>
  agentPageMeta(args, HUBS[hubTypeOf(args.location.pathname)]?.title ?? INVALID_PAGE_TYPE);
