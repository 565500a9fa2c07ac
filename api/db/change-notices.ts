import pg from "pg";
import type { Logger } from "../deps";
import type { DatabaseHandle } from "./client";

/** The channel migration 0016's triggers notify after every statement that wrote to a console table. */
export const CHANGE_CHANNEL = "console_changed";

/** How long a lost listening connection waits before it tries again. */
const RECONNECT_MS = 1_000;

export interface ChangeNotices {
  /**
   * Whether notices are arriving. While the listening connection is down nothing can be known
   * unchanged, so whoever relies on the notices must not rely on anything it kept.
   */
  readonly live: boolean;
  stop(): Promise<void>;
}

/**
 * Calls `onChange` after each statement that wrote to one of the console's tables, from this
 * process or any other on the same database (migration 0016), and whenever the listening
 * connection is lost or back (notices sent meanwhile are gone).
 */
export async function listenForChanges(handle: DatabaseHandle, onChange: () => void, log: Logger): Promise<ChangeNotices> {
  if (handle.kind === "pglite") {
    // One process owns an embedded database; PGlite delivers a notice before the statement's result.
    const unlisten = await handle.pglite.listen(CHANGE_CHANNEL, () => onChange());
    return { live: true, stop: unlisten };
  }
  const listener = new PostgresChangeListener(handle.connectionString, onChange, log);
  await listener.connect();
  return listener;
}

/** A connection of its own, outside the pool: LISTEN holds it for the life of the process. */
class PostgresChangeListener implements ChangeNotices {
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly connectionString: string, private readonly onChange: () => void, private readonly log: Logger) {}

  get live() {
    return this.client !== null;
  }

  async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on("notification", (notice) => {
      if (notice.channel === CHANGE_CHANNEL) this.onChange();
    });
    client.on("error", (error) => {
      this.log.warn(`[db] change notices interrupted: ${error.message}`);
      this.lost(client);
    });
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (error) {
      this.log.warn(`[db] change notices unavailable: ${(error as Error).message}`);
      await client.end().catch(() => {});
      this.again();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.onChange();
  }

  private lost(client: pg.Client) {
    if (this.client !== client) return;
    this.client = null;
    this.onChange();
    client.end().catch(() => {});
    this.again();
  }

  private again() {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  async stop() {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }
}
