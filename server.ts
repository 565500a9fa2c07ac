/**
 * The composition root: builds the API host (database, jobs, routes) and the Remix console, and
 * serves both from one Express server. `npm start` runs this file.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { constants as zlibConstants } from "node:zlib";
import { getRequestListener } from "@hono/node-server";
import { createRequestHandler } from "@remix-run/express";
import type { ServerBuild } from "@remix-run/node";
import compression from "compression";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import { CallerScope, type ConsoleCallEnv } from "./api/auth/caller";
import { demoSitemap } from "./api/db/demo-site";
import { beginAnswering } from "./api/db/foreground";
import {
  GOOGLE_DEFAULTS,
  apiConfigFromEnv,
  devSignInEnabled,
  isGoogleItself,
  loadRuntimeSecrets,
  publicUrlOf,
  signInLimitsFromEnv,
} from "./api/config";
import { Throttle } from "./api/http/throttle";
import { startApiHost, type ApiHost } from "./api/host";
import { type ConsoleConfig, type ConsoleContext } from "./app/server/context.server";
import { withGetOnlyRefusals } from "./app/server/http/get-only-routes.server";
import { withUnavailableAnswers } from "./app/server/http/unavailable-answers.server";
import { answerClientErrorsInWords } from "./app/server/http/client-errors.server";
import { answerRouterErrorsInWords } from "./app/server/http/router-errors.server";
import { closeInStages } from "./app/server/http/lingering-close.server";
import { refuseCrossSiteWrites } from "./app/server/http/same-origin.server";
import { secureCookiesOverHttps } from "./app/server/http/secure-cookies.server";
import { namedHostsOf, refuseUnknownHosts } from "./app/server/http/allowed-hosts.server";
import { securityHeaders, type SecurityHeaderOptions } from "./app/server/http/security-headers.server";
import { requestScopeOf, serverTiming, timedApiFetch } from "./app/server/http/server-timing.server";
import { remoteApiFetch, remoteStoragePassThrough } from "./app/server/http/remote-api.server";

type Env = Record<string, string | undefined>;

export interface RunningServer {
  url: string;
  host: ApiHost | null;
  close: () => Promise<void>;
}

export function consoleConfigFromEnv(env: Env, sessionSecrets: string[]): ConsoleConfig {
  const mode = env.BACKOFFICE_MODE === "production" || env.BACKOFFICE_MODE === "staging" ? env.BACKOFFICE_MODE : "dev";
  return {
    sessionSecrets,
    google:
      env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET
        ? {
            clientId: env.GOOGLE_CLIENT_ID,
            clientSecret: env.GOOGLE_CLIENT_SECRET,
            authorizationUrl: env.GOOGLE_AUTHORIZATION_URL ?? GOOGLE_DEFAULTS.authorizationUrl,
          }
        : null,
    // The same rule as the API's POST /auth/dev.
    devLogin: devSignInEnabled(env),
    backoffice: {
      mode,
      templates: {
        production: env.BACKOFFICE_URL_PRODUCTION || undefined,
        staging: env.BACKOFFICE_URL_STAGING || undefined,
        dev: env.BACKOFFICE_URL_DEV || undefined,
      },
    },
  };
}

/**
 * Production unless development is asked for by name: development mode answers errors with stack
 * traces and file paths, which only a developer's own machine should see.
 */
export function remixModeOf(env: Env): "production" | "development" {
  return env.NODE_ENV === "development" ? "development" : "production";
}

/**
 * Express's `trust proxy` from TRUST_PROXY: proxy addresses or subnets (`loopback`,
 * `10.0.0.0/8, 203.0.113.7`), or a number of hops. `true` would believe every address in
 * X-Forwarded-For, so anyone could pick the address the rate limits count: it is read as one hop
 * (the proxy right in front of this server), as Express recommends for a single proxy.
 */
export function trustProxySetting(value: string | undefined): string | number | null {
  const setting = value?.trim();
  if (!setting || setting === "false") return null;
  if (setting === "true") {
    console.warn(
      "[console] TRUST_PROXY=true is read as one hop: name the proxy's addresses, or a hop count, to say it exactly",
    );
    return 1;
  }
  return /^\d+$/.test(setting) ? Number(setting) : setting;
}

function securityHeaderOptions(env: Env, config: ConsoleConfig): SecurityHeaderOptions {
  const google = config.google;
  return {
    googleAuthorizationUrl: google?.authorizationUrl ?? null,
    oneTap: Boolean(google && isGoogleItself(google.authorizationUrl)),
    publicOrigin: new URL(publicUrlOf(env)).origin,
  };
}

/**
 * Brotli when the browser takes it, else gzip (docs/decisions/019-fast-pages.md has the figures).
 * Streamed answers (the chat's NDJSON, event streams) pass uncompressed: a compressor would hold
 * their lines back until its buffer fills.
 */
function compressResponses() {
  const streamed = /^(application\/x-ndjson|text\/event-stream)/i;
  return compression({
    // Brotli's default window (4 MB) makes each answer's encoder allocate megabytes the collector
    // must account for; a console page or API answer is far smaller than the 256 KB window kept here.
    brotli: { params: { [zlibConstants.BROTLI_PARAM_LGWIN]: 18 } },
    filter: (req, res) => !streamed.test(String(res.getHeader("Content-Type") ?? "")) && compression.filter(req, res),
  });
}

/** Built assets with the .br / .gz copies `npm run build` wrote beside them (scripts/compress-assets.mjs). */
function staticPrecompressed(root: string, serveStatic: { maxAge: string; immutable?: boolean; index?: false }) {
  return expressStaticGzip(root, { enableBrotli: true, orderPreference: ["br"], index: false, serveStatic });
}

/**
 * The request paths of the files under `dir`, read once at start (public/ changes only with a
 * build), leaving out the top-level folders in `skip` and the .br / .gz copies served in their
 * files' place.
 */
export function publicFilePaths(dir: string, skip: string[]): Set<string> {
  const paths = new Set<string>();
  const walk = (folder: string, prefix: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const requestPath = `${prefix}/${entry.name}`;
      if (!entry.isDirectory()) {
        if (!/\.(br|gz)$/.test(entry.name)) paths.add(requestPath);
      } else if (prefix || !skip.includes(entry.name)) walk(path.join(folder, entry.name), requestPath);
    }
  };
  walk(dir, "");
  return paths;
}

export async function startServer(env: Env = process.env): Promise<RunningServer> {
  const dataDir = path.resolve(env.DATA_DIR ?? "data");
  const secrets = loadRuntimeSecrets(dataDir, env);

  // The console's build compiles (~a quarter of a second) while the database starts on its thread.
  const loadingBuild = import(pathToFileURL(path.resolve("build/index.js")).href) as Promise<ServerBuild>;
  loadingBuild.catch(() => {}); // awaited below; a failed start must not also report it unhandled
  // With API_URL the console is a pure client of a remote API host; otherwise we host the API.
  const host = env.API_URL
    ? null
    : await startApiHost({
        database: env.DATABASE_URL ? { url: env.DATABASE_URL } : { dir: path.join(dataDir, "pglite") },
        config: apiConfigFromEnv(env, secrets),
        storageDir: path.join(dataDir, "files"),
        env,
        work: env.RUN_WORKERS !== "false",
      });
  const apiFetch = env.API_URL
    ? remoteApiFetch(env.API_URL)
    : (request: Request) => Promise.resolve(host!.api.fetch(request));
  // One browser request's calls to the in-process API share the callers they authenticate (api/auth/caller.ts).
  const pageApiFetch = () => {
    if (env.API_URL) return apiFetch;
    const callEnv: ConsoleCallEnv = { callerScope: new CallerScope() };
    return (request: Request) => Promise.resolve(host!.api.fetch(request, callEnv));
  };
  const config = consoleConfigFromEnv(env, secrets.sessionSecrets);
  const signInThrottle = new Throttle(signInLimitsFromEnv(env));

  const app = express();
  app.disable("x-powered-by");
  const trustProxy = trustProxySetting(env.TRUST_PROXY);
  if (trustProxy !== null) app.set("trust proxy", trustProxy);
  app.use((_req, res, next) => {
    res.set({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
    next();
  });

  if (devSignInEnabled(env)) app.use(refuseUnknownHosts(namedHostsOf(env)));
  app.use(compressResponses());

  if (host) {
    // The API host's own paths, passed through untouched (no body parsing in front of Hono).
    const apiListener = getRequestListener(host.api.fetch);
    app.all(/^\/(v1|auth|sitemap_refresh|storage)(\/|$)/, (req, res) => apiListener(req, res));
  } else {
    // Stored files (logos, signed downloads, signed uploads) are linked with paths of the API
    // host; the browser asks this server, which passes them on to the remote API. A body is cut
    // at the largest the API takes, a signed upload's: FILE_MAX_MB, read from this server's settings
    // as the API reads its own, so the two are given the same (README).
    const passOn = remoteStoragePassThrough(env.API_URL!, apiConfigFromEnv(env, secrets).fileMaxBytes);
    const storageListener = getRequestListener((request: Request, { incoming }) =>
      passOn(request, (incoming as express.Request).ip ?? null),
    );
    app.get(/^\/storage\//, (req, res) => storageListener(req, res));
    app.put(/^\/storage\/upload$/, (req, res) => storageListener(req, res));
  }

  const publicDir = path.resolve("public");
  // The bundled demo website (DESIGN.md §3): something to crawl, index and chat about offline.
  app.get("/demo-site/sitemap.xml", (req, res) => {
    res.type("application/xml").send(demoSitemap(`${req.protocol}://${req.get("host")}/demo-site/`));
  });
  app.use("/demo-site", express.static(path.join(publicDir, "demo-site"), { index: "index.html" }));
  app.use("/build", staticPrecompressed(path.join(publicDir, "build"), { immutable: true, maxAge: "1y" }));
  // Fonts never fall through to the console: a missing font is a plain 404, not the 404 page.
  app.use(
    "/fonts",
    express.static(path.join(publicDir, "fonts"), { fallthrough: false, maxAge: "1y" }),
    (error: { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res
        .status(error.status ?? 404)
        .type("text/plain")
        .send("Not found");
    },
  );
  // The rest of public/ (icons, widget.js, integrations/) is answered under its files' own names
  // only, known from start: a page request, or any other path, reaches Remix without a file lookup.
  const rootAssets = staticPrecompressed(publicDir, { maxAge: "1h", index: false });
  const publicFiles = publicFilePaths(publicDir, ["build", "demo-site"]);
  app.use((req, res, next) => (publicFiles.has(req.path) ? rootAssets(req, res, next) : next()));
  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });

  const build = await loadingBuild;
  // While a page is answered, background jobs give way to it on an embedded database (api/db/foreground.ts).
  app.use((_req, res, next) => {
    const answered = beginAnswering();
    res.once("finish", answered);
    res.once("close", answered);
    next();
  });
  // Every write to the console comes from the console's own pages (docs/decisions/016).
  app.use(refuseCrossSiteWrites());
  app.use(secureCookiesOverHttps());
  app.use(securityHeaders(securityHeaderOptions(env, config)));
  app.use(serverTiming());
  app.all(
    "*",
    createRequestHandler({
      build: withGetOnlyRefusals(withUnavailableAnswers(build)),
      mode: remixModeOf(env),
      getLoadContext: (req, res) =>
        ({
          apiFetch: timedApiFetch(pageApiFetch(), requestScopeOf(res).timing),
          config,
          secure: req.secure,
          clientAddress: req.ip ?? null,
          cspNonce: res.locals.cspNonce as string,
          signInThrottle,
          appendSetCookie: (cookie) => {
            res.append("Set-Cookie", cookie);
          },
          requestScope: requestScopeOf(res),
        }) satisfies ConsoleContext,
    }),
  );
  // Errors met before a page could answer (an address that does not decode): words, never a stack.
  app.use(answerRouterErrorsInWords());

  const port = Number(env.PORT ?? 3000);
  const hostname = env.HOST ?? "127.0.0.1";
  const server = await new Promise<import("node:http").Server>((resolve, reject) => {
    const listening = app.listen(port, hostname, () => resolve(listening));
    listening.once("error", reject);
  });
  // A refused body's answer must reach a client still sending it (docs/decisions/016).
  closeInStages(server);
  answerClientErrorsInWords(server);
  await host?.resumePipeline();
  const address = server.address();
  const url = `http://${hostname}:${typeof address === "object" && address ? address.port : port}`;
  return {
    url,
    host,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await host?.close();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // React and Express read NODE_ENV when the build loads: the same production default as Remix.
  process.env.NODE_ENV ??= "production";
  const running = await startServer();
  console.log(`Console ready on ${running.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      await running.close();
      process.exit(0);
    });
  }
}
