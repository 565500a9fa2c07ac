import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { apiConfigFromEnv, type ApiConfig } from "../../api/config";
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from "../../api/db/client";
import { agents, appUsers, clientApps, conversations, users, visitorProfiles } from "../../api/db/schema";
import { startApiHost, type ApiHost } from "../../api/host";
import type { Logger } from "../../api/deps";

export const quietLog: Logger = { info: () => {}, warn: () => {}, error: (...args) => console.error(...args) };

/**
 * A PGlite database in a folder of its own whose sessions start in `timeZone` (its configuration
 * file's setting, as a self-hosted server's follows the host's), removed by `drop()`. Made anew,
 * not from the template: ~2 s more.
 */
async function pgliteInTimeZone(timeZone: string): Promise<{ options: DatabaseOptions; drop: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), "console-test-zone-"));
  await (await PGlite.create({ dataDir: dir })).close();
  const conf = path.join(dir, "postgresql.conf");
  writeFileSync(conf, `${readFileSync(conf, "utf8")}\ntimezone = '${timeZone}'\n`);
  return { options: { dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh database for one test file: in-memory PGlite by default, or (with TEST_DATABASE_URL)
 * a new database on that Postgres server, dropped again by `close()`. With `timeZone`, the
 * database's own default session time zone is that one.
 */
export async function freshDatabase(
  options: { timeZone?: string } = {},
): Promise<{ options: DatabaseOptions; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl && options.timeZone) return pgliteInTimeZone(options.timeZone);
  // In memory, from the run's migrated template when Vitest's global set-up wrote one.
  if (!serverUrl) return { options: { from: process.env.TEST_DATABASE_TEMPLATE }, drop: async () => {} };
  // The lane's run id keeps concurrent lanes from dropping each other's databases.
  const name = `console_test_${process.env.TEST_RUN_ID ?? "x"}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  if (options.timeZone) await admin.query(`alter database ${name} set timezone = '${options.timeZone}'`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    options: { url: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * A test file's own database, opened and migrated (freshDatabase's: PGlite, or the Postgres lane's
 * server); `close()` closes it and drops it.
 */
export async function openFreshDatabase(): Promise<{ handle: DatabaseHandle; close: () => Promise<void> }> {
  const database = await freshDatabase();
  const handle = await openDatabase(database.options);
  return {
    handle,
    close: async () => {
      await handle.close();
      await database.drop();
    },
  };
}

export const TEST_SECRETS = { sessionSecrets: ["test-session-secret"], jwtSecret: "test-jwt-secret" };

/**
 * `work: false` leaves jobs unhandled (queued runs stay queued), for tests of what is queued;
 * `timeZone` makes the database's default session time zone that one (freshDatabase).
 */
export async function startTestHost(
  overrides: Partial<ApiConfig> = {},
  env: Record<string, string> = {},
  options: { work?: boolean; timeZone?: string } = {},
): Promise<ApiHost & { url?: string }> {
  const database = await freshDatabase({ timeZone: options.timeZone });
  const storageDir = mkdtempSync(path.join(tmpdir(), "console-test-files-"));
  const host = await startApiHost({
    database: database.options,
    storageDir,
    work: options.work,
    // No demo website or demo data models: tests add what they need, and nothing crawls a port no test controls.
    // Test files sign in over and over: the sign-in limits get their own tests.
    config: {
      ...apiConfigFromEnv(env, TEST_SECRETS),
      demoSiteUrl: null,
      signInLimits: { perAddressPerMinute: 10_000, perAccountPerMinute: 10_000 },
      ...overrides,
    },
    log: quietLog,
  });
  return {
    ...host,
    close: async () => {
      await host.close();
      await database.drop();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}

/**
 * An agent as kept from before site codes were required (the API now refuses one without): its
 * screens are found by its name.
 */
export async function addAgentWithoutSiteCode(host: ApiHost, appId: number, name: string) {
  await host.deps.db.insert(agents).values({ appId, name });
}

/**
 * Profiles of the client with url code `urlCode` as the assistant would have captured them, each
 * in its own conversation a minute after the one before: many at once, without the chat's work.
 */
export async function addCapturedProfiles(host: ApiHost, urlCode: string, emails: string[]) {
  const appId = (await host.deps.db.select().from(clientApps)).find((a) => a.urlCode === urlCode)!.id;
  for (const [n, email] of emails.entries()) {
    const id = randomUUID();
    const at = new Date(Date.UTC(2026, 2, 10, 9, n));
    await host.deps.db
      .insert(conversations)
      .values({ id, appId, environment: "prod", triggerPoint: "", startedAt: at, lastMessageAt: at });
    await host.deps.db.insert(visitorProfiles).values({ conversationId: id, appId, values: { email }, isLead: true });
  }
}

/** A person who is Client Admin of `count` new clients at once, without the screens' work. */
export async function addAdminOfManyClients(host: ApiHost, person: { email: string; name: string }, count: number) {
  const [user] = await host.deps.db
    .insert(users)
    .values({ ...person, userType: "user" })
    .returning();
  const apps = await host.deps.db
    .insert(clientApps)
    .values(Array.from({ length: count }, (_, n) => ({ clientName: `Client ${n}`, urlCode: `client-${n}` })))
    .returning();
  await host.deps.db
    .insert(appUsers)
    .values(apps.map((app) => ({ appId: app.id, userId: user.id, role: "client_admin", name: person.name })));
  return user;
}

/** The text of a file the API answered a download link for (an export's `download_url`), fetched through the host. */
export async function downloadedText(host: ApiHost, downloadUrl: string) {
  const link = new URL(downloadUrl, "http://localhost");
  return (await host.api.request(link.pathname + link.search)).text();
}

/** Calls the in-process API like a client would. */
export function apiCaller(host: ApiHost) {
  return async (method: string, path: string, options: { token?: string; body?: unknown; rawBody?: string } = {}) => {
    const headers: Record<string, string> = { accept: "application/json" };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined || options.rawBody !== undefined) headers["content-type"] = "application/json";
    const response = await host.api.request(path, {
      method,
      headers,
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

export async function signInAs(host: ApiHost, email: string) {
  const call = apiCaller(host);
  const { status, body } = await call("POST", "/auth/dev", { body: { email } });
  if (status !== 200) throw new Error(`dev sign-in as ${email} failed: ${status} ${JSON.stringify(body)}`);
  return body as { user_token: string; refresh_token: string };
}

/**
 * The seed's three people signed in (System Admin, Northfield's Client Admin and its read-only
 * Client) and the ids of the two demo clients: Northfield, and Harbor, the other client whose ids
 * tests send through Northfield's paths.
 */
export async function demoCallers(host: ApiHost) {
  const admin = (await signInAs(host, "admin@example.com")).user_token;
  const clientAdmin = (await signInAs(host, "client.admin@example.com")).user_token;
  const clientUser = (await signInAs(host, "client.user@example.com")).user_token;
  const apps = await host.deps.db.select().from(clientApps);
  const northfield = apps.find((app) => app.urlCode === "northfield")!.id;
  const harbor = apps.find((app) => app.urlCode !== "northfield")!.id;
  return { admin, clientAdmin, clientUser, northfield, harbor };
}
