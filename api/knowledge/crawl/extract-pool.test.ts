import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { closeExtractPool, extractInPool } from "./extract-pool";

/** Each thread of this process with its nice value (the 19th field of its stat line, after the name). */
function threadNiceness() {
  return readdirSync("/proc/self/task").map((id) => {
    const stat = readFileSync(`/proc/self/task/${id}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { id: Number(id), nice: Number(fields[16]) };
  });
}

describe.runIf(process.platform === "linux")("the extraction pool's threads", () => {
  afterAll(() => closeExtractPool());

  it("run below the process's priority, so pages, API calls and questions go first", async () => {
    // Threads an earlier test file's hosts started are still there (hosts leave the pool to the process).
    await closeExtractPool();
    const before = threadNiceness();
    const processNice = before.find((thread) => thread.id === process.pid)!.nice;
    const page = await extractInPool({
      html: "<html><head><title>Visits</title></head><body><main><h1>Visits</h1><p>Campus tours run every weekday at ten and at two, starting from the welcome centre.</p></main></body></html>",
      rules: {},
    });
    expect(page.title).toBe("Visits");
    expect(page.hasText).toBe(true);
    const started = threadNiceness().filter((thread) => !before.some((known) => known.id === thread.id));
    expect(started.map((thread) => thread.nice)).toContain(Math.min(19, processNice + 10));
  });
});
