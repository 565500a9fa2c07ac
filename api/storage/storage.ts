import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";

export interface StoredObject {
  key: string;
  size: number;
  modifiedAt: Date;
}

export interface SignedLink {
  url: string;
  expiresAt: Date;
}

export interface DownloadLinkOptions {
  expiresInSeconds?: number;
  /** Shown in the browser (a PDF opens in a tab) rather than saved as a file. */
  inline?: boolean;
}

export interface UploadLinkOptions {
  /** The Content-Type the uploader must send; part of the signature. */
  contentType: string;
  expiresInSeconds?: number;
}

/**
 * Where the bytes of logos, exports and uploaded files live. Two implementations keep the same
 * contract (storage-contract.test.ts): local disk with HMAC-signed links served by the API, and
 * S3-compatible storage with its own presigned URLs. Keys are always built by the server.
 */
export interface ObjectStorage {
  readonly kind: "local" | "s3";
  put(key: string, body: Uint8Array | string, contentType?: string): Promise<{ key: string; size: number }>;
  get(key: string): Promise<Buffer | null>;
  /** Size of a stored object, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /** Removes the object; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Moves an object to a new key (the old key stops existing); throws when there is nothing to move. */
  move(from: string, to: string): Promise<void>;
  /** Objects directly under a folder prefix (not recursive), newest first. */
  list(prefix: string): Promise<StoredObject[]>;
  /** A link that downloads `key` as `filename` until it expires. */
  signedDownloadUrl(key: string, filename: string, options?: DownloadLinkOptions): Promise<SignedLink>;
  /**
   * A link that accepts HTTP PUTs of the object's bytes for `key`, with the signed content type,
   * until it expires (like S3, not single-use: callers move accepted bytes to a key no link names).
   */
  signedUploadUrl(key: string, options: UploadLinkOptions): Promise<SignedLink>;
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
export const contentTypeOf = (key: string) =>
  CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";

/** Keys are relative slash paths of safe characters; nothing can climb out of the storage folder. */
export function isSafeKey(key: string) {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/.test(key) && !key.split("/").includes("..");
}

/**
 * A file-system refusal that means no object has this key: none there, a folder (`logos`), a path
 * through a file, or a name longer than the file system keeps (a key no put could have written).
 */
const namesNoFile = (error: unknown) =>
  ["ENOENT", "EISDIR", "ENOTDIR", "ENAMETOOLONG"].includes((error as NodeJS.ErrnoException).code ?? "");

/** A file name a browser may save under: nothing but safe characters survives. */
export const attachmentName = (filename: string) => filename.replace(/[^A-Za-z0-9._-]/g, "_");

/** Content-Disposition with a plain fallback name and the real one (RFC 6266 / 5987) for browsers that read it. */
export function contentDisposition(filename: string, inline = false) {
  const plain = `${inline ? "inline" : "attachment"}; filename="${attachmentName(filename)}"`;
  if (attachmentName(filename) === filename) return plain;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${plain}; filename*=UTF-8''${encoded}`;
}

export interface UploadGrant {
  key: string;
  contentType: string;
}

/**
 * Object storage on local disk (DATA_DIR/files) with HMAC-signed, expiring links served by the API
 * (`/storage/download`, `/storage/upload`) — the same semantics as S3 presigned URLs: a link names
 * one key, one method and one content type, and stops working when it expires.
 */
export class LocalStorage implements ObjectStorage {
  readonly kind = "local" as const;

  constructor(
    private readonly root: string,
    private readonly secret: string,
  ) {}

  private pathOf(key: string) {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(this.root, ...key.split("/"));
  }

  async put(key: string, body: Uint8Array | string) {
    const file = this.pathOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    // Written beside and renamed, so a reader never sees half an object; each write has its own
    // partial file, so concurrent writes of one key (two exports in the same second) cannot collide.
    const partial = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.partial`;
    await writeFile(partial, body);
    await rename(partial, file);
    return { key, size: typeof body === "string" ? Buffer.byteLength(body) : body.byteLength };
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if (namesNoFile(error)) return null;
      throw error;
    }
  }

  async head(key: string) {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (namesNoFile(error)) return null;
      throw error;
    }
  }

  async delete(key: string) {
    await rm(this.pathOf(key), { force: true });
  }

  async move(from: string, to: string) {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(this.pathOf(from), target);
  }

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
      names
        .filter((name) => isSafeKey(name))
        .map(async (name) => {
          const info = await stat(path.join(folder, name));
          return info.isFile()
            ? { key: `${prefix.replace(/\/$/, "")}/${name}`, size: info.size, modifiedAt: info.mtime }
            : null;
        }),
    );
    return objects
      .filter((o): o is StoredObject => o !== null)
      .sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime());
  }

  /** Every field of the grant is signed, so changing any of them (or the method) breaks the link. */
  private sign(fields: string[]) {
    return createHmac("sha256", this.secret).update(fields.join("\n")).digest("base64url");
  }

  private matches(given: string, fields: string[]) {
    const expected = Buffer.from(this.sign(fields));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  async signedDownloadUrl(key: string, filename: string, options: DownloadLinkOptions = {}) {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    const expires = Math.floor(Date.now() / 1000) + (options.expiresInSeconds ?? 300);
    const disposition = options.inline ? "inline" : "attachment";
    const sig = this.sign(["GET", key, String(expires), filename, disposition]);
    const query = new URLSearchParams({ key, name: filename, expires: String(expires), disposition, sig });
    return { url: `/storage/download?${query}`, expiresAt: new Date(expires * 1000) };
  }

  verifyDownload(params: URLSearchParams): { key: string; filename: string; inline: boolean } | null {
    const key = params.get("key") ?? "";
    const filename = params.get("name") ?? "";
    const disposition = params.get("disposition") ?? "attachment";
    const expires = Number(params.get("expires"));
    if (!isSafeKey(key) || !Number.isInteger(expires) || expires < Date.now() / 1000) return null;
    if (!this.matches(params.get("sig") ?? "", ["GET", key, String(expires), filename, disposition])) return null;
    return { key, filename, inline: disposition === "inline" };
  }

  async signedUploadUrl(key: string, options: UploadLinkOptions) {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    const expires = Math.floor(Date.now() / 1000) + (options.expiresInSeconds ?? 900);
    const sig = this.sign(["PUT", key, String(expires), options.contentType]);
    const query = new URLSearchParams({ key, type: options.contentType, expires: String(expires), sig });
    return { url: `/storage/upload?${query}`, expiresAt: new Date(expires * 1000) };
  }

  /** The grant of an upload link, or null when it was altered, expired or names an unsafe key. */
  verifyUpload(params: URLSearchParams): UploadGrant | null {
    const key = params.get("key") ?? "";
    const contentType = params.get("type") ?? "";
    const expires = Number(params.get("expires"));
    if (!isSafeKey(key) || !Number.isInteger(expires) || expires < Date.now() / 1000) return null;
    if (!this.matches(params.get("sig") ?? "", ["PUT", key, String(expires), contentType])) return null;
    return { key, contentType };
  }
}
