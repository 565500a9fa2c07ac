import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase, quietLog } from "../../tests/support/test-host";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { queueDefinitions, queueNames } from "./payloads";
import { PgBossJobQueue } from "./queue";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let handle: DatabaseHandle;

beforeAll(async () => {
  database = await freshDatabase();
  handle = await openDatabase(database.options);
});
afterAll(async () => {
  await handle.close();
  await database.drop();
});

type Boss = {
  getQueues(names: string[]): Promise<{ name: string; retryLimit: number }[]>;
  getSchedules(): Promise<{ name: string; cron: string }[]>;
  updateQueue(name: string, options: object): Promise<void>;
  unschedule(name: string): Promise<void>;
};
const bossOf = (queue: PgBossJobQueue) => (queue as unknown as { boss: Boss }).boss;

it("makes every queue and schedule match the catalog on start, and changes nothing already matching", async () => {
  const first = await PgBossJobQueue.start(handle, quietLog);
  const boss = bossOf(first);
  const name = queueNames[0];
  // As an older catalog would have left them.
  await boss.updateQueue(name, { retryLimit: 9 });
  const scheduled = queueNames.find((queue) => queueDefinitions[queue].schedule)!;
  await boss.unschedule(scheduled);
  await first.stop();

  const again = await PgBossJobQueue.start(handle, quietLog);
  const queues = await bossOf(again).getQueues([...queueNames]);
  expect(queues.map((queue) => queue.name).sort()).toEqual([...queueNames].sort());
  expect(queues.find((queue) => queue.name === name)?.retryLimit).toBe(queueDefinitions[name].retryLimit ?? 2);
  expect((await bossOf(again).getSchedules()).find((schedule) => schedule.name === scheduled)?.cron).toBe(
    queueDefinitions[scheduled].schedule,
  );
  await again.stop();

  const updates: string[] = [];
  const prototype = Object.getPrototypeOf(boss) as Boss;
  const update = prototype.updateQueue;
  prototype.updateQueue = function (this: Boss, queue: string, options: object) {
    updates.push(queue);
    return update.call(this, queue, options);
  };
  try {
    await (await PgBossJobQueue.start(handle, quietLog)).stop();
  } finally {
    prototype.updateQueue = update;
  }
  expect(updates).toEqual([]);
}, 60_000);
