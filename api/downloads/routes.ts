import { desc, eq } from "drizzle-orm";
import type { Context, Hono } from "hono";
import { DownloadBody, DownloadLink, LatestFiles, LatestFilesQuery, type AdminFile } from "../../contract";
import { requireApp } from "../auth/permissions";
import { storedFiles } from "../db/schema";
import type { ApiDeps } from "../deps";
import { notFound } from "../http/errors";
import type { RouteBuilder } from "../http/route";
import { contentTypeOf, isSafeKey } from "../storage/storage";

const pad = (n: number) => String(n).padStart(2, "0");
const formatTimestamp = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;

export function downloadRoutes(route: RouteBuilder) {
  route({
    method: "get", path: "/v1/admin_downloads/latest_files", tag: "Admin downloads",
    summary: "The client's newest file of each type (app exports, later URL exports and reports).",
    query: LatestFilesQuery, response: LatestFiles,
    handler: async ({ query, caller, deps }) => {
      requireApp(caller, query.app_id);
      const rows = await deps.db.select().from(storedFiles).where(eq(storedFiles.appId, query.app_id)).orderBy(desc(storedFiles.createdAt), desc(storedFiles.id));
      const files: Record<string, AdminFile> = {};
      for (const row of rows) {
        files[row.fileType] ??= {
          filename: row.fileName, file_type: row.fileType, formatted_timestamp: formatTimestamp(row.createdAt), size: row.size, key: row.storageKey,
        };
      }
      return { files };
    },
  });

  route({
    method: "post", path: "/v1/admin_downloads/download", tag: "Admin downloads",
    summary: "A signed link, valid for five minutes, that downloads the file.",
    body: DownloadBody, response: DownloadLink,
    handler: async ({ body, caller, deps }) => {
      const [row] = await deps.db.select().from(storedFiles).where(eq(storedFiles.storageKey, body.file_key));
      if (!row || row.appId === null) throw notFound("File not found");
      requireApp(caller, row.appId);
      const link = deps.storage.signedDownloadUrl(row.storageKey, row.fileName);
      return { download_url: link.url, url: link.url, expires_at: link.expiresAt.toISOString() };
    },
  });
}

async function sendStored(c: Context, deps: ApiDeps, key: string, headers: Record<string, string>) {
  const bytes = isSafeKey(key) ? await deps.storage.get(key) : null;
  if (!bytes) return c.json({ message: "File not found" }, 404);
  return c.body(new Uint8Array(bytes), 200, { "Content-Type": contentTypeOf(key), "X-Content-Type-Options": "nosniff", ...headers });
}

/** Stored bytes over HTTP: public logos, and downloads behind a signed, expiring link. */
export function storageRoutes(app: Hono, deps: ApiDeps) {
  app.get("/storage/public/*", (c) =>
    sendStored(c, deps, c.req.path.slice("/storage/".length), {
      "Cache-Control": "public, max-age=86400",
      // An SVG opened on its own runs no script and loads nothing.
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    }),
  );
  app.get("/storage/download", (c) => {
    const grant = deps.storage.verifyDownload(new URL(c.req.url).searchParams);
    if (!grant) return c.json({ message: "This download link is invalid or has expired" }, 403);
    return sendStored(c, deps, grant.key, {
      "Cache-Control": "private, no-store",
      "Content-Disposition": `attachment; filename="${grant.filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
    });
  });
}
