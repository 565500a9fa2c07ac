import { Form, Link, useNavigation } from "@remix-run/react";
import { INTEGRATION_ENVIRONMENTS, type Integration } from "../../../contract";
import { Drawer } from "~/components/Drawer";
import { FormField } from "~/components/FormField";
import { settingInputName, type DrawerChoice } from "~/lib/integrations";
import type { IntegrationActionData } from "~/server/integrations.server";
import * as ui from "~/styles/ui.css";
import * as s from "./integrations.css";

export const INTEGRATIONS_READ_ONLY_MESSAGE = "You can view this client's integrations, but not change them.";

/** Links that choose one of a few values by address, the chosen one marked current. */
function ChoiceLinks({ label, options, current, hrefOf }: { label: string; options: { value: string; label: string }[]; current: string; hrefOf: (value: string) => string }) {
  return (
    <nav aria-label={label}>
      <p className={s.choiceLabel}>{label}</p>
      <ul className={s.choices}>
        {options.map((option) => (
          <li key={option.value}>
            <Link
              to={hrefOf(option.value)}
              replace
              preventScrollReset
              aria-current={option.value === current ? "true" : undefined}
              className={option.value === current ? ui.button.primary : ui.button.secondary}
            >
              {option.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * 'Link Your {system}': the integration guide, the use case and environment (staging by default),
 * a name and the use case's settings. Secrets show only their mask; posting the mask back keeps
 * the stored secret.
 */
export function LinkDrawer({ choice, saved, posted, canConfigure, closeTo, choiceHref }: {
  choice: DrawerChoice;
  saved: Integration | null;
  posted: IntegrationActionData | undefined;
  canConfigure: boolean;
  closeTo: string;
  choiceHref: (change: { usecase?: string; environment?: string }) => string;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
  const { system, usecase, environment } = choice;
  const valueOf = (setting: string) => posted?.values.settings[setting] ?? saved?.settings_json[setting] ?? "";
  const errors = posted?.errors ?? {};
  return (
    <Drawer title={`Link Your ${system.title}`} size="medium" closeTo={closeTo}>
      <a href={system.integration_guide} target="_blank" rel="noopener noreferrer" className={s.guide}>
        {system.title} integration guide<span aria-hidden="true"> ↗</span><span className={ui.visuallyHidden}> (opens in a new tab)</span>
      </a>
      {system.integration_settings.length > 1 ? (
        <ChoiceLinks
          label="Use case"
          options={system.integration_settings.map((u) => ({ value: u.usecase, label: u.title }))}
          current={usecase.usecase}
          hrefOf={(value) => choiceHref({ usecase: value })}
        />
      ) : (
        <p><strong>Use case:</strong> {usecase.title}</p>
      )}
      <ChoiceLinks
        label="Environment"
        options={INTEGRATION_ENVIRONMENTS.map((env) => ({ value: env, label: env === "staging" ? "Staging" : "Production" }))}
        current={environment}
        hrefOf={(value) => choiceHref({ environment: value })}
      />
      <p className={ui.muted}>
        {saved ? `Linked in ${environment}; last saved ${new Date(saved.updated_at).toLocaleString("en-US")}.` : `Not linked in ${environment} yet.`}
      </p>
      <Form method="post" className={s.form} noValidate preventScrollReset aria-label={`Link Your ${system.title}`}
        // A new system, use case or environment starts the form afresh from what is saved there.
        key={`${system.name}/${usecase.usecase}/${environment}`}>
        <input type="hidden" name="external_system" value={system.name} />
        <input type="hidden" name="usecase" value={usecase.usecase} />
        <input type="hidden" name="environment" value={environment} />
        {posted?.formError ? <p role="alert" className={ui.fieldError}>{posted.formError}</p> : null}
        <FormField label="Name" id="integration-name" errorId="integration-name-error" errors={errors.name} hint={`Shown in the console; ${system.title} when blank.`}>
          <input
            id="integration-name" name="name" className={ui.input} defaultValue={posted?.values.name ?? saved?.name ?? ""} readOnly={!canConfigure}
            placeholder={system.title} aria-describedby={errors.name ? "integration-name-hint integration-name-error" : "integration-name-hint"} maxLength={200}
            {...(errors.name ? { "aria-invalid": true } : {})}
          />
        </FormField>
        {usecase.settings_json.map((field) => {
          const id = `setting-${field.name}`;
          const described = [field.info ? `${id}-hint` : "", errors[field.name] ? `${id}-error` : ""].filter(Boolean).join(" ");
          return (
            <FormField key={field.name} label={`${field.title}${field.required ? " *" : ""}`} id={id} errorId={`${id}-error`} errors={errors[field.name]} hint={field.info || undefined}>
              <input
                id={id}
                name={settingInputName(field.name)}
                type={field.secret ? "password" : "text"}
                autoComplete={field.secret ? "off" : undefined}
                className={ui.input}
                defaultValue={valueOf(field.name)}
                placeholder={field.placeholder}
                readOnly={!canConfigure}
                aria-required={field.required}
                {...(described ? { "aria-describedby": described } : {})}
                {...(errors[field.name] ? { "aria-invalid": true } : {})}
              />
            </FormField>
          );
        })}
        <div className={ui.toolbar}>
          <button type="submit" className={ui.button.primary} disabled={!canConfigure || saving}>{saving ? "Saving…" : "Save"}</button>
          <Link to={closeTo} className={ui.button.secondary} preventScrollReset>Cancel</Link>
          {!canConfigure ? <span className={ui.muted}>{INTEGRATIONS_READ_ONLY_MESSAGE}</span> : null}
        </div>
      </Form>
    </Drawer>
  );
}
