import { INTEGRATION_ENVIRONMENTS } from "@contract/values/integrations";
import type { Integration } from "@contract";
import { Drawer } from "~/components/Drawer";
import { formatDateTimeUtc } from "~/lib/dates";
import { ENVIRONMENT_LABELS, type DrawerChoice } from "~/lib/integrations";
import type { IntegrationActionData } from "~/server/integrations.server";
import * as ui from "~/styles/ui.css";
import { ChoiceLinks } from "./ChoiceLinks";
import { LinkForm } from "./LinkForm";
import * as s from "./integrations.css";

/**
 * 'Link Your {system}': the integration guide, the use case (when the system has several) and the
 * environment, both chosen by address (staging by default), then the form with what is saved there.
 */
export function LinkDrawer({
  choice,
  saved,
  posted,
  canConfigure,
  closeTo,
  choiceHref,
}: {
  choice: DrawerChoice;
  saved: Integration | null;
  posted: IntegrationActionData | undefined;
  canConfigure: boolean;
  closeTo: string;
  choiceHref: (change: { usecase?: string; environment?: string }) => string;
}) {
  const { system, usecase, environment } = choice;
  return (
    <Drawer title={`Link Your ${system.title}`} size="medium" closeTo={closeTo}>
      <a href={system.integration_guide} target="_blank" rel="noopener noreferrer" className={s.guide}>
        {system.title} integration guide<span aria-hidden="true"> ↗</span>
        <span className={ui.visuallyHidden}> (opens in a new tab)</span>
      </a>
      {system.integration_settings.length > 1 ? (
        <ChoiceLinks
          label="Use case"
          options={system.integration_settings.map((u) => ({ value: u.usecase, label: u.title }))}
          current={usecase.usecase}
          hrefOf={(value) => choiceHref({ usecase: value })}
        />
      ) : (
        <p className={s.choice}>
          <strong>Use case:</strong> {usecase.title}
        </p>
      )}
      <ChoiceLinks
        label="Environment"
        options={INTEGRATION_ENVIRONMENTS.map((env) => ({ value: env, label: ENVIRONMENT_LABELS[env] }))}
        current={environment}
        hrefOf={(value) => choiceHref({ environment: value })}
      />
      <p className={`${ui.muted} ${s.status}`}>
        {saved
          ? `Linked in ${ENVIRONMENT_LABELS[environment]}; last saved ${formatDateTimeUtc(saved.updated_at)}.`
          : `Not linked in ${ENVIRONMENT_LABELS[environment]} yet.`}
      </p>
      <LinkForm
        // Another use case or environment starts the form afresh from what is saved there.
        key={`${system.name}/${usecase.usecase}/${environment}`}
        choice={choice}
        saved={saved}
        posted={posted}
        canConfigure={canConfigure}
      />
    </Drawer>
  );
}
