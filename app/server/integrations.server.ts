import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import {
  apiRefusalsToFields,
  checkLinkForm,
  closedDrawerAddress,
  drawerChoice,
  postedChoice,
  savedLink,
  settingInputName,
  settingsToEcho,
  withheldSecrets,
} from "~/lib/integrations";
import type { FieldErrors } from "~/lib/required-check";
import { shownInPlace } from "./api/client.server";
import { integrationsApi } from "./api/integrations-api.server";
import { requireAgentOf, requireClient } from "./clients.server";
import { consoleContext } from "./context.server";
import { loadOrError, requireConfigure } from "./permissions.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";
import { textOf } from "./http/form-fields.server";

/*
 * The Integrations screen: cards from the API's catalogue, and the 'Link Your {system}' drawer
 * opened by address (`?link=<system>`, with `usecase` and `environment`), so it works without
 * JavaScript. A save posts the drawer's form; the action checks it itself, then lets the API
 * check it again and store secrets encrypted.
 */

export async function integrationsLoader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const { data, error } = await loadOrError(() => integrationsApi.list(api, app.id));
  const choice = data ? drawerChoice(data.configs, new URL(request.url).searchParams) : null;
  return json({
    client: { id: app.id, name: app.client_name },
    configs: data?.configs ?? null,
    integrations: data?.integrations ?? [],
    error,
    drawer: choice && data ? { ...choice, saved: savedLink(data.integrations, choice) } : null,
  });
}

/** A refused save: what was posted (never a newly typed secret), and the messages for the drawer. */
export interface IntegrationActionData {
  values: { name: string; settings: Record<string, string> };
  /** Secrets typed into the refused form, which the page does not carry back. */
  withheld?: string[];
  errors: FieldErrors;
  formError: string | null;
}

/** A refusal with its status, or an API refusal's answer (its Retry-After passed on). */
const refused = (data: IntegrationActionData, init: number | ResponseInit) =>
  json<IntegrationActionData>(data, typeof init === "number" ? { status: init } : init);

/** Saves the drawer's link; a client user, who may only look, gets 403. */
export async function integrationsAction({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  // Actions run without the parent route's check of the agent in the address: a save under an agent
  // the client does not have (renamed, removed, mistyped) is not found, as its page is.
  if (params.agentName !== undefined) requireAgentOf(app, new URL(request.url).pathname);
  await requireConfigure(api, app.id);
  const form = await readForm(request);
  const text = (name: string) => textOf(form, name).trim();
  const { configs } = await integrationsApi.list(api, app.id);
  // The system, use case and environment come from the posted fields, checked against the catalogue.
  const { choice, error } = postedChoice(configs, {
    external_system: text("external_system"),
    usecase: text("usecase"),
    environment: text("environment"),
  });
  if (!choice) return refused({ values: { name: text("name"), settings: {} }, errors: {}, formError: error }, 400);

  const settings = Object.fromEntries(
    choice.usecase.settings_json.map((field) => [field.name, text(settingInputName(field.name))]),
  );
  const values = { name: text("name"), settings };
  const echoed = { name: values.name, settings: settingsToEcho(choice, settings) };
  const withheld = withheldSecrets(choice, settings);
  const errors = checkLinkForm(choice, values);
  if (Object.keys(errors).length)
    return refused({ values: echoed, withheld, errors, formError: "Fill in the highlighted settings." }, 400);

  try {
    await integrationsApi.save(api, app.id, [
      {
        name: values.name,
        environment: choice.environment,
        usecase: choice.usecase.usecase,
        external_system: choice.system.name,
        settings_json: settings,
      },
    ]);
  } catch (failure) {
    if (!shownInPlace(failure)) throw failure;
    const { errors: fieldErrors, formMessages } = apiRefusalsToFields(failure.fieldErrors);
    const formError =
      formMessages.join(" ") ||
      // The API's refusals are of what was filled in (a format, a length), not of what is missing.
      (Object.keys(fieldErrors).length ? "Check the highlighted settings." : failure.message);
    return refused({ values: echoed, withheld, errors: fieldErrors, formError }, failure.answerInit);
  }
  const url = new URL(request.url);
  return redirectWithToast(closedDrawerAddress(url.pathname, url.search), {
    type: "success",
    description: `${choice.system.title} linked (${choice.environment})`,
  });
}
