import { afterAll, beforeAll, expect, it } from "vitest";
import { freshDatabase, quietLog } from "../../tests/support/test-host";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { jobCatalog, queueNames } from "./catalog";
import { JobQueue } from "./queue";

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
const bossOf = (queue: JobQueue) => (queue as unknown as { boss: Boss }).boss;

it("makes every queue and schedule match the catalog on start, and changes nothing already matching", async () => {
  const first = await JobQueue.start(handle, quietLog);
  const boss = bossOf(first);
  const name = queueNames[0];
  // As an older catalog would have left them.
  await boss.updateQueue(name, { retryLimit: 9 });
  const scheduled = queueNames.find((queue) => jobCatalog[queue].schedule)!;
  await boss.unschedule(scheduled);
  await first.stop();

  const again = await JobQueue.start(handle, quietLog);
  const queues = await bossOf(again).getQueues([...queueNames]);
  expect(queues.map((queue) => queue.name).sort()).toEqual([...queueNames].sort());
  expect(queues.find((queue) => queue.name === name)?.retryLimit).toBe(jobCatalog[name].retryLimit ?? 2);
  expect((await bossOf(again).getSchedules()).find((schedule) => schedule.name === scheduled)?.cron).toBe(
    jobCatalog[scheduled].schedule,
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
    await (await JobQueue.start(handle, quietLog)).stop();
  } finally {
    prototype.updateQueue = update;
  }
  expect(updates).toEqual([]);
}, 60_000);
