import { Link } from "@remix-run/react";
import { INTEGRATION_GROUP_TITLES, INTEGRATION_GROUPS } from "@contract/values/integrations";
import type { Integration } from "@contract";
import { environmentLabel, linkedEnvironments, type IntegrationConfigs } from "~/lib/integrations";
import * as ui from "~/styles/ui.css";
import * as s from "./integrations.css";

/**
 * The catalogue's systems as cards, grouped CRM ('Agent System Integration') and LMS ('Learning
 * Management System'). Each card is a link that opens the system's drawer by address.
 */
export function IntegrationCards({
  configs,
  integrations,
  linkTo,
}: {
  configs: IntegrationConfigs;
  integrations: Integration[];
  linkTo: (system: string) => string;
}) {
  return (
    <>
      {INTEGRATION_GROUPS.map((group) => (
        <section key={group} className={s.group} aria-labelledby={`integration-group-${group}`}>
          <h2 id={`integration-group-${group}`}>{INTEGRATION_GROUP_TITLES[group]}</h2>
          <ul className={s.cards}>
            {configs[group].map((system) => {
              const environments = linkedEnvironments(integrations, system.name);
              return (
                <li key={system.name}>
                  <Link to={linkTo(system.name)} className={s.card} preventScrollReset>
                    {/* The card is named by what it shows (WCAG 2.5.3), read as "Link Your HubSpot … Linked · Staging";
                        the logo beside the system's name says nothing more. */}
                    <img src={system.icon} alt="" className={s.icon} width={40} height={40} />
                    <span className={s.cardTitle}>
                      <span className={ui.visuallyHidden}>Link Your </span>
                      {system.title}
                    </span>
                    <span className={s.usecases}>{system.integration_settings.map((u) => u.title).join(" · ")}</span>
                    <span className={s.linked}>
                      {environments.length ? (
                        environments.map((env) => (
                          <span key={env} className={ui.chip.success}>
                            Linked · {environmentLabel(env)}
                          </span>
                        ))
                      ) : (
                        <span className={ui.chip.default}>Not linked</span>
                      )}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </>
  );
}
