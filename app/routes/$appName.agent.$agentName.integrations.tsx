import type { MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { IntegrationCards } from "~/components/integrations/IntegrationCards";
import { LinkDrawer } from "~/components/integrations/LinkDrawer";
import * as s from "~/components/integrations/integrations.css";
import { RouteError } from "~/components/RouteError";
import { userCan } from "~/lib/permissions";
import { integrationsAction, integrationsLoader, type IntegrationActionData } from "~/server/integrations.server";
import * as ui from "~/styles/ui.css";
import type { loader as rootLoader } from "~/root";

/** Integrations: the systems a client can link, and `?link=<system>` opens 'Link Your {system}'. */
export const loader = integrationsLoader;
export const action = integrationsAction;

export default function Integrations() {
  const { client, configs, integrations, error, drawer } = useLoaderData<typeof loader>();
  const posted = useActionData<IntegrationActionData>();
  const me = useRouteLoaderData<typeof rootLoader>("root")?.signedIn?.user ?? null;
  const location = useLocation();
  const canConfigure = Boolean(me && userCan(me, "configure", client.id));
  const address = (set: Record<string, string | null>) => {
    const params = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(set)) {
      if (value === null) params.delete(key);
      else params.set(key, value);
    }
    params.delete("index");
    return `${location.pathname}${params.size ? `?${params}` : ""}`;
  };

  return (
    <section>
      <h1>Integrations</h1>
      <p className={s.intro}>
        Link {client.name}'s CRM and learning management systems: captured leads go to the CRM, and the assistant reads the course catalogue from the LMS.
        Keys, tokens and passwords are stored encrypted and never shown again in full.
      </p>
      {error || !configs ? (
        <p role="alert" className={ui.fieldError}>{error}</p>
      ) : (
        <IntegrationCards configs={configs} integrations={integrations} linkTo={(system) => address({ link: system, usecase: null, environment: null })} />
      )}
      {drawer ? (
        <LinkDrawer
          choice={drawer}
          saved={drawer.saved}
          posted={posted}
          canConfigure={canConfigure}
          closeTo={address({ link: null, usecase: null, environment: null })}
          choiceHref={(change) => address(change)}
        />
      ) : null}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `Integrations · ${data.client.name} · Assistant Console` : "Integrations · Assistant Console" },
];

export function ErrorBoundary() {
  return <RouteError />;
}
