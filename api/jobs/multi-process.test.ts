/**
 * Several processes on one PostgreSQL, as a deployment runs them: two web servers (server.ts with
 * RUN_WORKERS=false) and two `npm run worker` processes, all started at once on a new database,
 * files in S3 (the local S3 server). The Postgres lane only; server.ts serves the built console,
 * so `npm run build` comes first (CI builds before this lane).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client";
import { chunks, clientApps, insightQuestions, knowledgeFiles, messages, urls, urlStatusCounts } from "../db/schema";
import { chunkBlocks } from "../knowledge/index/chunk";
import { extractPdf } from "../knowledge/extract/extract-pdf";
import { makePdf } from "../../tests/support/pdf";
import { S3RVER_KEY, startS3Server } from "../../tests/support/s3-server";
import { freshDatabase } from "../../tests/support/test-host";
import { until } from "../../tests/support/wait";

const PAGES = 40;
const FILES = 6;
const CHATS = 20;

/** A website of PAGES pages that answer after a short delay, counting every fetch of each path. */
async function startCountingSite() {
  const fetches = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://site").pathname;
    fetches.set(pathname, (fetches.get(pathname) ?? 0) + 1);
    const match = /^\/page-(\d+)$/.exec(pathname);
    if (!match) return res.writeHead(404).end();
    const n = Number(match[1]);
    const html =
      `<html><head><title>Program ${n} | Northfield</title></head><body><main><h1>Program ${n}</h1>` +
      `<p>Program ${n} takes ${(n % 5) + 2} years. Its tuition is ${1000 + n * 10} dollars per semester, and classes meet in hall ${n}.</p></main></body></html>`;
    setTimeout(() => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html), 150);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, fetches, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function freePort() {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts a process and resolves once it prints `ready`; its output is kept for a failure's message. */
function startProcess(script: string, env: Record<string, string>, ready: string) {
  // node with tsx as a loader (no wrapper), so the stop signal reaches the process itself.
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const started = new Promise<ChildProcess>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve(child);
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) =>
      reject(new Error(`${script} exited (${code}) before it was ready:\n${output.slice(-2000)}`)),
    );
  });
  return { child, started };
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const forceKill = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(forceKill);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  "two web processes and two workers on one PostgreSQL, files in S3",
  () => {
    let database: Awaited<ReturnType<typeof freshDatabase>>;
    let handle: DatabaseHandle;
    let s3: Awaited<ReturnType<typeof startS3Server>>;
    let site: Awaited<ReturnType<typeof startCountingSite>>;
    let dataDir: string;
    const children: ChildProcess[] = [];
    const webs: string[] = [];
    let token: string;
    let appId: number;

    /** Calls the API of web process `web` (0 or 1) like a client would. */
    async function call(web: number, method: string, route: string, body?: unknown) {
      const response = await fetch(`${webs[web]}${route}`, {
        method,
        headers: {
          accept: "application/json",
          origin: webs[web],
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { "content-type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    }

    beforeAll(async () => {
      if (!existsSync("build/index.js"))
        throw new Error("server.ts serves the built console: run `npm run build` first");
      database = await freshDatabase();
      s3 = await startS3Server("console");
      site = await startCountingSite();
      dataDir = mkdtempSync(path.join(tmpdir(), "console-multi-"));
      const shared = {
        DATABASE_URL: (database.options as { url: string }).url,
        DATA_DIR: dataDir,
        API_URL: "",
        SESSION_SECRET: "multi-process-session",
        API_JWT_SECRET: "multi-process-jwt",
        S3_BUCKET: "console",
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: S3RVER_KEY,
        S3_SECRET_ACCESS_KEY: S3RVER_KEY,
        S3_FORCE_PATH_STYLE: "true",
        CRAWL_ALLOW_PRIVATE: "true",
        CHAT_RATE_LIMIT_PER_MINUTE: "10000",
      };
      const ports = [await freePort(), await freePort()];
      // All four at once on an empty database: they migrate and seed it together.
      const starting = [
        ...ports.map((port) =>
          startProcess(
            "server.ts",
            { ...shared, PORT: String(port), HOST: "127.0.0.1", RUN_WORKERS: "false" },
            "Console ready on",
          ),
        ),
        ...[0, 1].map(() =>
          startProcess("api/jobs/worker.ts", { ...shared, PORT: String(ports[0]) }, "[worker] handling jobs"),
        ),
      ];
      children.push(...starting.map((s) => s.child));
      await Promise.all(starting.map((s) => s.started));
      webs.push(...ports.map((port) => `http://127.0.0.1:${port}`));
      handle = await openDatabase({ url: shared.DATABASE_URL });
      token = (await call(0, "POST", "/auth/dev", { email: "admin@example.com" })).body.user_token;
      appId = (await handle.db.select().from(clientApps).where(eq(clientApps.urlCode, "northfield")))[0].id;
    }, 240_000);

    afterAll(async () => {
      await Promise.all(children.map(stopProcess));
      await handle?.close();
      await database?.drop();
      await s3?.close();
      await site?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    it("seeds once, though four processes started on the empty database together", async () => {
      const [{ n }] = await handle.db
        .select({ n: sql<number>`count(*)::int` })
        .from(clientApps)
        .where(eq(clientApps.urlCode, "northfield"));
      expect(Number(n)).toBe(1);
    });

    it("indexes a website asked for through both web processes: every page fetched once, counts exact", async () => {
      const pages = Array.from({ length: PAGES }, (_, i) => `${site.base}/page-${i}`);
      const created = await call(0, "POST", `/v1/apps/${appId}/websites/create_and_update`, {
        websites: [{ app_id: appId, url: pages[0], site_map: "few_urls", urls: pages }],
      });
      expect(created.status).toBe(200);
      const websiteId = created.body.websites[0].id as number;
      const ids = await until("the website's URLs", async () => {
        const list = await call(1, "GET", `/v1/apps/${appId}/websites/${websiteId}/urls?page_size=100`);
        return list.body.total === PAGES && (list.body.data as { id: number }[]).map((u) => u.id);
      });
      // Two requests, one through each web process: two jobs, which the two workers run side by side.
      const halves = [ids.slice(0, PAGES / 2), ids.slice(PAGES / 2)];
      const asked = await Promise.all(
        halves.map((half, web) =>
          call(web, "POST", `/v1/apps/${appId}/websites/${websiteId}/urls/update_status`, {
            status: "to_be_indexed",
            url_ids: half,
          }),
        ),
      );
      expect(asked.map((a) => a.status)).toEqual([200, 200]);
      await until(
        "every page indexed",
        async () => {
          const rows = await handle.db.select({ status: urls.status }).from(urls).where(eq(urls.websiteId, websiteId));
          return rows.every((r) => r.status === "indexed");
        },
        90_000,
      );

      for (let i = 0; i < PAGES; i++) expect(site.fetches.get(`/page-${i}`), `fetches of /page-${i}`).toBe(1);
      const stored = await handle.db
        .select({ urlId: chunks.urlId, position: chunks.position })
        .from(chunks)
        .innerJoin(urls, eq(urls.id, chunks.urlId))
        .where(eq(urls.websiteId, websiteId));
      expect(stored.length).toBe(PAGES);
      expect(new Set(stored.map((c) => c.urlId)).size).toBe(PAGES);
      // The counters kept by triggers under both workers' concurrent statements match the rows.
      const counted = await handle.db
        .select()
        .from(urlStatusCounts)
        .where(and(eq(urlStatusCounts.websiteId, websiteId), sql`${urlStatusCounts.n} <> 0`));
      expect(counted.map((c) => [c.status, c.n])).toEqual([["indexed", PAGES]]);
    });

    it("indexes uploaded files once each, though every upload is completed through both web processes at once", async () => {
      const pdfs = Array.from({ length: FILES }, (_, f) =>
        makePdf(
          [[`Guide ${f}: scholarships of ${f * 100} dollars`, "Apply before March."], [`Page two of guide ${f}.`]],
          `Guide ${f}`,
        ),
      );
      const presigned = await call(0, "POST", `/v1/files/presigned_urls?app_id=${appId}`, {
        file_names: pdfs.map((_, f) => `guide-${f}.pdf`),
      });
      expect(presigned.status).toBe(200);
      const targets = presigned.body.presigned_urls as { url: string; url_id: number; s3_path: string }[];
      for (const [f, target] of targets.entries()) {
        const put = await fetch(target.url, {
          method: "PUT",
          headers: { "content-type": "application/pdf" },
          body: new Uint8Array(pdfs[f]),
        });
        expect(put.status).toBe(200);
      }
      // A double submit reaching both web processes: the file is accepted and indexed once.
      const completed = await Promise.all(
        targets.flatMap((target) =>
          [0, 1].map((web) =>
            call(web, "POST", "/v1/files/complete_upload", { url_id: target.url_id, s3_path: target.s3_path }),
          ),
        ),
      );
      expect(completed.map((c) => c.status)).toEqual(completed.map(() => 200));
      const files = await until(
        "every file indexed",
        async () => {
          const rows = await handle.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.appId, appId));
          return rows.length === FILES && rows.every((r) => r.status === "indexed") && rows;
        },
        90_000,
      );

      for (const [f, target] of targets.entries()) {
        const file = files.find((r) => r.id === target.url_id)!;
        const reads = s3.requests.filter((r) => r === `GET /console/${file.storageKey}`);
        expect(reads.length, `reads of ${file.storageKey}`).toBe(1);
        // The same chunks one process makes of the same PDF.
        const expected = chunkBlocks((await extractPdf(pdfs[f], `guide-${f}`)).blocks);
        const stored = await handle.db
          .select({ text: chunks.text })
          .from(chunks)
          .where(eq(chunks.fileId, file.id))
          .orderBy(chunks.position);
        expect(stored.map((c) => c.text)).toEqual(expected.map((c) => c.text));
      }
    });

    it("answers chats through both web processes alike, and counts every one", async () => {
      const key = (await call(0, "GET", `/v1/bot_installs?app_id=${appId}&env=stage&app_name=admissions`)).body
        .key as string;
      const ask = async (web: number, message: string) => {
        const response = await fetch(`${webs[web]}/v1/chat`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: webs[web] },
          body: JSON.stringify({ key, trigger_point: "admissions", message }),
        });
        const events = (await response.text())
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line) as { type: string; text?: string });
        return events
          .filter((e) => e.type === "delta")
          .map((e) => e.text)
          .join("");
      };
      // Counted by this test's questions alone: the demo's visitors may chat with the same agent meanwhile.
      const ours = "what is the tuition of program %";
      const counted = async () => {
        const [row] = await handle.db
          .select({ asked: sql<number>`coalesce(sum(${insightQuestions.asked}), 0)::int` })
          .from(insightQuestions)
          .where(and(eq(insightQuestions.appId, appId), sql`${insightQuestions.questionKey} like ${ours}`));
        return Number(row.asked);
      };
      const before = await counted();
      const questions = Array.from({ length: CHATS }, (_, i) => `What is the tuition of program ${i % (CHATS / 2)}?`);
      const answers = await Promise.all(questions.map((question, i) => ask(i % 2, question)));
      for (let i = 0; i < CHATS / 2; i++) {
        // The same question asked once of each web process.
        expect(answers[i], questions[i]).toContain(`${1000 + i * 10} dollars`);
        expect(answers[i + CHATS / 2]).toBe(answers[i]);
      }
      expect((await counted()) - before).toBe(CHATS);
      const [{ n }] = await handle.db
        .select({ n: sql<number>`count(*)::int` })
        .from(messages)
        .where(and(eq(messages.role, "user"), sql`${messages.text} like 'What is the tuition of program %'`));
      expect(Number(n)).toBe(CHATS);
    });
  },
);
