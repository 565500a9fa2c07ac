import { desc, eq } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { DownloadBody, DownloadLink, LatestFiles, LatestFilesQuery, type AdminFile } from "@contract";
import { requireApp, requireFound } from "../auth/permissions";
import { storedFiles } from "../db/schema";
import type { ApiDeps } from "../deps";
import type { RouteBuilder } from "../http/route";
import { uploadStillOpen } from "../files/store";
import { contentDisposition, contentTypeOf, isSafeKey, LocalStorage } from "../storage/storage";

const pad = (n: number) => String(n).padStart(2, "0");
const formatTimestamp = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;

export function downloadRoutes(route: RouteBuilder) {
  route({
    method: "get",
    path: "/v1/admin_downloads/latest_files",
    tag: "Admin downloads",
    summary: "The client's newest file of each type (app exports, later URL exports and reports).",
    query: LatestFilesQuery,
    response: LatestFiles,
    handler: async ({ query, caller, deps }) => {
      requireApp(caller, query.app_id);
      const rows = await deps.db
        .select()
        .from(storedFiles)
        .where(eq(storedFiles.appId, query.app_id))
        .orderBy(desc(storedFiles.createdAt), desc(storedFiles.id));
      const files: Record<string, AdminFile> = {};
      for (const row of rows) {
        files[row.fileType] ??= {
          filename: row.fileName,
          file_type: row.fileType,
          formatted_timestamp: formatTimestamp(row.createdAt),
          size: row.size,
          key: row.storageKey,
        };
      }
      return { files };
    },
  });

  route({
    method: "post",
    path: "/v1/admin_downloads/download",
    tag: "Admin downloads",
    summary: "A signed link, valid for five minutes, that downloads the file.",
    body: DownloadBody,
    response: DownloadLink,
    handler: async ({ body, caller, deps }) => {
      const [found] = await deps.db.select().from(storedFiles).where(eq(storedFiles.storageKey, body.file_key));
      const row = requireFound(caller, found, "File not found");
      const link = await deps.storage.signedDownloadUrl(row.storageKey, row.fileName);
      return { download_url: link.url, url: link.url, expires_at: link.expiresAt.toISOString() };
    },
  });
}

async function sendStored(c: Context, deps: ApiDeps, key: string, headers: Record<string, string>) {
  const bytes = isSafeKey(key) ? await deps.storage.get(key) : null;
  if (!bytes) return c.json({ message: "File not found" }, 404);
  return c.body(new Uint8Array(bytes), 200, {
    "Content-Type": contentTypeOf(key),
    "X-Content-Type-Options": "nosniff",
    ...headers,
  });
}

export const SIGNED_UPLOAD_PATH = "/storage/upload";

/** The request body, refused once it passes `maxBytes` (read as it arrives, never buffered past the cap). */
async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) return null;
  const parts: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    for await (const part of request.body as unknown as AsyncIterable<Uint8Array>) {
      size += part.byteLength;
      if (size > maxBytes) return null;
      parts.push(part);
    }
  }
  return Buffer.concat(parts);
}

/** Stored bytes over HTTP: public logos, and downloads and uploads behind signed, expiring links. */
export function storageRoutes(app: Hono, deps: ApiDeps) {
  app.get("/storage/public/*", (c) =>
    sendStored(c, deps, c.req.path.slice("/storage/".length), {
      "Cache-Control": "public, max-age=86400",
      // An SVG opened on its own runs no script and loads nothing.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    }),
  );
  // Signed links are ours only with local storage; S3 serves its own presigned URLs.
  const local = deps.storage instanceof LocalStorage ? deps.storage : null;
  app.get("/storage/download", (c) => {
    const grant = local?.verifyDownload(new URL(c.req.url).searchParams);
    if (!grant) return c.json({ message: "This download link is invalid or has expired" }, 403);
    return sendStored(c, deps, grant.key, {
      "Cache-Control": "private, no-store",
      "Content-Disposition": contentDisposition(grant.filename, grant.inline),
      // A stored file shown in the browser runs nothing (same rule as S3 objects on their own host).
      "Content-Security-Policy": "sandbox",
    });
  });
  app.put(SIGNED_UPLOAD_PATH, async (c) => {
    const grant = local?.verifyUpload(new URL(c.req.url).searchParams);
    if (!grant) return c.json({ message: "This upload link is invalid or has expired" }, 403);
    if (!(await uploadStillOpen(grant.key, deps)))
      return c.json({ message: "This upload link has already been used" }, 403);
    const sentType = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
    if (sentType !== grant.contentType)
      return c.json({ message: `This upload link accepts ${grant.contentType} only` }, 403);
    const body = await readCapped(c.req.raw, deps.config.fileMaxBytes);
    if (!body)
      return c.json(
        { message: `The file is larger than ${Math.round(deps.config.fileMaxBytes / 1024 / 1024)} MB` },
        413,
      );
    // Its upload may have been replaced while the bytes came (its uploader sent the file again).
    if (!(await uploadStillOpen(grant.key, deps)))
      return c.json({ message: "This upload was replaced by a later one of the same file" }, 409);
    await local!.put(grant.key, body);
    return c.body(null, 200);
  });
}
