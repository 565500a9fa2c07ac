import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { apiConfigFromEnv, type ApiConfig } from "../../api/config";
import type { Logger } from "../../api/deps";
import { startApiHost } from "../../api/host";
import { freshDatabase, TEST_SECRETS } from "./test-host";

/**
 * A TCP relay between the code under test and its PostgreSQL server, which a test takes down to
 * play a database that goes away: `down()` ends every connection and drops each new one until
 * `up()` (a restart, a failover); `stallOn(text)` stops passing on what clients send from the first
 * statement that contains `text`, so it and every later one hang in flight, until `cutConnections()`
 * ends them all while new connections go through again.
 */
export async function startDatabaseRelay(databaseUrl: string) {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let refusing = false;
  /** Text whose statement stalls the relay, and whether one was sent. */
  let stallText: string | null = null;
  let stalled = false;
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.on("data", (chunk: Buffer) => {
      // Postgres' protocol carries a statement's text in the clear.
      if (stallText && chunk.toString("latin1").includes(stallText)) stalled = true;
      if (!stalled) upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  const endAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    url: url.toString(),
    down() {
      refusing = true;
      stallText = null;
      stalled = false;
      endAll();
    },
    up() {
      refusing = false;
    },
    stallOn(text: string) {
      stallText = text;
    },
    /** Whether a statement `stallOn` names was sent, and is held with every one after it. */
    stalled: () => stalled,
    cutConnections() {
      stallText = null;
      stalled = false;
      endAll();
    },
    close: () =>
      new Promise<void>((resolve) => {
        endAll();
        server.close(() => resolve());
      }),
  };
}

/**
 * A test API host on the PostgreSQL lane's server, reached through a relay the test takes down.
 * What the job queue and the workers' lease report while the database is away is kept in `logged`,
 * not printed (a test fails on console.error).
 */
export async function startTestHostOverRelay(overrides: Partial<ApiConfig> = {}) {
  const database = await freshDatabase();
  const relay = await startDatabaseRelay((database.options as { url: string }).url);
  const storageDir = mkdtempSync(path.join(tmpdir(), "console-relay-"));
  const logged: string[] = [];
  const log: Logger = {
    info: () => {},
    warn: (message) => logged.push(message),
    error: (message, ...rest) => logged.push(`${message} ${rest.map(String).join(" ")}`),
  };
  const host = await startApiHost({
    database: { url: relay.url },
    storageDir,
    config: { ...apiConfigFromEnv({}, TEST_SECRETS), demoSiteUrl: null, ...overrides },
    log,
  });
  return {
    host,
    relay,
    logged,
    close: async () => {
      relay.cutConnections();
      relay.up();
      await host.close();
      await relay.close();
      await database.drop();
      rmSync(storageDir, { recursive: true, force: true });
    },
  };
}
