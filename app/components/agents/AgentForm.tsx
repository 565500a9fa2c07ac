import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { FormEvent } from "react";
import { AGENT_STATUSES, MODE_ENVS } from "@contract/values/apps";
import { IMAGE_MAX_MB } from "@contract/values/files";
import { agentTypeLabel, modeEnvLabel, stripSiteCode, type AgentFormDefaults } from "~/lib/agent-form";
import type { AgentFormValue } from "~/lib/agent-form.schema";
import { useZodValidationOnFirstUse } from "~/lib/use-zod-validation-on-first-use";
import { titleCase } from "~/lib/text";
import { FormField, fieldAria } from "~/components/FormField";
import * as f from "~/styles/forms.css";
import * as ui from "~/styles/ui.css";
import * as s from "./agents.css";
import { AgentLogo } from "./AgentLogo";

/** The form's schema, fetched when the form is first used (see useZodValidationOnFirstUse). */
const loadSchema = () => import("~/lib/agent-form.schema").then((module) => module.AgentForm);

/** The logo types the spec accepts. */
export const LOGO_ACCEPT = ".svg,.png,.img";

interface AgentFormProps {
  mode: "create" | "edit";
  defaultValue: AgentFormDefaults;
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** This page's URL with ?id or ?type, so a refused save comes back to the same form. */
  action: string;
  cancelTo: string;
  /** Users who may not configure the client see the form disabled. */
  readOnly?: boolean;
}

/** Strips every character but letters and digits as the user types (the server strips again). */
function stripAsTyped(event: FormEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const stripped = stripSiteCode(input.value);
  if (stripped === input.value) return;
  const caret = stripSiteCode(input.value.slice(0, input.selectionStart ?? input.value.length)).length;
  input.value = stripped;
  input.setSelectionRange(caret, caret);
}

/**
 * The build-agent form: one multipart form (the logo file travels with it) that works without
 * JavaScript. agent_type and mode_env are shown read-only; the server decides them.
 */
export function AgentFormView({ mode, defaultValue, lastResult, action, cancelTo, readOnly = false }: AgentFormProps) {
  const navigation = useNavigation();
  const onValidate = useZodValidationOnFirstUse("agent-form", loadSchema);
  const [form, fields] = useForm<AgentFormValue>({
    id: "agent-form",
    lastResult,
    defaultValue,
    shouldValidate: "onSubmit",
    onValidate,
  });
  // Disabled while the save posts and while the page it leads to loads: a second press in between
  // posted the form again, refused as a site code in use by the agent the first had just created.
  const busy = navigation.state !== "idle";
  // What the server saw last (an uploaded logo's URL survives a refused save), else the agent's own.
  const replied = lastResult?.initialValue as Record<string, unknown> | undefined;
  const pick = (name: keyof AgentFormDefaults) =>
    typeof replied?.[name] === "string" ? (replied[name] as string) : String(defaultValue[name] ?? "");
  const logoUrl = pick("logo_url");
  const agentType = pick("agent_type");
  const modeEnv = pick("mode_env");

  return (
    <Form method="post" action={action} encType="multipart/form-data" className={s.form} {...getFormProps(form)}>
      {readOnly ? (
        <p className={s.notice}>
          {mode === "edit"
            ? "You can view this agent but not change it."
            : "You may not create agents for this client."}
        </p>
      ) : null}
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className={`${ui.fieldError} ${f.formErrors}`}>
          {form.errors.join("\n")}
        </p>
      ) : null}
      {defaultValue.id ? <input type="hidden" name={fields.id.name} value={defaultValue.id} /> : null}
      <fieldset disabled={readOnly} className={f.formGrid}>
        <legend className={ui.visuallyHidden}>Agent details</legend>

        <FormField label="Name" field={fields.name}>
          <input {...getInputProps(fields.name, { type: "text" })} className={ui.input} autoComplete="off" />
        </FormField>

        <FormField label="Agent Type" field={fields.agent_type}>
          <input
            id={fields.agent_type.id}
            type="text"
            readOnly
            className={`${ui.input} ${f.readOnlyInput}`}
            value={agentTypeLabel(agentType)}
            {...fieldAria(fields.agent_type)}
          />
          <input type="hidden" name={fields.agent_type.name} value={agentType} />
        </FormField>

        <FormField label="Site Code" field={fields.site_code} hint="Letters and digits only; anything else is removed.">
          <input
            {...getInputProps(fields.site_code, { type: "text" })}
            className={ui.input}
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
            onInput={stripAsTyped}
            {...fieldAria(fields.site_code, { hint: true })}
          />
        </FormField>

        <FormField label="Logo" field={fields.logo} hint={`One .svg, .png or .img file, at most ${IMAGE_MAX_MB} MB.`}>
          <div className={f.logoRow}>
            <AgentLogo src={logoUrl} className={f.logoPreview} alt="Current logo" />
            <input
              {...getInputProps(fields.logo, { type: "file" })}
              accept={LOGO_ACCEPT}
              multiple={false}
              className={ui.input}
              {...fieldAria(fields.logo, { hint: true })}
            />
          </div>
          <input type="hidden" name={fields.logo_url.name} value={logoUrl} />
        </FormField>

        <FormField label="URL" field={fields.url}>
          <input
            {...getInputProps(fields.url, { type: "text" })}
            inputMode="url"
            className={ui.input}
            placeholder="https://www.example.edu"
          />
        </FormField>

        <FormField label="Status" field={fields.status}>
          <select {...getSelectProps(fields.status)} className={ui.input}>
            {AGENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {titleCase(status)}
              </option>
            ))}
          </select>
        </FormField>

        <FormField label="Mode" field={fields.mode_env}>
          {/* Read-only: a disabled select posts nothing, so the value travels in a hidden field. */}
          <select
            id={fields.mode_env.id}
            className={`${ui.input} ${f.readOnlyInput}`}
            value={modeEnv}
            disabled
            onChange={() => {}}
            {...fieldAria(fields.mode_env)}
          >
            {[...new Set([...MODE_ENVS, modeEnv])].map((value) => (
              <option key={value} value={value}>
                {modeEnvLabel(value)}
              </option>
            ))}
          </select>
          <input type="hidden" name={fields.mode_env.name} value={modeEnv} />
        </FormField>
      </fieldset>

      <div className={f.actions}>
        <button type="submit" className={ui.button.primary} disabled={readOnly || busy}>
          {mode === "edit" ? "Save" : "Create"}
        </button>
        <Link to={cancelTo} className={ui.button.secondary}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}
