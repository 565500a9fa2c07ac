import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";

export interface StoredObject {
  key: string;
  size: number;
  modifiedAt: Date;
}

const CONTENT_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".csv": "text/csv; charset=utf-8",
  ".pdf": "application/pdf",
};
export const contentTypeOf = (key: string) => CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";

/** Keys are relative slash paths of safe characters; nothing can climb out of the storage folder. */
export function isSafeKey(key: string) {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) && !key.split("/").includes("..");
}

/**
 * Object storage on local disk (DATA_DIR/files) with HMAC-signed, expiring download links —
 * the same semantics as S3 presigned URLs, so callers never learn where bytes live.
 */
export class LocalStorage {
  constructor(private readonly root: string, private readonly secret: string) {}

  private pathOf(key: string) {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, ...key.split("/"));
  }

  async put(key: string, body: Uint8Array | string) {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body);
    return { key, size: typeof body === "string" ? Buffer.byteLength(body) : body.byteLength };
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  /** Objects directly under a folder prefix (not recursive), newest first. */
  async list(prefix: string): Promise<StoredObject[]> {
    const folder = this.pathOf(prefix.replace(/\/$/, ""));
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    const objects = await Promise.all(
      names.filter((name) => isSafeKey(name)).map(async (name) => {
        const info = await stat(path.join(folder, name));
        return info.isFile() ? { key: `${prefix.replace(/\/$/, "")}/${name}`, size: info.size, modifiedAt: info.mtime } : null;
      }),
    );
    return objects.filter((o): o is StoredObject => o !== null).sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime());
  }

  private sign(key: string, expires: number, filename: string) {
    return createHmac("sha256", this.secret).update(`${key}\n${expires}\n${filename}`).digest("base64url");
  }

  /** A link that downloads `key` as `filename` until it expires. */
  signedDownloadUrl(key: string, filename: string, expiresInSeconds = 300) {
    const expires = Math.floor(Date.now() / 1000) + expiresInSeconds;
    const query = new URLSearchParams({ key, name: filename, expires: String(expires), sig: this.sign(key, expires, filename) });
    return { url: `/storage/download?${query}`, expiresAt: new Date(expires * 1000) };
  }

  verifyDownload(params: URLSearchParams): { key: string; filename: string } | null {
    const key = params.get("key") ?? "";
    const filename = params.get("name") ?? "";
    const expires = Number(params.get("expires"));
    const given = Buffer.from(params.get("sig") ?? "");
    if (!isSafeKey(key) || !Number.isInteger(expires) || expires < Date.now() / 1000) return null;
    const expected = Buffer.from(this.sign(key, expires, filename));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return { key, filename };
  }
}
