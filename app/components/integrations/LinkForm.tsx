import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Integration, SettingField } from "@contract";
import { FormField, fieldAria } from "~/components/FormField";
import { SaveBar } from "~/components/SaveBar";
import { useFocusFirstProblemOnAnswer } from "~/components/useFocusFirstProblem";
import {
  differsFromBaseline,
  INTEGRATIONS_READ_ONLY_MESSAGE,
  linkFormBaseline,
  NAME_MAX_LENGTH,
  settingInputName,
  TYPE_SECRET_AGAIN,
  type DrawerChoice,
} from "~/lib/integrations";
import type { FieldErrors } from "~/lib/required-check";
import type { IntegrationActionData } from "~/server/integrations.server";
import * as ui from "~/styles/ui.css";
import * as s from "./integrations.css";

/** Whether the form's fields differ from what was loaded, checked as the user types (and at once, after a refused save). */
function useDirty(baseline: Record<string, string>) {
  const formRef = useRef<HTMLFormElement>(null);
  const [dirty, setDirty] = useState(false);
  const check = useCallback(() => {
    const form = formRef.current;
    if (!form) return;
    const current = Object.fromEntries(
      Object.keys(baseline).map((name) => {
        const element = form.elements.namedItem(name);
        return [name, element instanceof HTMLInputElement ? element.value : ""];
      }),
    );
    setDirty(differsFromBaseline(baseline, current));
  }, [baseline]);
  useEffect(check, [check]);
  return { formRef, dirty, check };
}

function SettingInput({
  field,
  value,
  errors,
  withheld,
  readOnly,
}: {
  field: SettingField;
  value: string;
  errors: string[] | undefined;
  /** A secret typed into a refused save: the page came back without it. */
  withheld: boolean;
  readOnly: boolean;
}) {
  const state = { id: `setting-${field.name}`, errors };
  const inputRef = useRef<HTMLInputElement>(null);
  // With JavaScript the refused form keeps what was typed; without, the field came back empty and says so.
  const [emptied, setEmptied] = useState(withheld);
  useEffect(() => setEmptied(withheld && !inputRef.current?.value), [withheld]);
  const hint = [field.info, emptied ? TYPE_SECRET_AGAIN : ""].filter(Boolean).join(" ");
  return (
    <FormField label={`${field.title}${field.required ? " *" : ""}`} field={state} hint={hint || undefined}>
      <input
        ref={inputRef}
        id={state.id}
        name={settingInputName(field.name)}
        // A secret shows only its mask: posting the mask back keeps the stored secret.
        type={field.secret ? "password" : "text"}
        autoComplete={field.secret ? "off" : undefined}
        className={ui.input}
        defaultValue={value}
        placeholder={field.placeholder || undefined}
        readOnly={readOnly}
        aria-required={field.required}
        {...fieldAria(state, { hint: Boolean(hint) })}
      />
    </FormField>
  );
}

/**
 * The drawer's form: a plain POST to this very address (the drawer stays open on a refusal), the
 * save bar first so Enter saves, then the name and the use case's settings. The system, use case
 * and environment ride along as hidden fields, which the action checks against the catalogue.
 */
export function LinkForm({
  choice,
  saved,
  posted,
  canConfigure,
}: {
  choice: DrawerChoice;
  saved: Integration | null;
  posted: IntegrationActionData | undefined;
  canConfigure: boolean;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  const address = `${location.pathname}${location.search}`;
  const saving =
    navigation.state === "submitting" &&
    navigation.formMethod?.toUpperCase() === "POST" &&
    navigation.formAction?.split("?")[0] === location.pathname;
  const { system, usecase, environment } = choice;
  const baseline = useMemo(() => linkFormBaseline(choice, saved), [choice, saved]);
  const { formRef, dirty, check } = useDirty(baseline);
  useFocusFirstProblemOnAnswer(formRef);
  const errors: FieldErrors = posted?.errors ?? {};
  const nameState = { id: "integration-name", errors: errors.name };
  const valueOf = (setting: string) => posted?.values.settings[setting] ?? saved?.settings_json[setting] ?? "";

  return (
    <Form
      ref={formRef}
      method="post"
      action={address}
      preventScrollReset
      noValidate
      aria-label={`Link Your ${system.title}`}
      className={s.form}
      onChange={check}
    >
      <SaveBar
        dirty={dirty}
        saving={saving}
        disabled={!canConfigure}
        message={canConfigure ? (posted?.formError ?? null) : INTEGRATIONS_READ_ONLY_MESSAGE}
        messageTone={canConfigure && posted?.formError ? "error" : "idle"}
      />
      <input type="hidden" name="external_system" value={system.name} />
      <input type="hidden" name="usecase" value={usecase.usecase} />
      <input type="hidden" name="environment" value={environment} />
      <p className={`${ui.muted} ${s.requiredNote}`}>Fields marked * are required.</p>
      <FormField label="Name" field={nameState} hint={`A label for this link; ${system.title} when blank.`}>
        <input
          id={nameState.id}
          name="name"
          className={ui.input}
          defaultValue={posted?.values.name ?? saved?.name ?? ""}
          placeholder={system.title}
          maxLength={NAME_MAX_LENGTH}
          readOnly={!canConfigure}
          {...fieldAria(nameState, { hint: true })}
        />
      </FormField>
      {usecase.settings_json.map((field) => (
        <SettingInput
          key={field.name}
          field={field}
          value={valueOf(field.name)}
          errors={errors[field.name]}
          withheld={posted?.withheld?.includes(field.name) ?? false}
          readOnly={!canConfigure}
        />
      ))}
    </Form>
  );
}
