import { serve } from "@hono/node-server";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3RVER_KEY, startS3Server } from "../../tests/support/s3-server";
import { startTestHost } from "../../tests/support/test-host";
import { s3ConfigFromEnv, S3Storage } from "./s3";
import { contentDisposition, type ObjectStorage } from "./storage";

/** One implementation under test, reachable over real HTTP like a browser would reach it. */
interface Subject {
  storage: ObjectStorage;
  /** A link as the storage hands it out, made fetchable (local links are paths of the API host). */
  absolute(url: string): string;
  /** The query parameter that carries a link's signature. */
  signatureParam: string;
  close(): Promise<void>;
}

const listening = (server: Server) =>
  new Promise<string>((resolve) =>
    server.once("listening", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );

const closing = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function startLocal(): Promise<Subject> {
  const host = await startTestHost();
  const server = serve({ fetch: host.api.fetch, hostname: "127.0.0.1", port: 0 }) as Server;
  const base = await listening(server);
  return {
    storage: host.deps.storage,
    absolute: (url) => new URL(url, base).toString(),
    signatureParam: "sig",
    close: async () => {
      await closing(server);
      await host.close();
    },
  };
}

async function startS3(): Promise<Subject> {
  const server = await startS3Server("contract");
  const storage = new S3Storage({
    bucket: "contract",
    region: "us-east-1",
    endpoint: server.endpoint,
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    forcePathStyle: true,
    // Keys come back from list() without it, as callers gave them.
    keyPrefix: "console",
  });
  return { storage, absolute: (url) => url, signatureParam: "X-Amz-Signature", close: server.close };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (bytes: Buffer | null) => bytes?.toString("utf8") ?? null;

/** The same link naming another key, wherever the implementation puts the key (query or path). */
function retarget(url: string, from: string, to: string) {
  const changed = url.split(encodeURIComponent(from)).join(encodeURIComponent(to)).split(from).join(to);
  expect(changed).not.toBe(url);
  return changed;
}

function tamper(url: string, param: string) {
  const link = new URL(url);
  const signature = link.searchParams.get(param) ?? "";
  expect(signature).not.toBe("");
  link.searchParams.set(param, `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`);
  return link.toString();
}

function expectRefused(response: Response) {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
}

const UNSAFE_KEYS = ["../x", "/abs", "a//b", "a/../b"];

describe.each([
  ["LocalStorage", startLocal],
  ["S3Storage (s3rver)", startS3],
])("ObjectStorage contract: %s", (_name, start) => {
  let subject: Subject;
  let storage: ObjectStorage;
  beforeAll(async () => {
    subject = await start();
    storage = subject.storage;
  });
  afterAll(() => subject?.close());

  const upload = (url: string, body: string, contentType: string) =>
    fetch(subject.absolute(url), { method: "PUT", headers: { "Content-Type": contentType }, body });

  it("puts, gets and heads objects of text and bytes", async () => {
    expect(await storage.put("objects/note.txt", "héllo")).toEqual({ key: "objects/note.txt", size: 6 });
    expect(await storage.put("objects/bytes.bin", new Uint8Array([0, 1, 2, 255]))).toEqual({
      key: "objects/bytes.bin",
      size: 4,
    });
    expect(text(await storage.get("objects/note.txt"))).toBe("héllo");
    expect([...((await storage.get("objects/bytes.bin")) ?? [])]).toEqual([0, 1, 2, 255]);
    expect(await storage.head("objects/note.txt")).toEqual({ size: 6 });
    await storage.put("objects/note.txt", "replaced");
    expect(text(await storage.get("objects/note.txt"))).toBe("replaced");
  });

  it("answers null for a key that holds nothing", async () => {
    expect(await storage.get("objects/missing.txt")).toBeNull();
    expect(await storage.head("objects/missing.txt")).toBeNull();
  });

  it("lists the objects directly under a folder, newest first", async () => {
    await storage.put("listing/old.txt", "old");
    // S3 keeps modification times to the second, so the two must be a second apart to be ordered.
    await sleep(1100);
    await storage.put("listing/new.json", "{}");
    await storage.put("listing/deeper/inner.txt", "not listed");
    const listed = await storage.list("listing/");
    expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([
      { key: "listing/new.json", size: 2 },
      { key: "listing/old.txt", size: 3 },
    ]);
    expect(
      listed.every((o) => o.modifiedAt instanceof Date && Math.abs(o.modifiedAt.getTime() - Date.now()) < 60_000),
    ).toBe(true);
    expect((await storage.list("listing")).map((o) => o.key)).toEqual(["listing/new.json", "listing/old.txt"]);
    expect(await storage.list("nothing-here/")).toEqual([]);
  });

  it("deletes, and deleting again (or something never stored) is no error", async () => {
    await storage.put("deleting/gone.txt", "x");
    await storage.delete("deleting/gone.txt");
    await storage.delete("deleting/gone.txt");
    await storage.delete("deleting/never.txt");
    expect(await storage.get("deleting/gone.txt")).toBeNull();
    expect(await storage.head("deleting/gone.txt")).toBeNull();
  });

  it("moves an object to a new key, and refuses to move one that does not exist", async () => {
    await storage.put("moving/from.txt", "moved");
    await storage.move("moving/from.txt", "moving/elsewhere/to.txt");
    expect(text(await storage.get("moving/elsewhere/to.txt"))).toBe("moved");
    expect(await storage.get("moving/from.txt")).toBeNull();
    await expect(storage.move("moving/from.txt", "moving/again.txt")).rejects.toThrow();
  });

  it.each(UNSAFE_KEYS)("refuses the unsafe key %s", async (key) => {
    await expect(storage.put(key, "x")).rejects.toThrow(/unsafe/);
    await expect(storage.get(key)).rejects.toThrow(/unsafe/);
    await expect(storage.head(key)).rejects.toThrow(/unsafe/);
    await expect(storage.delete(key)).rejects.toThrow(/unsafe/);
    await expect(storage.move("objects/note.txt", key)).rejects.toThrow(/unsafe/);
    await expect(storage.move(key, "objects/other.txt")).rejects.toThrow(/unsafe/);
    await expect(storage.list(key)).rejects.toThrow(/unsafe/);
    await expect(storage.signedUploadUrl(key, { contentType: "text/plain" })).rejects.toThrow(/unsafe/);
  });

  it.each(UNSAFE_KEYS)("never serves a download of the unsafe key %s", async (key) => {
    // LocalStorage signs such a link and refuses it when used; S3Storage refuses to sign it.
    const link = await storage.signedDownloadUrl(key, "x.txt").catch(() => null);
    if (link) expectRefused(await fetch(subject.absolute(link.url)));
  });

  it("accepts a PUT with the signed content type at a signed upload link", async () => {
    const before = Date.now();
    const link = await storage.signedUploadUrl("uploads/doc.csv", { contentType: "text/csv" });
    expect(link.expiresAt.getTime()).toBeGreaterThan(before + 890_000);
    expect(link.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 900_000);
    const response = await upload(link.url, "a,b\n1,2\n", "text/csv");
    expect(response.status).toBeLessThan(300);
    expect(text(await storage.get("uploads/doc.csv"))).toBe("a,b\n1,2\n");
    expect(await storage.head("uploads/doc.csv")).toEqual({ size: 8 });
  });

  it("refuses an upload of another content type than the signed one", async () => {
    const link = await storage.signedUploadUrl("uploads/typed.pdf", { contentType: "application/pdf" });
    expectRefused(await upload(link.url, "<script>", "text/html"));
    expect(await storage.get("uploads/typed.pdf")).toBeNull();
  });

  it("refuses an upload link whose key was changed", async () => {
    const link = await storage.signedUploadUrl("uploads/granted.txt", { contentType: "text/plain" });
    expectRefused(await upload(retarget(link.url, "uploads/granted.txt", "uploads/stolen.txt"), "x", "text/plain"));
    expect(await storage.get("uploads/stolen.txt")).toBeNull();
    expect(await storage.get("uploads/granted.txt")).toBeNull();
  });

  it("refuses an upload link whose signature was changed", async () => {
    const link = await storage.signedUploadUrl("uploads/tampered.txt", { contentType: "text/plain" });
    expectRefused(await upload(tamper(subject.absolute(link.url), subject.signatureParam), "x", "text/plain"));
    expect(await storage.get("uploads/tampered.txt")).toBeNull();
  });

  it("serves a download link with the bytes and an attachment or inline disposition", async () => {
    await storage.put("files/report.pdf", "%PDF-1.4 report");
    const link = await storage.signedDownloadUrl("files/report.pdf", "Q3 report (final).pdf");
    expect(link.expiresAt.getTime()).toBeGreaterThan(Date.now() + 290_000);
    const response = await fetch(subject.absolute(link.url));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="Q3_report__final_\.pdf"/);
    expect(response.headers.get("content-disposition")).toBe(contentDisposition("Q3 report (final).pdf"));
    expect(await response.text()).toBe("%PDF-1.4 report");
    const inline = await fetch(
      subject.absolute((await storage.signedDownloadUrl("files/report.pdf", "r.pdf", { inline: true })).url),
    );
    expect(inline.headers.get("content-disposition")).toBe('inline; filename="r.pdf"');
    expect(await inline.text()).toBe("%PDF-1.4 report");
  });

  it("refuses a download link whose key or signature was changed", async () => {
    await storage.put("files/mine.txt", "mine");
    await storage.put("files/theirs.txt", "theirs");
    const link = subject.absolute((await storage.signedDownloadUrl("files/mine.txt", "mine.txt")).url);
    expectRefused(await fetch(retarget(link, "files/mine.txt", "files/theirs.txt")));
    expectRefused(await fetch(tamper(link, subject.signatureParam)));
  });

  it("refuses upload and download links once they have expired", async () => {
    await storage.put("files/expiring.txt", "soon gone");
    const download = await storage.signedDownloadUrl("files/expiring.txt", "e.txt", { expiresInSeconds: 1 });
    const uploadLink = await storage.signedUploadUrl("uploads/late.txt", {
      contentType: "text/plain",
      expiresInSeconds: 1,
    });
    // Links expire on whole seconds: after two, a one-second link is past its time however it was cut.
    await sleep(2100);
    expectRefused(await fetch(subject.absolute(download.url)));
    expectRefused(await upload(uploadLink.url, "late", "text/plain"));
    expect(await storage.get("uploads/late.txt")).toBeNull();
  });
});

describe("s3ConfigFromEnv", () => {
  it("is null without a bucket, and reads the rest with defaults", () => {
    expect(s3ConfigFromEnv({ S3_REGION: "eu-west-1" })).toBeNull();
    expect(s3ConfigFromEnv({ S3_BUCKET: "files" })).toEqual({
      bucket: "files",
      region: "us-east-1",
      endpoint: undefined,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      keyPrefix: undefined,
    });
    expect(
      s3ConfigFromEnv({
        S3_BUCKET: "files",
        S3_REGION: "eu-west-1",
        S3_ENDPOINT: "http://minio:9000",
        S3_ACCESS_KEY_ID: "id",
        S3_SECRET_ACCESS_KEY: "secret",
        S3_FORCE_PATH_STYLE: "true",
        S3_KEY_PREFIX: "console",
      }),
    ).toEqual({
      bucket: "files",
      region: "eu-west-1",
      endpoint: "http://minio:9000",
      accessKeyId: "id",
      secretAccessKey: "secret",
      forcePathStyle: true,
      keyPrefix: "console",
    });
  });
});
