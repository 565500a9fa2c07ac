import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalStorage } from "./storage";

const root = mkdtempSync(path.join(tmpdir(), "local-storage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const storage = new LocalStorage(root, "secret");

describe("LocalStorage", () => {
  it("has no object where there is a folder, or a path through a file", async () => {
    await storage.put("logos/northfield.png", "png");
    expect(await storage.get("logos")).toBeNull();
    expect(await storage.get("logos/northfield.png/inside")).toBeNull();
  });

  it("takes eight writes of one key at once; the object is one of them, whole", async () => {
    const bodies = Array.from({ length: 8 }, (_, i) => `report ${i} `.repeat(10_000));
    const results = await Promise.allSettled(bodies.map((body) => storage.put("reports/northfield/leads.csv", body)));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill("fulfilled"));
    expect(bodies).toContain((await storage.get("reports/northfield/leads.csv"))!.toString());
    expect((await storage.list("reports/northfield")).map((o) => o.key)).toEqual(["reports/northfield/leads.csv"]);
  });
});
