import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type SubmissionResult,
} from "@conform-to/react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { COPY_MARKETS, COUNTRIES, MODE_ENV_LABELS, MODE_ENVS } from "@contract/values/apps";
import { IMAGE_MAX_MB } from "@contract/values/files";
import { clientTypeForCopyMarket, deriveUrlCode, marketFor, type ClientFormDefaults } from "~/lib/client-form";
import type { ClientFormValue } from "~/lib/client-form.schema";
import { useZodValidationOnFirstUse } from "~/lib/use-zod-validation-on-first-use";
import { FormField, fieldAria } from "~/components/FormField";
import { useFocusKeptAcrossRemount } from "~/components/useFocusKeptAcrossRemount";
import * as f from "~/styles/forms.css";
import * as ui from "~/styles/ui.css";
import * as s from "./clients.css";
import { PlaceholderLogo } from "./PlaceholderLogo";

/** The form's schema, fetched when the form is first used (see useZodValidationOnFirstUse). */
const loadSchema = () => import("~/lib/client-form.schema").then((module) => module.ClientForm);

/** The logo types the spec accepts. */
export const LOGO_ACCEPT = ".svg,.png,.img";

interface ClientFormProps {
  mode: "create" | "edit";
  defaultValue: ClientFormDefaults;
  lastResult: SubmissionResult<string[]> | null | undefined;
  /** Users who may not configure the client see the form disabled, without Save. */
  readOnly?: boolean;
  cancelTo: string;
}

type Linked = Pick<
  ClientFormDefaults,
  "primary_website" | "url_code" | "country" | "copy_market" | "client_type" | "logo_url"
>;

const LINKED = ["primary_website", "url_code", "country", "copy_market", "client_type", "logo_url"] as const;

/** The linked fields from the form's start values or from the server's last reply (what it saw, computed fields included). */
function linkedFrom(source: Record<string, unknown>): Linked {
  const linked = {} as Linked;
  for (const name of LINKED) linked[name] = typeof source[name] === "string" ? (source[name] as string) : "";
  return linked;
}

const followsWebsite = (linked: Linked) =>
  linked.url_code === "" || linked.url_code === deriveUrlCode(linked.primary_website);

/**
 * The onboard / edit client form: one multipart form (the logo file travels with it) that works
 * without JavaScript. With it, url_code follows primary_website as typed until the user edits it,
 * and market and client_type show what the server will compute.
 */
export function ClientFormView({ mode, defaultValue, lastResult, readOnly = false, cancelTo }: ClientFormProps) {
  const navigation = useNavigation();
  const editing = mode === "edit";
  const onValidate = useZodValidationOnFirstUse("client-form", loadSchema);
  const [form, fields] = useForm<ClientFormValue>({
    id: "client-form",
    lastResult,
    defaultValue,
    shouldValidate: "onSubmit",
    onValidate,
  });

  const [linked, setLinked] = useState(() => linkedFrom(lastResult?.initialValue ?? defaultValue));
  const [urlCodeEdited, setUrlCodeEdited] = useState(() => !followsWebsite(linked));
  useEffect(() => {
    const replied = lastResult?.initialValue;
    if (!replied) return;
    const next = linkedFrom(replied);
    setLinked(next);
    setUrlCodeEdited(!followsWebsite(next));
  }, [lastResult]);

  const change = (name: keyof Linked, value: string) => setLinked((current) => ({ ...current, [name]: value }));
  const market = marketFor(linked.country, linked.url_code);
  const clientType = clientTypeForCopyMarket(linked.copy_market) || linked.client_type;
  const submitting = navigation.state === "submitting";
  const submitButton = useFocusKeptAcrossRemount();

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)}>
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className={`${ui.fieldError} ${f.formErrors}`}>
          {form.errors[0]}
        </p>
      ) : null}
      <fieldset disabled={readOnly} className={f.formGrid}>
        <legend className={ui.visuallyHidden}>Client details</legend>

        <FormField label="Client Name" field={fields.client_name}>
          <input
            {...getInputProps(fields.client_name, { type: "text" })}
            className={ui.input}
            autoComplete="organization"
          />
        </FormField>

        <FormField label="Primary Website" field={fields.primary_website}>
          <input
            id={fields.primary_website.id}
            name={fields.primary_website.name}
            type="text"
            inputMode="url"
            className={ui.input}
            value={linked.primary_website}
            placeholder="https://www.example.edu"
            {...fieldAria(fields.primary_website)}
            onChange={(event) => {
              const value = event.currentTarget.value;
              setLinked((current) => ({
                ...current,
                primary_website: value,
                url_code: editing || urlCodeEdited ? current.url_code : deriveUrlCode(value),
              }));
            }}
          />
        </FormField>

        <FormField label="Logo" field={fields.logo} hint={`An .svg, .png or .img file, at most ${IMAGE_MAX_MB} MB.`}>
          <div className={f.logoRow}>
            {linked.logo_url ? (
              <img
                src={linked.logo_url}
                alt="Current logo"
                className={f.logoPreview}
                width={48}
                height={48}
                data-testid="logo-preview"
              />
            ) : (
              <PlaceholderLogo className={f.logoPreview} />
            )}
            <input
              {...getInputProps(fields.logo, { type: "file" })}
              accept={LOGO_ACCEPT}
              className={`${ui.input} ${s.fileInput}`}
              {...fieldAria(fields.logo, { hint: true })}
            />
          </div>
          <input type="hidden" name={fields.logo_url.name} value={linked.logo_url} />
        </FormField>

        <FormField label="Country" field={fields.country}>
          <select
            id={fields.country.id}
            name={editing ? undefined : fields.country.name}
            className={ui.input}
            value={linked.country}
            disabled={editing}
            {...fieldAria(fields.country)}
            onChange={(event) => change("country", event.currentTarget.value)}
          >
            <option value="">Select</option>
            {COUNTRIES.map((country) => (
              <option key={country.value} value={country.value}>
                {country.label}
              </option>
            ))}
          </select>
          {/* A disabled select posts nothing; the country of an existing client is fixed. */}
          {editing ? <input type="hidden" name={fields.country.name} value={linked.country} /> : null}
        </FormField>

        <FormField label="Market" field={fields.market} hint="Lower-cased country, underscore, url_code.">
          <input
            id={fields.market.id}
            name={fields.market.name}
            type="text"
            readOnly
            className={`${ui.input} ${f.readOnlyInput}`}
            value={market}
            {...fieldAria(fields.market, { hint: true })}
          />
        </FormField>

        <FormField label="Project URL" field={fields.project_url}>
          <input {...getInputProps(fields.project_url, { type: "text" })} inputMode="url" className={ui.input} />
        </FormField>

        <FormField
          label="URL Code"
          field={fields.url_code}
          hint={editing ? "Fixed once the client exists." : "Derived from the primary website until you change it."}
        >
          <input
            id={fields.url_code.id}
            name={fields.url_code.name}
            type="text"
            readOnly={editing}
            className={editing ? `${ui.input} ${f.readOnlyInput}` : ui.input}
            value={linked.url_code}
            autoCapitalize="none"
            spellCheck={false}
            {...fieldAria(fields.url_code, { hint: true })}
            onChange={(event) => {
              const value = event.currentTarget.value;
              change("url_code", value);
              setUrlCodeEdited(value !== "");
            }}
          />
        </FormField>

        <FormField label="Copy Market" field={fields.copy_market}>
          <select
            id={fields.copy_market.id}
            name={fields.copy_market.name}
            className={ui.input}
            value={linked.copy_market}
            {...fieldAria(fields.copy_market)}
            onChange={(event) => change("copy_market", event.currentTarget.value)}
          >
            <option value="">Select</option>
            {COPY_MARKETS.map((template) => (
              <option key={template.value} value={template.value}>
                {template.label}
              </option>
            ))}
          </select>
        </FormField>

        <FormField
          label="Client Type"
          field={fields.client_type}
          hint="Set by the copy market: Higher Edu templates are higher_ed, others ecommerce."
        >
          <input
            id={fields.client_type.id}
            name={fields.client_type.name}
            type="text"
            readOnly
            className={`${ui.input} ${f.readOnlyInput}`}
            value={clientType}
            {...fieldAria(fields.client_type, { hint: true })}
          />
        </FormField>

        <FormField label="Trigger Points" field={fields.trigger_points} hint="Separate trigger points with commas.">
          <input
            {...getInputProps(fields.trigger_points, { type: "text" })}
            className={ui.input}
            {...fieldAria(fields.trigger_points, { hint: true })}
          />
        </FormField>

        <FormField label="Mode" field={fields.mode_env}>
          <select {...getSelectProps(fields.mode_env)} className={ui.input}>
            {MODE_ENVS.map((mode) => (
              <option key={mode} value={mode}>
                {MODE_ENV_LABELS[mode]}
              </option>
            ))}
          </select>
        </FormField>

        <FormField label="InSync Prod App ID" field={fields.insync_prod_app_id}>
          <input {...getInputProps(fields.insync_prod_app_id, { type: "text" })} className={ui.input} />
        </FormField>

        <div className={s.checkboxField}>
          <input {...getInputProps(fields.onboard_existing_client, { type: "checkbox" })} />
          <label htmlFor={fields.onboard_existing_client.id}>Onboard existing client</label>
        </div>

        <FormField label="Notes" field={fields.notes} className={s.wide}>
          <textarea {...getTextareaProps(fields.notes)} rows={3} className={ui.input} />
        </FormField>
      </fieldset>

      <div className={f.actions}>
        {readOnly ? null : (
          <button
            ref={submitButton}
            type="submit"
            className={ui.button.primary}
            // Held (aria-disabled) rather than disabled while the form is on its way: a disabled
            // button drops the keyboard focus to the page's body, and the saved form starts afresh.
            aria-disabled={submitting || undefined}
            onClick={submitting ? (event) => event.preventDefault() : undefined}
          >
            {editing ? "Save" : "Create"}
          </button>
        )}
        <Link to={cancelTo} className={ui.button.secondary}>
          Cancel
        </Link>
      </div>
    </Form>
  );
}
