import type { MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { IntegrationCards } from "~/components/integrations/IntegrationCards";
import { LinkDrawer } from "~/components/integrations/LinkDrawer";
import * as s from "~/components/integrations/integrations.css";
import { RouteError } from "~/components/RouteError";
import { addressWith, closedDrawerAddress } from "~/lib/integrations";
import { integrationsAction, integrationsLoader, type IntegrationActionData } from "~/server/integrations.server";
import * as ui from "~/styles/ui.css";
import { useCanConfigure } from "~/lib/user";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** Integrations: the systems a client can link, by group; `?link=<system>` opens 'Link Your {system}'. */
export const loader = integrationsLoader;
export const action = integrationsAction;

export default function Integrations() {
  const { client, configs, integrations, error, drawer } = useLoaderData<typeof loader>();
  const posted = useActionData<IntegrationActionData>();
  const { pathname, search } = useLocation();
  const canConfigure = useCanConfigure(client.id);

  return (
    <section>
      <h1>Integrations</h1>
      <p className={s.intro}>
        Link {client.name}'s CRM and learning management systems: captured leads go to the CRM, and the assistant reads
        the course catalogue from the LMS. Keys, tokens and passwords are stored encrypted and never shown again in
        full.
      </p>
      {error || !configs ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : (
        <IntegrationCards
          configs={configs}
          integrations={integrations}
          linkTo={(system) => addressWith(pathname, search, { link: system, usecase: null, environment: null })}
        />
      )}
      {drawer ? (
        <LinkDrawer
          choice={drawer}
          saved={drawer.saved}
          posted={posted}
          canConfigure={canConfigure}
          closeTo={closedDrawerAddress(pathname, search)}
          choiceHref={(change) => addressWith(pathname, search, change)}
        />
      ) : null}
    </section>
  );
}

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, "Integrations");

export function ErrorBoundary() {
  return <RouteError />;
}
