import { PgBoss, fromPglite } from "pg-boss";
import type { JobRecord, JobState, JobsList, JobsQuery, QueueSummary } from "@contract";
import { JOB_STATES } from "@contract";
import type { PGlite } from "@electric-sql/pglite";
import { UTC_SESSION_OPTION, withSessionOptions } from "../db/client";
import type { PGliteOnThread } from "../db/pglite-on-thread";
import type { Logger, WorkerDeps } from "../deps";
import { badRequest, notFound } from "../http/errors";
import { jobHandlers } from "./catalog";
import { FinalFailure } from "./final-failure";
import { shownOutput } from "./shown-output";
import type { JobQueue } from "./job-queue";
import { isQueueName, queueDefinitions, queueNames, type PayloadOf, type QueueName } from "./payloads";

/**
 * Jobs of a killed process show `active` until pg-boss notices: workers touch their jobs every
 * half of this, and the supervisor (every SUPERVISE_SECONDS) fails a job not touched for this long,
 * so it is retried elsewhere within about half a minute instead of at its expiry.
 */
const JOB_HEARTBEAT_SECONDS = 20;
const SUPERVISE_SECONDS = 10;

/**
 * The database the queue keeps its jobs in: an opened one, or (for the test suite's template) an
 * embedded one opened on this thread, so its queues are made before the template is written.
 */
export type QueueDatabase =
  { kind: "postgres"; connectionString: string } | { kind: "pglite"; pglite: PGliteOnThread | PGlite };

/**
 * pg-boss on the same database as everything else: durable jobs with retries and schedules, which
 * several worker processes can share on Postgres. On PGlite it runs through pg-boss's own adapter
 * and PGlite's in-process LISTEN/NOTIFY, so jobs start within milliseconds in the embedded default.
 */
export class PgBossJobQueue implements JobQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly log: Logger,
  ) {}

  static async start(handle: QueueDatabase, log: Logger): Promise<PgBossJobQueue> {
    const supervision = { superviseIntervalSeconds: SUPERVISE_SECONDS, monitorIntervalSeconds: SUPERVISE_SECONDS };
    const boss =
      handle.kind === "pglite"
        ? new PgBoss({
            db: fromPglite(handle.pglite as unknown as Parameters<typeof fromPglite>[0]),
            backend: "pglite",
            useListenNotify: true,
            ...supervision,
          })
        : new PgBoss({
            ...withSessionOptions(handle.connectionString, UTC_SESSION_OPTION),
            useListenNotify: true,
            max: 4,
            ...supervision,
          });
    boss.on("error", (error) => log.error("job queue error", error));
    await boss.start();
    // Each start makes the queues match their definitions; a queue already as defined is left
    // alone (two statements a queue on every start were a tenth of the embedded start-up).
    const existing = new Map(
      (await boss.getQueues([...queueNames])).map((queue) => [queue.name, queue as unknown as Record<string, unknown>]),
    );
    const schedules = new Map((await boss.getSchedules()).map((schedule) => [schedule.name, schedule.cron]));
    for (const name of queueNames) {
      const job = queueDefinitions[name];
      const options = {
        retryLimit: job.retryLimit ?? 2,
        retryBackoff: true,
        notify: true,
        heartbeatSeconds: JOB_HEARTBEAT_SECONDS,
        ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}),
      };
      const queue = existing.get(name);
      if (!queue) await boss.createQueue(name, options);
      else if (!Object.entries(options).every(([key, value]) => queue[key] === value))
        await boss.updateQueue(name, options);
      if (job.schedule && schedules.get(name) !== job.schedule) await boss.schedule(name, job.schedule, {});
    }
    return new PgBossJobQueue(boss, log);
  }

  /** Enqueues a job after checking its payload against its queue's definition; `startAfterSeconds` holds it back that long. */
  async send<N extends QueueName>(
    name: N,
    payload: PayloadOf<N>,
    options: { startAfterSeconds?: number } = {},
  ): Promise<string | null> {
    const data = queueDefinitions[name].payload.parse(payload) as object;
    return options.startAfterSeconds
      ? this.boss.send(name, data, { startAfter: options.startAfterSeconds })
      : this.boss.send(name, data);
  }

  /** Starts handlers for every queue in this process. */
  async work(deps: WorkerDeps) {
    for (const name of queueNames) {
      const { payload: schema, dueWithinSeconds } = queueDefinitions[name];
      const handler = jobHandlers[name];
      const polling = dueWithinSeconds ? { notifyPollingIntervalSeconds: dueWithinSeconds } : {};
      let workerId: string | null = null;
      // Per-job results, so a handler's final failure ends its job failed at once (no retries).
      workerId = await this.boss.work(name, { batchSize: 1, perJobResults: true, ...polling }, async ([item]) => {
        try {
          const output = await handler(schema.parse(item.data) as never, deps);
          return [{ id: item.id, status: "completed" as const, output: output ?? {} }];
        } catch (error) {
          if (!(error instanceof FinalFailure)) throw error;
          return [{ id: item.id, status: "deadletter" as const, output: { message: error.message } }];
        } finally {
          // With LISTEN/NOTIFY a worker sleeps up to 30 s after each job, and a notification that
          // arrived while it was busy may already have been spent: waking it keeps it draining the
          // queue (one extra fetch when nothing is left) instead of leaving queued jobs to wait.
          if (workerId) this.boss.notifyWorker(workerId);
        }
      });
    }
  }

  async stop() {
    await this.boss.stop({ graceful: true, timeout: 5000 });
  }

  async isQueued<N extends QueueName>(name: N, data: Partial<PayloadOf<N>>) {
    // A job of a process that died stays active until the queue's heartbeat check sends it again: still on its way.
    const jobs = await this.boss.findJobs(name, { data });
    return jobs.some((job) => job.state === "created" || job.state === "retry" || job.state === "active");
  }

  private sql(text: string, values?: unknown[]) {
    return this.boss.getDb().executeSql(text, values) as Promise<{ rows: Record<string, unknown>[] }>;
  }

  /** Counts by state for every queue, straight from pg-boss's job table. */
  async listQueues(): Promise<QueueSummary[]> {
    const { rows } = await this.sql(
      "select name, state::text as state, count(*)::int as count from pgboss.job group by name, state",
    );
    const schedules = await this.boss.getSchedules();
    return queueNames.map((name) => {
      const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
      for (const row of rows) if (row.name === name) counts[row.state as JobState] = Number(row.count);
      return {
        name,
        description: queueDefinitions[name].description,
        counts,
        total: Object.values(counts).reduce((a, b) => a + b, 0),
        schedule: schedules.find((s) => s.name === name)?.cron ?? null,
        runs_on_demand: queueDefinitions[name].payload.safeParse({}).success,
      };
    });
  }

  async listJobs(query: JobsQuery): Promise<JobsList> {
    if (query.queue && !isQueueName(query.queue)) throw notFound(`No queue named ${query.queue}`);
    const where: string[] = [];
    const values: unknown[] = [];
    // pg-boss keeps queues of its own (the schedule's `__pgboss__send-it`): only ours are listed.
    if (query.queue) where.push(`name = $${values.push(query.queue)}`);
    else where.push(`name = any($${values.push(queueNames)})`);
    if (query.state) where.push(`state::text = $${values.push(query.state)}`);
    const clause = `where ${where.join(" and ")}`;
    const {
      rows: [{ count }],
    } = await this.sql(`select count(*)::int as count from pgboss.job ${clause}`, values);
    const offset = (query.page - 1) * query.page_size;
    // Latest first, and jobs sent by one statement (one created_on) by id: pages by offset of a sort
    // with ties repeat some jobs and leave others out, PostgreSQL ordering tied rows anew for each.
    const { rows } = await this.sql(
      `select id::text, name, state::text as state, data, output, retry_count, retry_limit, created_on, started_on, completed_on
         from pgboss.job ${clause} order by created_on desc, id desc limit ${query.page_size} offset ${offset}`,
      values,
    );
    const total = Number(count);
    return {
      jobs: rows.map(toJobRecord),
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / query.page_size)),
      page: query.page,
    };
  }

  async getJob(queue: string, id: string): Promise<JobRecord> {
    if (!isQueueName(queue)) throw notFound(`No queue named ${queue}`);
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw notFound("Job not found");
    const { rows } = await this.sql(
      `select id::text, name, state::text as state, data, output, retry_count, retry_limit, created_on, started_on, completed_on
         from pgboss.job where name = $1 and id = $2`,
      [queue, id],
    );
    if (!rows[0]) throw notFound("Job not found");
    return toJobRecord(rows[0]);
  }

  /** Puts a failed or cancelled job back in line. */
  async retry(queue: string, id: string) {
    const job = await this.getJob(queue, id);
    if (job.state !== "failed" && job.state !== "cancelled")
      throw badRequest(`Only failed or cancelled jobs can be retried; this one is ${job.state}`);
    if (job.state === "cancelled") await this.boss.resume(queue, id);
    else await this.boss.retry(queue, id);
    this.log.info(`job ${id} of ${queue} queued again`);
  }

  async cancel(queue: string, id: string) {
    const job = await this.getJob(queue, id);
    if (!["created", "retry", "active"].includes(job.state))
      throw badRequest(`Only waiting or running jobs can be cancelled; this one is ${job.state}`);
    await this.boss.cancel(queue, id);
  }

  /** Runs a job now (the dashboard's "Run now"). */
  async runNow(queue: string, data: Record<string, unknown>) {
    if (!isQueueName(queue)) throw notFound(`No queue named ${queue}`);
    const parsed = queueDefinitions[queue].payload.safeParse(data);
    if (!parsed.success)
      throw badRequest("This payload does not fit the queue", { data: parsed.error.issues.map((i) => i.message) });
    return this.send(queue, parsed.data as never);
  }
}

const iso = (value: unknown) => (value == null ? null : new Date(value as string).toISOString());

function toJobRecord(row: Record<string, unknown>): JobRecord {
  return {
    id: String(row.id),
    queue: String(row.name),
    state: row.state as JobState,
    data: row.data ?? null,
    output: shownOutput(row.output, String(row.state)),
    retry_count: Number(row.retry_count),
    retry_limit: Number(row.retry_limit),
    created_on: iso(row.created_on)!,
    started_on: iso(row.started_on),
    completed_on: iso(row.completed_on),
  };
}
