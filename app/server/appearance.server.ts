import { json } from "@remix-run/node";
import { ALL_APPEARANCE_FIELDS, APPEARANCE_MESSAGES, type AppearanceValues } from "@contract";
import { z } from "zod";
import { appearanceBaseline, valuesFromForm } from "~/lib/appearance";
import { NOTHING_TO_SAVE } from "~/lib/controls";
import { shownInPlace, type ApiClient, type ApiError } from "./api/client.server";
import { appearanceApi } from "./api/appearance-api.server";
import { testingApi } from "./api/testing-api.server";
import { ACCEPT_FAILING_FIELD } from "~/lib/accept-failing";
import { gateRunToAccept } from "~/lib/test-questions";
import { redirectWithToast } from "./toast.server";
import { filesPastLimit, readForm, FORM_WITH_IMAGES } from "./http/form-data.server";
import { chosenFile, textOf } from "./http/form-fields.server";
import { parseLoadedField } from "./forms.server";
import { rebaseOnStored } from "./table-kit.server";
import { IMAGE_MAX_MB } from "@contract/values/files";

export interface AppearanceActionData {
  formError: string | null;
  fieldErrors: Record<string, string>;
  /** What was posted, so a refused save loses nothing typed (none when the post was too large to read). */
  values?: AppearanceValues;
  /**
   * After a conflict, what stage holds now, as the form's baseline: saving again keeps what this page
   * typed, whether or not the page has loaded stage's values again by then.
   */
  loaded?: Record<string, string>;
}

/**
 * Save (stage), ask to push, and push to production. Images chosen in the form are uploaded
 * first and their stored URLs saved; the API checks every value and its messages come back
 * beside their fields.
 */
export async function handleAppearanceAction(
  request: Request,
  api: ApiClient,
  appId: number,
  triggerPoint: string,
  backTo: string,
) {
  // An image past its limit is read to its end but not kept: the form comes back with it said.
  const formData = await readForm(request, FORM_WITH_IMAGES).catch((refusal: unknown) => {
    // Past what the form may read (64 MB, the images left out included): the page stays, saying why.
    if (refusal instanceof Response && refusal.status === 413) return null;
    throw refusal;
  });
  if (!formData) {
    const formError = `Nothing was saved: the chosen images are larger than the ${IMAGE_MAX_MB} MB each they may be. Choose smaller ones.`;
    return json<AppearanceActionData>({ formError, fieldErrors: {} }, { status: 413 });
  }
  if (textOf(formData, "intent") === "push") {
    // Stage failing questions that production passes: the operator confirms once more, for this run.
    const toAccept = gateRunToAccept(await testingApi.gate(api, appId, triggerPoint));
    if (toAccept !== null && formData.get(ACCEPT_FAILING_FIELD) !== String(toAccept)) {
      const again = new URL(backTo, "http://console.invalid");
      again.searchParams.set("confirm", "push");
      again.searchParams.set("failing", "confirm");
      return redirectWithToast(`${again.pathname}${again.search}`, {
        type: "error",
        description: "Stage fails test questions that production passes: confirm again to push",
      });
    }
    const diff = await appearanceApi.diff(api, appId, triggerPoint);
    let pushed;
    try {
      pushed = await appearanceApi.save(api, appId, triggerPoint, diff.current_stage_style_guide, "production");
    } catch (error) {
      // Stage holding a value refused since it was saved: said beside its field, as a save's refusal.
      if (!shownInPlace(error)) throw error;
      return refusedInPlace(error);
    }
    const done = new URL(backTo, "http://console.invalid");
    done.searchParams.delete("confirm");
    done.searchParams.delete("failing");
    // The API's own words: pushed, or nothing to push when production already showed these values.
    return redirectWithToast(`${done.pathname}${done.search}`, {
      type: pushed.message === APPEARANCE_MESSAGES.pushed ? "success" : "info",
      description: pushed.message,
    });
  }
  const tooLarge = imagesPastLimit(formData);
  if (tooLarge)
    return json<AppearanceActionData>(
      { formError: null, fieldErrors: tooLarge, values: valuesFromForm(formData) },
      { status: 413 },
    );
  const rebased = await rebasedOnStored(api, appId, triggerPoint, formData);
  const { values } = rebased;
  if (rebased.conflicts)
    return json<AppearanceActionData>(
      { formError: null, fieldErrors: rebased.conflicts, values, loaded: rebased.storedBaseline ?? undefined },
      { status: 409 },
    );
  const changed: AppearanceValues = Object.fromEntries(rebased.changed.map((name) => [name, values[name]]));
  const fieldErrors: Record<string, string> = {};
  // A refused upload answers 400, or a limit's 429 with its Retry-After.
  let uploadRefused: ResponseInit = { status: 400 };
  try {
    for (const field of ALL_APPEARANCE_FIELDS.filter((f) => f.type === "image")) {
      const file = formData.get(`${field.internalName}__file`);
      // An input left empty leaves the field as it is; a chosen file without bytes is the API's to refuse.
      if (!chosenFile(file)) continue;
      try {
        values[field.internalName] = (await appearanceApi.upload(api, appId, triggerPoint, file)).url;
        changed[field.internalName] = values[field.internalName];
      } catch (error) {
        if (!shownInPlace(error)) throw error;
        fieldErrors[field.internalName] = error.message;
        if (error.status === 429 || error.status === 503) uploadRefused = error.answerInit;
      }
    }
    if (Object.keys(fieldErrors).length)
      return json<AppearanceActionData>({ formError: null, fieldErrors, values }, uploadRefused);
    if (!Object.keys(changed).length) return redirectWithToast(backTo, { type: "info", description: NOTHING_TO_SAVE });
    await appearanceApi.save(api, appId, triggerPoint, changed);
    return redirectWithToast(backTo, { type: "success", description: APPEARANCE_MESSAGES.saved });
  } catch (error) {
    if (!shownInPlace(error)) throw error;
    return refusedInPlace(error, values);
  }
}

const IMAGE_TOO_LARGE = `The chosen image is larger than ${IMAGE_MAX_MB} MB: choose a smaller image`;

/** Each image setting whose chosen file was past the API's limit, with the message beside it; null when none was. */
function imagesPastLimit(formData: FormData): Record<string, string> | null {
  const past = new Set(filesPastLimit(formData).map((file) => file.field));
  const fieldErrors = Object.fromEntries(
    ALL_APPEARANCE_FIELDS.filter((field) => field.type === "image" && past.has(`${field.internalName}__file`)).map(
      (field) => [field.internalName, IMAGE_TOO_LARGE],
    ),
  );
  return Object.keys(fieldErrors).length ? fieldErrors : null;
}

/** The API's refusal of a save or a push: each message beside its setting, else above the form. */
function refusedInPlace(error: ApiError, values?: AppearanceValues) {
  const fieldErrors: Record<string, string> = {};
  for (const [path, messages] of Object.entries(error.fieldErrors))
    fieldErrors[path.replace(/^appearance\.value\./, "")] = messages[0];
  return json<AppearanceActionData>(
    { formError: Object.keys(fieldErrors).length ? null : error.message, fieldErrors, values },
    error.answerInit,
  );
}

const LoadedBaseline = z.record(z.string(), z.string());

/** An image field with a file chosen: changed here, whatever its hidden value says. */
const UPLOADING = "\u0000upload";

/**
 * The posted settings on top of what stage holds now, by the rows tables' rule (rebaseOnStored):
 * a setting this page did not change takes the stored value and is not sent, so a save never writes
 * back what a colleague saved since the page loaded; one changed both here and there, differently,
 * is a conflict said beside it. The page posts what it loaded as `loaded`; a post without it (or
 * with one that does not read) sends every setting, as before.
 */
async function rebasedOnStored(api: ApiClient, appId: number, triggerPoint: string, formData: FormData) {
  const values = valuesFromForm(formData);
  const loaded = parseLoadedField(LoadedBaseline, textOf(formData, "loaded"));
  if (!loaded) return { values, changed: Object.keys(values), conflicts: null, storedBaseline: null };
  const stored = (await appearanceApi.get(api, appId, triggerPoint)).data;
  const storedBaseline = appearanceBaseline(stored);
  const fields = Object.keys(values).filter((name) => Object.hasOwn(loaded, name));
  const typed = appearanceBaseline(values);
  for (const field of ALL_APPEARANCE_FIELDS)
    if (field.type === "image" && chosenFile(formData.get(`${field.internalName}__file`)))
      typed[field.internalName] = UPLOADING;
  const posted = { id: "form", loaded, ...Object.fromEntries(fields.map((name) => [name, typed[name]])) };
  const {
    rows: [rebased],
    errors: [conflicts],
  } = rebaseOnStored([posted], new Map([["form", storedBaseline]]), fields);
  const kept = rebased as unknown as Record<string, string>;
  const next: AppearanceValues = { ...values };
  // What this page left as it loaded shows what is stored now, as a reload would.
  for (const name of fields) if (kept[name] !== typed[name]) next[name] = stored[name];
  const changed = [
    ...Object.keys(values).filter((name) => !fields.includes(name)),
    ...fields.filter((name) => typed[name] !== loaded[name] && typed[name] !== UPLOADING),
  ];
  // One message a setting, as the API's refusals are shown.
  const said = conflicts ? Object.fromEntries(Object.entries(conflicts).map(([name, [first]]) => [name, first])) : null;
  return { values: next, changed, conflicts: said, storedBaseline };
}
