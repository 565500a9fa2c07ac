import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import { siteCodeInUse, type Agent, type AgentInput, type ClientApp } from "@contract";
import { agentTypeNotOffered, agentTypesFor } from "@contract/values/apps";
import {
  agentFormDefaults,
  isShowableLogoUrl,
  newAgentDefaults,
  newAgentType,
  stripSiteCode,
  type AgentFormDefaults,
  type AgentType,
} from "~/lib/agent-form";
import { AgentForm } from "~/lib/agent-form.schema";
import { ApiError, shownInPlace, type ApiClient } from "./api/client.server";
import { agentsApi } from "./api/agents-api.server";
import { invariantResponse, requireClient } from "./clients.server";
import type { ConsoleContext } from "./context.server";
import { LOGO_TOO_LARGE, readLogoForm, replyWithApiError } from "./forms.server";
import { requireConfigure } from "./permissions.server";
import { redirectWithToast } from "./toast.server";
import { filesPastLimit } from "./http/form-data.server";
import { chosenFile, textOf } from "./http/form-fields.server";
import { isRowId } from "~/lib/ids";

function agentIdOf(value: string | null) {
  const id = Number(value);
  invariantResponse(value && isRowId(id), "Agent not found");
  return id;
}

export interface AgentFormPage {
  mode: "create" | "edit";
  client: Pick<ClientApp, "id" | "client_name" | "url_code">;
  defaultValue: AgentFormDefaults;
  /** Where the form posts: this page, keeping ?id or ?type so a refused save re-renders the same form. */
  formAction: string;
}

/** build-agent: `?id=` loads the agent to edit; otherwise a new agent of `?type=` (or the client's first type). */
export async function loadAgentForm(
  request: Request,
  context: ConsoleContext,
  appName: string | undefined,
): Promise<AgentFormPage> {
  const { api, app } = await requireClient(request, context, appName);
  const client = { id: app.id, client_name: app.client_name, url_code: app.url_code };
  const search = new URL(request.url).searchParams;
  const base = `/${app.url_code}/build-agent`;
  if (search.has("id")) {
    const agent = await agentsApi.get(api, app.id, agentIdOf(search.get("id")));
    return { mode: "edit", client, defaultValue: agentFormDefaults(agent), formAction: `${base}?id=${agent.id}` };
  }
  const type = newAgentType(app.client_type, search.get("type"));
  return { mode: "create", client, defaultValue: newAgentDefaults(type), formAction: `${base}?type=${type}` };
}

/** The form's fields; an API error on any other path (id, app_id, metadata) is shown above the form. */
const FORM_FIELDS = new Set(["name", "agent_type", "site_code", "logo", "url", "status", "mode_env"]);

function onFormFields(error: unknown) {
  if (!(error instanceof ApiError) || !error.body.errors) return error;
  const errors: Record<string, string[]> = {};
  const others: string[] = [];
  for (const [path, messages] of Object.entries(error.body.errors)) {
    if (FORM_FIELDS.has(path)) errors[path] = messages;
    else others.push(...messages);
  }
  if (!others.length) return error;
  return new ApiError(
    error.status,
    { ...error.body, message: others.join(" "), errors: Object.keys(errors).length ? errors : undefined },
    error.retryAfter,
  );
}

/**
 * Creates or saves an agent from the multipart build-agent form (works without JavaScript).
 * The logo file is uploaded first and its URL becomes `logo`; a refused upload comes back next to
 * the logo field with everything typed kept. agent_type and mode_env are read-only: an edit keeps
 * the agent's own, a new agent takes the posted type and starts in the sandbox. API refusals
 * (a site code in use, …) come back next to their fields. Success: the client home, with a toast.
 */
export async function submitAgentForm(request: Request, context: ConsoleContext, appName: string | undefined) {
  const { api, app } = await requireClient(request, context, appName);
  // Before the form is read: a read-only user is told they may not change this, whatever they posted.
  await requireConfigure(api, app.id);

  const { formData, tooLarge } = await readLogoForm(request);
  if (!formData) return tooLarge;
  const logoTooLarge = filesPastLimit(formData).some((file) => file.field === "logo");
  formData.set("site_code", stripSiteCode(textOf(formData, "site_code")));
  if (!isShowableLogoUrl(textOf(formData, "logo_url"))) formData.set("logo_url", "");

  let existing: Agent | null = null;
  let siteCodeTaken = false;
  let typeRefused = false;
  // The address says which agent the form edits (?id=, as its page loaded it); a post to an agent
  // the client does not have is not found, never a new agent.
  // An empty or malformed ?id= is no agent (as its page did not load), never a new one.
  const search = new URL(request.url).searchParams;
  const editedId = search.has("id") ? search.get("id") : textOf(formData, "id") || null;
  if (editedId !== null) {
    existing = await agentsApi.get(api, app.id, agentIdOf(editedId));
    formData.set("id", String(existing.id));
    formData.set("agent_type", existing.agent_type);
    formData.set("mode_env", existing.mode_env);
  } else {
    formData.delete("id");
    formData.set("mode_env", "staging");
    typeRefused = !agentTypesFor(app.client_type).includes(textOf(formData, "agent_type") as AgentType);
    // update_agents updates the client's agent of a site code it already has: a new agent must
    // not take one, or creating would overwrite that agent.
    const siteCode = textOf(formData, "site_code");
    siteCodeTaken = app.agents.some((agent) => agent.site_code.toLowerCase() === siteCode.toLowerCase());
  }

  const logo = formData.get("logo");
  formData.delete("logo");
  if (logoTooLarge) {
    // Said in the words a body past the form's bound gets, now with everything typed: without
    // JavaScript the page that held it is gone.
    const submission = parseWithZod(formData, { schema: AgentForm });
    return json(submission.reply({ fieldErrors: { logo: [LOGO_TOO_LARGE] } }), { status: 413 });
  }
  if (chosenFile(logo)) {
    const uploaded = await uploadLogo(api, app.id, logo);
    if (uploaded.error) {
      const submission = parseWithZod(formData, { schema: AgentForm });
      // A limit's refusal keeps its Retry-After.
      return json(submission.reply({ fieldErrors: { logo: [uploaded.error.message] } }), uploaded.error.answerInit);
    }
    formData.set("logo_url", uploaded.url);
  }
  // Refused after the logo's upload, so the reply keeps the chosen logo (a file input cannot be refilled).
  if (siteCodeTaken || typeRefused) {
    const submission = parseWithZod(formData, { schema: AgentForm });
    const fieldErrors: Record<string, string[]> = {};
    if (siteCodeTaken) fieldErrors.site_code = [siteCodeInUse(textOf(formData, "site_code"))];
    if (typeRefused) fieldErrors.agent_type = [agentTypeNotOffered(app.client_type)];
    return json(submission.reply({ fieldErrors }), { status: 400 });
  }

  const submission = parseWithZod(formData, { schema: AgentForm });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  try {
    const saved = await agentsApi.save(api, toAgentInput(submission.value, app.id, existing));
    return redirectWithToast(`/${app.url_code}`, {
      type: "success",
      description: `${saved.name} ${existing ? "saved" : "created"}`,
    });
  } catch (error) {
    return replyWithApiError(submission, onFormFields(error));
  }
}

async function uploadLogo(api: ApiClient, appId: number, file: File) {
  try {
    return { url: await agentsApi.uploadLogo(api, appId, file), error: null };
  } catch (error) {
    if (shownInPlace(error)) return { url: "", error };
    throw error;
  }
}

function toAgentInput(value: ReturnType<typeof AgentForm.parse>, appId: number, existing: Agent | null): AgentInput {
  return {
    ...(existing ? { id: existing.id } : {}),
    app_id: appId,
    name: value.name,
    agent_type: value.agent_type,
    site_code: value.site_code,
    logo: value.logo_url || null,
    url: value.url,
    status: value.status,
    mode_env: value.mode_env,
    metadata: existing?.metadata ?? {},
  };
}
