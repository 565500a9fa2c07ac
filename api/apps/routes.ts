import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { AppInput, AppsList, AppsQuery, AppUpdateResult, ClientApp, IdParam, UploadedFiles } from "@contract";
import { can, isStaff, requireApp, requireStaff } from "../auth/permissions";
import { isUniqueViolation } from "../db/errors";
import { clientApps } from "../db/schema";
import { recordChange } from "../history/record";
import { badRequest, forbidden } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { validateLogo } from "../storage/images";
import type { ApiDeps } from "../deps";
import { clientCreatedChange, clientProfileChange, nextClientId } from "./client-change";
import { appColumns, listVisibleApps, loadClientApp } from "./queries";
import type { StorageWrites } from "../http/storage-writes";

const urlCodeTaken = (code: string) =>
  badRequest("Invalid request body", { url_code: [`The url_code ${code} is already used by another client`] });

async function assertUrlCodeFree(code: string, exceptId: number | null, deps: Pick<ApiDeps, "db">) {
  const [existing] = await deps.db.select({ id: clientApps.id }).from(clientApps).where(eq(clientApps.urlCode, code));
  if (existing && existing.id !== exceptId) throw urlCodeTaken(code);
}

/** Stores uploaded logo files (each checked by content) and answers their public URLs. */
export async function storeLogos(files: File[], folder: string, deps: Pick<ApiDeps, "storage">) {
  if (!files.length) throw badRequest("Choose a logo file to upload", { files: ["Choose a logo file to upload"] });
  const checked = await Promise.all(
    files.map(async (file) => {
      const bytes = new Uint8Array(await file.arrayBuffer());
      return { bytes, extension: validateLogo(file.name, bytes) };
    }),
  );
  const urls: string[] = [];
  for (const { bytes, extension } of checked) {
    const key = `public/${folder}/${randomUUID()}.${extension}`;
    await deps.storage.put(key, bytes);
    urls.push(`/storage/${key}`);
  }
  return urls;
}

const filesOf = (form: FormData | null, ...names: string[]) =>
  names.flatMap((name) => form?.getAll(name) ?? []).filter((value): value is File => typeof value !== "string");

export function appRoutes(route: RouteBuilder, storageWrites: StorageWrites) {
  route({
    method: "get",
    path: "/v1/apps",
    tag: "Clients",
    summary:
      "Client apps the caller may see, each with its agents. `status=active` filters to active clients; `saerch` matches name or url_code.",
    query: AppsQuery,
    response: AppsList,
    handler: async ({ query, caller, deps }) => ({
      apps: await listVisibleApps(caller, { status: query.status, search: query.saerch }, deps),
    }),
  });

  route({
    method: "post",
    path: "/v1/apps",
    tag: "Clients",
    summary: "Onboards a client (staff only). url_code must be free and not a console word.",
    body: AppInput,
    response: ClientApp,
    status: 201,
    handler: async ({ body, caller, deps }) => {
      requireStaff(caller);
      await assertUrlCodeFree(body.url_code, null, deps);
      try {
        const id = await nextClientId(deps.db);
        await recordChange(deps, caller, clientCreatedChange(id), (db) =>
          db.insert(clientApps).values({ id, ...appColumns(body) }),
        );
        return loadClientApp(id, deps);
      } catch (error) {
        if (isUniqueViolation(error)) throw urlCodeTaken(body.url_code);
        throw error;
      }
    },
  });

  route({
    method: "put",
    path: "/v1/apps/:appId",
    tag: "Clients",
    summary:
      "Updates a client; the answer is in `response`. url_code and country cannot change once the client exists.",
    params: z.object({ appId: IdParam }),
    body: AppInput,
    response: AppUpdateResult,
    handler: async ({ params, body, caller, deps }) => {
      requireApp(caller, params.appId, "configure");
      const current = await loadClientApp(params.appId, deps);
      const errors: Record<string, string[]> = {};
      if (body.url_code !== current.url_code)
        errors.url_code = ["The url_code cannot be changed once the client exists"];
      if (body.country !== current.country) errors.country = ["The country cannot be changed once the client exists"];
      if (Object.keys(errors).length) throw badRequest("Invalid request body", errors);
      // Status (active/inactive) is part of the client record only staff may change.
      if (body.status && body.status !== current.status && !can(caller, "edit_client", params.appId)) throw forbidden();
      await recordChange(deps, caller, clientProfileChange(params.appId), (db) =>
        db
          .update(clientApps)
          .set({ ...appColumns(body), updatedAt: new Date() })
          .where(eq(clientApps.id, params.appId)),
      );
      return { response: await loadClientApp(params.appId, deps) };
    },
  });

  route({
    method: "post",
    path: "/v1/apps/logo_upload",
    tag: "Clients",
    form: true,
    summary: "Uploads client logos (multipart `files[]`; .svg, .png or .img, content-checked, at most 2 MB each).",
    response: UploadedFiles,
    handler: async ({ form, caller, deps }) => {
      // Anyone who may configure some client may upload its logo; creating clients is staff-only anyway.
      if (!isStaff(caller) && ![...caller.appRoles.values()].includes("client_admin")) throw forbidden();
      const files = filesOf(form, "files[]", "files");
      await storageWrites.take(caller, files.length);
      const urls = await storeLogos(files, "logos", deps);
      return {
        files: urls.map((url) => ({ url })),
        message: urls.length === 1 ? "Logo uploaded" : `${urls.length} logos uploaded`,
      };
    },
  });
}
