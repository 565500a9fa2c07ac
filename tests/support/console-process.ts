import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * The built console (`build/server/server.mjs`, as tests/e2e/start-servers.ts starts it) in a child
 * process: a request that exhausts memory or crashes the server then ends that process, not the
 * test that reports it, and a stalled event loop shows as a /healthz that does not answer.
 */
/**
 * The environment of a console of its own for one spec: production mode, development sign-in, the
 * embedded database in `dataDir`, on `port` of 127.0.0.1, with its own secrets; `overrides` last.
 */
export function ownConsoleEnv(
  dataDir: string,
  port: number,
  overrides: Record<string, string> = {},
): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    AUTH_DEV_LOGIN: "true",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    API_URL: "",
    HOST: "127.0.0.1",
    PORT: String(port),
    SESSION_SECRET: `e2e-session-${port}`,
    API_JWT_SECRET: `e2e-jwt-${port}`,
    ...overrides,
  };
}

export interface ConsoleProcess {
  url: string;
  /** Whether the process has exited (crashed, killed, out of memory). */
  exited: () => boolean;
  /** What it said last (errors first): why it died. */
  lastOutput: () => string;
  /** Asks it to close (database included), killing it if it does not within 15 s. */
  stop: () => Promise<void>;
  /** Ends it at once: for a server that no longer answers. */
  kill: () => Promise<void>;
}

// CommonJS with a dynamic import: `--input-type=module` would be inherited by the server's worker
// threads, whose entries are files.
const CHILD_SOURCE = (serverModule: string) => `
(async () => {
  const { startServer } = await import(${JSON.stringify(serverModule)});
  const running = await startServer(process.env);
  process.send({ url: running.url });
  const stop = async () => { await running.close(); process.exit(0); };
  process.on("message", (message) => { if (message === "stop") void stop(); });
  // The test's process is gone (the channel closed): nobody will stop this server otherwise.
  process.on("disconnect", () => void stop());
})().catch((error) => { console.error(error); process.exit(1); });
`;

export async function startConsoleProcess(
  env: NodeJS.ProcessEnv,
  options: { heapMb: number; startTimeoutMs: number },
): Promise<ConsoleProcess> {
  const serverModule = pathToFileURL(path.resolve("build/server/server.mjs")).href;
  const child: ChildProcess = spawn(
    process.execPath,
    [`--max-old-space-size=${options.heapMb}`, "--eval", CHILD_SOURCE(serverModule)],
    {
      env,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    },
  );
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    output.splice(0, Math.max(0, output.length - 40));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the console did not start within ${options.startTimeoutMs} ms:\n${output.join("\n")}`));
    }, options.startTimeoutMs);
    child.once("message", (message: { url: string }) => (clearTimeout(timer), resolve(message.url)));
    void exit.then(
      () => (clearTimeout(timer), reject(new Error(`the console exited while starting:\n${output.join("\n")}`))),
    );
  });
  return {
    url,
    exited: () => exited,
    // The fatal lines (an out-of-memory abort is followed by a native stack of no interest).
    lastOutput: () => {
      const errors = output.filter((line) => /FATAL|Error\b|heap|Aborted/i.test(line));
      return (errors.length ? errors : output).slice(-3).join(" | ");
    },
    stop: async () => {
      if (exited) return;
      child.send("stop");
      const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exit;
      clearTimeout(killer);
    },
    kill: async () => {
      if (exited) return;
      child.kill("SIGKILL");
      await exit;
    },
  };
}
