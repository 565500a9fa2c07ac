import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { checkSettings, drawerChoice, savedLink, settingInputName } from "~/lib/integrations";
import type { FieldErrors } from "~/lib/required-check";
import { ApiError } from "./api/client.server";
import { integrationsApi } from "./api/integrations-api.server";
import { requireClient } from "./clients.server";
import { consoleContext } from "./context.server";
import { loadOrError, requireConfigure } from "./permissions.server";
import { redirectWithToast } from "./toast.server";

/*
 * The Integrations screen: cards from the API's catalogue, and the 'Link Your {system}' drawer
 * opened by address (`?link=<system>`, with `usecase` and `environment`), so it works without
 * JavaScript. A save posts the drawer's form; the action checks required settings itself, then
 * lets the API check them again and store secrets encrypted.
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
    drawer: choice ? { ...choice, saved: savedLink(data!.integrations, choice) } : null,
  });
}

export interface IntegrationActionData {
  values: { name: string; settings: Record<string, string> };
  errors: FieldErrors;
  formError: string | null;
}

/** The page's address without the drawer. */
function pageAddress(url: URL) {
  const next = new URL(url);
  for (const key of ["link", "usecase", "environment", "index"]) next.searchParams.delete(key);
  return `${next.pathname}${next.search}`;
}

/** Saves the drawer's link (a client user, who may only look, gets 403). */
export async function integrationsAction({ request, context, params }: ActionFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  await requireConfigure(api, app.id);
  const url = new URL(request.url);
  const form = await request.formData();
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const { configs } = await integrationsApi.list(api, app.id);
  // What is saved comes from the posted fields, read against the catalogue (never the browser's word for it).
  const choice = drawerChoice(configs, new URLSearchParams({ link: text("external_system"), usecase: text("usecase"), environment: text("environment") }));
  if (!choice) return json<IntegrationActionData>({ values: { name: "", settings: {} }, errors: {}, formError: "Choose a system to link" }, { status: 400 });
  const settings = Object.fromEntries(choice.usecase.settings_json.map((field) => [field.name, text(settingInputName(field.name)).trim()]));
  const values = { name: text("name").trim(), settings };
  const errors = checkSettings(choice, settings);
  if (values.name.length > 200) errors.name = ["Names are at most 200 characters"];
  if (Object.keys(errors).length) return json<IntegrationActionData>({ values, errors, formError: "Fill in the highlighted settings." }, { status: 400 });
  try {
    await integrationsApi.save(api, app.id, [{
      name: values.name, environment: choice.environment, usecase: choice.usecase.usecase, external_system: choice.system.name, settings_json: settings,
    }]);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    // The API keys its messages `integrations.0.settings_json.<setting>`; anything else is the form's.
    const apiErrors: FieldErrors = {};
    const loose: string[] = [];
    for (const [path, messages] of Object.entries(error.fieldErrors)) {
      const setting = /^integrations\.0\.settings_json\.(.+)$/.exec(path)?.[1];
      const field = setting ?? (path === "integrations.0.name" ? "name" : null);
      if (field) apiErrors[field] = messages;
      else loose.push(...messages);
    }
    return json<IntegrationActionData>({ values, errors: apiErrors, formError: loose.join(" ") || (Object.keys(apiErrors).length ? null : error.message) }, { status: error.status });
  }
  return redirectWithToast(pageAddress(url), { type: "success", description: `${choice.system.title} linked (${choice.environment})` });
}
