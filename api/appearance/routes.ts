import { randomUUID } from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import {
  ALL_APPEARANCE_FIELDS,
  APPEARANCE_FIELDS,
  APPEARANCE_MESSAGES,
  AppearanceDiff,
  AppearanceDiffBody,
  AppearancePutBody,
  AppearanceQuery,
  AppearanceResponse,
  AppearanceSaved,
  AppearanceUpload,
  isProductionTarget,
} from "@contract";
import { requireApp } from "../auth/permissions";
import type { ApiDeps } from "../deps";
import { appearanceChange } from "../history/kinds";
import { recordChanges } from "../history/record";
import { badRequest } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { validateLogo } from "../storage/images";
import {
  appearanceOf,
  checkedValues,
  pushedAtOf,
  requireTriggerPoint,
  saveAppearance,
  type Environment,
} from "./values";
import type { StorageWrites } from "../http/storage-writes";

export function appearanceRoutes(route: RouteBuilder, storageWrites: StorageWrites) {
  route({
    method: "get",
    path: "/v1/appearances",
    tag: "Appearance",
    summary: "The widget's stage values (defaults filled in) and the field catalogue by section.",
    query: AppearanceQuery,
    response: AppearanceResponse,
    handler: async ({ query, caller, deps }) => {
      requireApp(caller, query.appId);
      await requireTriggerPoint(query.appId, query.triggerPoint, deps);
      const stage = await appearanceOf(query.appId, query.triggerPoint, "stage", deps);
      const prod = await appearanceOf(query.appId, query.triggerPoint, "prod", deps);
      return {
        data: stage.values,
        fields_data: APPEARANCE_FIELDS,
        pushed_at: pushedAtOf(prod.row),
      };
    },
  });

  route({
    method: "put",
    path: "/v1/appearances",
    tag: "Appearance",
    summary:
      "Saves the values of `appearance.value` to stage, or with targetEnv production to what production shows (the push). Every value is checked against its field; values not sent keep their saved ones.",
    query: AppearanceQuery,
    body: AppearancePutBody,
    response: AppearanceSaved,
    handler: async ({ query, body, caller, deps }) => {
      requireApp(caller, query.appId, "configure");
      await requireTriggerPoint(query.appId, query.triggerPoint, deps);
      const environment: Environment = isProductionTarget(body.targetEnv) ? "prod" : "stage";
      if (environment === "prod") {
        // A push that would change nothing production shows writes nothing: no History entry, no new push time.
        const shown = (await appearanceOf(query.appId, query.triggerPoint, "prod", deps)).values;
        const pushed = checkedValues(query.appId, body.appearance.value);
        if (isDeepStrictEqual({ ...shown, ...pushed }, shown))
          return { message: APPEARANCE_MESSAGES.nothingToPush, data: shown };
      }
      const change = appearanceChange(query.appId, environment, query.triggerPoint);
      // A push says so in History: production changes only through it.
      const { result: saved } = await recordChanges(
        deps,
        caller,
        [change],
        (db) => saveAppearance(query.appId, query.triggerPoint, environment, body.appearance.value, { db }),
        environment === "prod" ? APPEARANCE_MESSAGES.pushed : undefined,
      );
      return { message: environment === "prod" ? APPEARANCE_MESSAGES.pushed : APPEARANCE_MESSAGES.saved, data: saved };
    },
  });

  /** Production's values beside stage's (with the values about to be pushed laid over them), and what differs. */
  async function diffOf(
    appId: number,
    triggerPoint: string,
    pending: Record<string, unknown> | undefined,
    deps: Pick<ApiDeps, "db">,
  ) {
    await requireTriggerPoint(appId, triggerPoint, deps);
    const saved = (await appearanceOf(appId, triggerPoint, "stage", deps)).values;
    const stage = { ...saved, ...(pending ? checkedValues(appId, pending) : {}) };
    const prod = (await appearanceOf(appId, triggerPoint, "prod", deps)).values;
    const changes = ALL_APPEARANCE_FIELDS.filter((field) => stage[field.internalName] !== prod[field.internalName]).map(
      (field) => ({
        internalName: field.internalName,
        label: field.label,
        production: prod[field.internalName],
        stage: stage[field.internalName],
      }),
    );
    return { current_prod_style_guide: prod, current_stage_style_guide: stage, changes };
  }

  route({
    method: "post",
    path: "/v1/appearances/get_diff",
    tag: "Appearance",
    summary:
      "Before a push: production's values (current_prod_style_guide) beside stage's with the posted `appearance.value` laid over them (current_stage_style_guide), and the fields that differ.",
    query: AppearanceQuery,
    body: AppearanceDiffBody,
    response: AppearanceDiff,
    handler: async ({ query, body, caller, deps }) => {
      requireApp(caller, query.appId);
      return diffOf(query.appId, query.triggerPoint, body.appearance?.value, deps);
    },
  });

  route({
    method: "get",
    path: "/v1/appearances/get_diff",
    tag: "Appearance",
    summary: "The same comparison for stage's saved values, without a body.",
    query: AppearanceQuery,
    response: AppearanceDiff,
    handler: async ({ query, caller, deps }) => {
      requireApp(caller, query.appId);
      return diffOf(query.appId, query.triggerPoint, undefined, deps);
    },
  });

  route({
    method: "post",
    path: "/v1/appearances/upload_file",
    tag: "Appearance",
    form: true,
    summary:
      "Stores an image for the widget (one file in `file`, `files` or `files[]`; PNG, JPEG, GIF, WebP or script-free SVG, at most 2 MB, checked by content) and answers its URL.",
    query: AppearanceQuery,
    response: AppearanceUpload,
    handler: async ({ query, form, caller, deps }) => {
      requireApp(caller, query.appId, "configure");
      // The field may be named file, files or files[] (how browsers' FormData arrays are often named).
      const file = ["file", "files", "files[]"]
        .flatMap((name) => form?.getAll(name) ?? [])
        .find((v): v is File => typeof v !== "string");
      if (!file) throw badRequest("Choose an image to upload", { file: ["Choose an image to upload"] });
      await storageWrites.take(caller);
      const bytes = new Uint8Array(await file.arrayBuffer());
      // Any image name is accepted; the content decides what it is.
      const kind = validateLogo(file.name, bytes, /\.svg$/i.test(file.name) ? "image.svg" : "image.img");
      const key = `public/appearance/${query.appId}/${randomUUID()}.${kind}`;
      await deps.storage.put(key, bytes);
      return { url: `/storage/${key}`, message: "Image uploaded" };
    },
  });
}
