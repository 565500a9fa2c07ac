/**
 * The requests tests/e2e/hostile-requests.spec.ts sends: what a browser never sends but anyone
 * can (bodies that are not forms, forms that build 30-million-slot arrays, NUL and invalid UTF-8,
 * numbers no field holds, bodies far larger than any screen posts), aimed at every console action,
 * every console page and every operation of the API's OpenAPI document. The list is fixed, so a
 * failure found once is found again; fast-check, with a fixed seed, only varies the garbage that
 * sits beside a valid intent.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ServerBuild } from "@remix-run/node";
import fc from "fast-check";

export const SEED = 20261125;

export interface HostileRequest {
  method: string;
  /** Path and query, percent-encoded exactly as sent. */
  url: string;
  /** The route or operation it aims at, for grouping failures (`/:appName/users`, `POST /v1/files/{id}`). */
  target: string;
  /**
   * The code behind the target: a console route's module (an alias shares its canonical route's)
   * or an API operation. Once a request has taken the server down, the rest of the family is skipped.
   */
  family: string;
  variant: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/* ------------------------------------------------------------------------------------------------
 * What the console's sources say about its forms
 * --------------------------------------------------------------------------------------------- */

export interface ConsoleVocabulary {
  /** Every `intent` value a console form may post (`save`, `add-row`, `index-all`, …). */
  intents: string[];
  /** The intents a route's own code knows: those of its module and everything it imports from app/. */
  intentsOf: (routeId: string) => string[];
  /** Field names the forms use (`url_id`, `refresh_days`, …). */
  fieldNames: string[];
  /** Row tables posted as indexed fields (`users[3].email`). */
  tables: string[];
}

// Words that sit on lines about intents without being one (HTML attributes, navigation states).
const NOT_INTENTS = new Set([
  "alert",
  "button",
  "error",
  "false",
  "get",
  "hidden",
  "idle",
  "intent",
  "loading",
  "none",
  "post",
  "submit",
  "submitting",
  "text",
  "true",
]);
// Field names every form family shares, beside those the sources name literally (conform builds
// most names at runtime, so the sources alone miss them).
const COMMON_FIELDS = [
  "id",
  "name",
  "email",
  "url",
  "url_code",
  "client_name",
  "site_code",
  "agent_type",
  "user_type",
  "page",
  "app_id",
  "website_id",
  "status",
  "tags",
  "_fetcher",
];

function sourceFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

function intentsIn(source: string): string[] {
  const found: string[] = [];
  for (const line of source.split("\n")) {
    if (/intent/i.test(line)) {
      // A quoted kebab-case word, or the start of a template such as `delete-row:${index}`.
      for (const [, word] of line.matchAll(/["'`]([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?=["'`]|:\$\{)/g)) {
        if (!NOT_INTENTS.has(word)) found.push(word);
      }
    }
    // Menu actions are keys of a table of labels (`"index-all": { label: … }`), posted as intents.
    const menuKey = /^\s*"([a-z]+(?:-[a-z]+)+)": \{ label:/.exec(line);
    if (menuKey) found.push(menuKey[1]);
  }
  return found;
}

/**
 * Reads the console's route and component sources for the intents, field names and row tables
 * its forms post: hand-kept lists would miss the next screen's.
 */
export function consoleVocabulary(appDir: string): ConsoleVocabulary {
  const files = new Map(sourceFiles(appDir).map((file) => [file, readFileSync(file, "utf8")]));
  const fieldNames = new Set<string>(COMMON_FIELDS);
  const tables = new Set<string>();
  const intentsByFile = new Map<string, string[]>();
  const importsByFile = new Map<string, string[]>();
  const resolve = (from: string, specifier: string) => {
    const base = specifier.startsWith("~/")
      ? path.join(appDir, specifier.slice(2))
      : specifier.startsWith(".")
        ? path.resolve(path.dirname(from), specifier)
        : null;
    if (!base) return null;
    return (
      [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find((candidate) =>
        files.has(candidate),
      ) ?? null
    );
  };
  for (const [file, source] of files) {
    intentsByFile.set(file, intentsIn(source));
    importsByFile.set(
      file,
      [...source.matchAll(/\bfrom "([^"]+)"/g)]
        .map(([, specifier]) => resolve(file, specifier))
        .filter((f): f is string => f !== null),
    );
    for (const [, name] of source.matchAll(/\bname="([a-zA-Z_][\w.]*)"/g)) if (name !== "intent") fieldNames.add(name);
    for (const [, table] of source.matchAll(/`([a-z_]+)\[\$\{/g)) tables.add(table);
  }
  const intentsOf = (routeId: string) => {
    const entry = [".tsx", ".ts"].map((ext) => path.join(appDir, `${routeId}${ext}`)).find((file) => files.has(file));
    const found = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      // The root layout is imported for its types and loader data, not its forms.
      if (seen.has(file) || path.basename(file).startsWith("root.")) return;
      seen.add(file);
      for (const intent of intentsByFile.get(file) ?? []) found.add(intent);
      for (const imported of importsByFile.get(file) ?? []) visit(imported);
    };
    if (entry) visit(entry);
    return [...found].sort();
  };
  return {
    intents: [...new Set([...intentsByFile.values()].flat())].sort(),
    intentsOf,
    fieldNames: [...fieldNames].sort(),
    tables: [...tables].sort(),
  };
}

/* ------------------------------------------------------------------------------------------------
 * The console's routes, from the Remix build's manifest
 * --------------------------------------------------------------------------------------------- */

export interface ConsoleRoute {
  id: string;
  /** The composed path with its params (`/:appName/agent/:agentName/appearance`). */
  template: string;
  /** The same path filled from the demo data. */
  path: string;
  index: boolean;
  hasAction: boolean;
  hasLoader: boolean;
  /**
   * The first route in the manifest that serves its module: aliases share the canonical route's
   * module, so they get a shorter list of requests (the code behind them is the same).
   */
  canonical: boolean;
  /** The id of that first route. */
  moduleRoute: string;
}

/**
 * Every route of the manifest with its full path, composed by walking parentIds. Routes whose
 * URL another route already takes (Remix serves only one of them) are left out.
 */
export function consoleRoutes(manifest: ServerBuild["routes"], params: Record<string, string>): ConsoleRoute[] {
  const composed = (id: string): string[] => {
    const route = manifest[id];
    if (!route) return [];
    const own = route.path ? route.path.split("/") : [];
    return [...(route.parentId ? composed(route.parentId) : []), ...own];
  };
  const fill = (segment: string) => {
    if (segment === "*") return "no-such-page";
    const param = /^:(\w+)\??$/.exec(segment);
    return encodeURIComponent(param ? (params[param[1]] ?? "1") : segment);
  };
  const seenModules = new Map<unknown, string>();
  const seenUrls = new Set<string>();
  const routes: ConsoleRoute[] = [];
  for (const [id, route] of Object.entries(manifest)) {
    if (id === "root") continue;
    const segments = composed(id);
    const template = `/${segments.join("/")}`;
    const filled = `/${segments.map(fill).join("/")}`;
    const key = `${filled}${route.index ? "?index" : ""}`;
    if (seenUrls.has(key)) continue;
    seenUrls.add(key);
    const canonical = !seenModules.has(route.module);
    if (canonical) seenModules.set(route.module, id);
    routes.push({
      id,
      template,
      path: filled,
      index: Boolean(route.index),
      hasAction: typeof route.module.action === "function",
      hasLoader: typeof route.module.loader === "function",
      canonical,
      moduleRoute: seenModules.get(route.module)!,
    });
  }
  return routes;
}

/* ------------------------------------------------------------------------------------------------
 * Bodies
 * --------------------------------------------------------------------------------------------- */

const FORM = "application/x-www-form-urlencoded";
const BOUNDARY = "----hostile7MA4YWxkTrZu0gW";
const MB = 1024 * 1024;

/** Hostile values, already percent-encoded as they travel in a urlencoded body or a query. */
export const HOSTILE_VALUES = [
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%FF%FE",
  "%C0%AF",
  "%F0%9F%98%80",
  "99999999999999999999",
  "1e308",
  "-0",
  "NaN",
  "Infinity",
  "-1",
  "4294967296",
  "1.5",
  "",
  "%20",
  "javascript%3Aalert(1)",
  "..%2F..%2Fetc%2Fpasswd",
  "%3Cscript%3Ealert(1)%3C%2Fscript%3E",
  "[]",
  "{}",
  "null",
  "true",
  "'%20OR%201%3D1%20--",
  "a".repeat(5_000),
];
export const HUGE_NUMBERS = ["99999999999999999999", "1e308", "-0", "NaN"];
const HOSTILE_SUFFIXES = [
  "99999999999999999999",
  "4294967296",
  "-1",
  "1e308",
  "NaN",
  "%00",
  "%ED%A0%80",
  "",
  "abc",
  "0x10",
];

function multipart(
  parts: { name: string; value: string | Buffer; filename?: string }[],
  boundary = BOUNDARY,
  close = true,
): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
    const type = part.filename !== undefined ? "\r\nContent-Type: application/octet-stream" : "";
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      Buffer.from(part.value),
      Buffer.from("\r\n"),
    );
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Built once and shared: megabyte bodies and 20,000-field forms are costly to make for each route. */
const shared = (() => {
  let cache: ReturnType<typeof build> | null = null;
  function build() {
    const manyFields = Array.from({ length: 20_000 }, (_, i) => `f${i}=${i}`).join("&");
    const manyRows = Array.from({ length: 20_000 }, (_, i) => `rows[${i % 1000}].name=r${i}`).join("&");
    return {
      manyFields: Buffer.from(`intent=save&${manyFields}`),
      manyRows: Buffer.from(`intent=save&${manyRows}`),
      // Just under the console's 1 MB form limit, so the string reaches the action.
      oneMegabyteForm: Buffer.from(`intent=save&name=${"a".repeat(MB - 200)}`),
      twoMegabyteForm: Buffer.from(`intent=save&name=${"a".repeat(2 * MB)}`),
      oneMegabyteJson: Buffer.from(
        JSON.stringify({ name: "a".repeat(MB), url: `https://example.com/${"a".repeat(MB)}` }),
      ),
      twoMegabyteJson: Buffer.from(JSON.stringify({ name: "a".repeat(2 * MB) })),
      deepJson: Buffer.from(`${"[".repeat(20_000)}${"]".repeat(20_000)}`),
    };
  }
  return () => (cache ??= build());
})();

type Body = { variant: string; headers?: Record<string, string>; body?: Buffer };

const form = (variant: string, body: string | Buffer, contentType = FORM): Body => ({
  variant,
  headers: { "content-type": contentType },
  body: typeof body === "string" ? Buffer.from(body) : body,
});

/** Bodies of the wrong kind: not a form, a broken form, no body at all. */
function contentTypeBodies(): Body[] {
  return [
    form("text/plain", "intent=save&name=a", "text/plain"),
    form("json valid", JSON.stringify({ intent: "save", rows: [{ name: "a" }], name: "a" }), "application/json"),
    form("json invalid", '{"intent":"save","name":', "application/json"),
    form(
      "octet-stream",
      Buffer.from([0x00, 0xff, 0xfe, 0x1f, 0x8b, 0x08, 0x00, 0x80, 0x3d, 0x3d]),
      "application/octet-stream",
    ),
    { variant: "no body, no content type" },
    form("empty content type", "intent=save&name=a", ""),
    form("form with unknown charset", "intent=save&name=a", `${FORM}; charset=x-no-such-charset`),
    form("form declared utf-16", Buffer.from("intent=save&name=a", "utf16le"), `${FORM}; charset=utf-16`),
    form(
      "multipart malformed",
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\nsave\r\n--${BOUNDARY}\r\nContent-Dispos`,
      `multipart/form-data; boundary=${BOUNDARY}`,
    ),
    form("multipart garbage body", "this is not multipart at all", `multipart/form-data; boundary=${BOUNDARY}`),
    form("multipart missing boundary", multipart([{ name: "intent", value: "save" }]), "multipart/form-data"),
    form("multipart empty boundary", multipart([{ name: "intent", value: "save" }]), "multipart/form-data; boundary="),
    form(
      "multipart unclosed",
      multipart(
        [
          { name: "intent", value: "save" },
          { name: "name", value: "a" },
        ],
        BOUNDARY,
        false,
      ),
      `multipart/form-data; boundary=${BOUNDARY}`,
    ),
    form(
      "multipart hostile names and file",
      multipart([
        { name: "intent", value: "save" },
        { name: "rows[4294967296].name", value: "a" },
        { name: "na\u0000me", value: Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]) },
        { name: "logo", value: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]), filename: `${"a".repeat(500)}\u0000.png` },
        { name: "files", value: Buffer.alloc(0), filename: "../../etc/passwd" },
      ]),
      `multipart/form-data; boundary=${BOUNDARY}`,
    ),
  ];
}

/** Forms whose field names build enormous, sparse or odd shapes. */
function shapeBodies(tables: string[]): Body[] {
  const eachTable = (field: (table: string) => string) => tables.map(field).join("&");
  const { manyFields, manyRows } = shared();
  return [
    form("sparse x[30000000]", "intent=save&x[30000000]=1"),
    form("sparse users[99999999].id", "intent=save&users[99999999].id=1"),
    form("sparse rows[4294967296].name", "intent=save&rows[4294967296].name=a"),
    form("sparse a[1e9]", "intent=save&a[1e9]=1"),
    form("dotted a.99999999.b", "intent=save&a.99999999.b=1"),
    form(
      "negative and empty indexes",
      "intent=save&rows[-1].name=a&rows[].name=b&rows[0][99999999]=c&rows[0x10].name=d",
    ),
    form("every table at row 99999999", `intent=save&${eachTable((t) => `${t}[99999999].name=a`)}`),
    // Rows 0 and 1000 with nothing between: holes where the code expects rows.
    form(
      "every table with holes up to row 1000",
      `intent=save&${eachTable((t) => `${t}[0].name=a&${t}[1000].name=b&${t}[1000].id=1`)}`,
    ),
    form(
      "every table starting at row 5",
      `intent=save&${eachTable((t) => `${t}[5].name=a&${t}[5].id=99999999999999999999`)}`,
    ),
    form("prototype names", "intent=save&__proto__[admin]=1&constructor.prototype.admin=1&rows[0].__proto__=x"),
    form("20,000 fields", manyFields),
    form("20,000 row fields", manyRows),
  ];
}

/** Forms whose names or values carry NUL, lone surrogates and bytes that are not UTF-8. */
function encodingBodies(): Body[] {
  return [
    form("NUL in name", "intent=save&na%00me=1"),
    form("NUL in value", "intent=save&name=%00&email=a%00b"),
    form("NUL intent", "intent=%00"),
    form("surrogate in name", "intent=save&%ED%A0%80=1"),
    form("surrogate in value", "intent=save&name=%ED%A0%80&url=%ED%B0%80"),
    form("invalid UTF-8 escapes", "intent=save&%FF=%FF&name=%FF%FE&%C0%AF=%C0%AF"),
    form(
      "raw invalid UTF-8 bytes",
      Buffer.concat([
        Buffer.from("intent=save&name="),
        Buffer.from([0xff, 0xfe, 0x00, 0xed, 0xa0, 0x80]),
        Buffer.from("&"),
        Buffer.from([0xc3]),
        Buffer.from("=1"),
      ]),
    ),
    form("broken escapes", "intent=save&name=%&na%zzme=%G0&%=%%"),
  ];
}

function numberBodies(fieldNames: string[]): Body[] {
  const numeric = [
    "id",
    "page",
    "page_size",
    "url_id",
    "refresh_days",
    "app_id",
    "website_id",
    "file_id",
    "index",
    "rows[0].id",
    "users[0].id",
  ];
  const names = [
    ...new Set([...numeric, ...fieldNames.filter((name) => /(_id|_days|days|page|size|count|max|min)$/.test(name))]),
  ];
  return HUGE_NUMBERS.map((n) => form(`number ${n}`, `intent=save&${names.map((name) => `${name}=${n}`).join("&")}`));
}

function sizeBodies(): Body[] {
  const { oneMegabyteForm, twoMegabyteForm } = shared();
  return [form("1 MB string", oneMegabyteForm), form("2 MB body (expect 413)", twoMegabyteForm)];
}

/* ------------------------------------------------------------------------------------------------
 * Console requests
 * --------------------------------------------------------------------------------------------- */

const garbageForm = (vocabulary: ConsoleVocabulary) => {
  const names = [
    ...vocabulary.fieldNames,
    ...vocabulary.tables.flatMap((t) => [`${t}[0].name`, `${t}[0].id`, `${t}[999].email`, `${t}[0].url`]),
    "x[]",
    "a.b.c",
    "__proto__",
    "constructor",
  ];
  return fc.array(fc.tuple(fc.constantFrom(...names), fc.constantFrom(...HOSTILE_VALUES)), {
    minLength: 2,
    maxLength: 6,
  });
};

/**
 * The posts aimed at one console action. A canonical route gets the full list; an alias of a
 * module already covered gets the bodies of the wrong kind and a few forms.
 */
export function consoleActionRequests(
  route: ConsoleRoute,
  vocabulary: ConsoleVocabulary,
  routeIndex: number,
): HostileRequest[] {
  const url = `${route.path}${route.index ? "?index" : ""}`;
  const target = `POST ${route.template}`;
  const family = `action ${route.moduleRoute}`;
  const as = (body: Body): HostileRequest => ({
    method: "POST",
    url,
    target,
    family,
    variant: body.variant,
    headers: { "sec-fetch-site": "same-origin", ...body.headers },
    body: body.body,
  });
  if (!route.canonical) {
    return [
      ...contentTypeBodies().slice(0, 6),
      ...shapeBodies(vocabulary.tables).slice(0, 3),
      encodingBodies()[0],
      encodingBodies()[5],
    ].map(as);
  }
  const seed = SEED + routeIndex;
  // The route's own intents, one it has never heard of, and `save` where it names none.
  const own = vocabulary.intentsOf(route.moduleRoute);
  const intents = [...new Set([...(own.length ? own : ["save"]), "no-such-intent"])];
  const garbage = fc.sample(garbageForm(vocabulary), { seed, numRuns: intents.length });
  const intentBodies = intents.map((intent, i) =>
    form(
      `intent ${intent} + garbage`,
      `intent=${intent}&${garbage[i].map(([name, value]) => `${name}=${value}`).join("&")}`,
    ),
  );
  // Row and menu intents carry an index or an id after a colon (`discard-row:3`, `index-all:12`).
  const compound = own.filter((intent) => intent.includes("-"));
  const compoundBodies = compound.length
    ? fc
        .sample(fc.tuple(fc.constantFrom(...compound), fc.constantFrom(...HOSTILE_SUFFIXES), fc.boolean()), {
          seed,
          numRuns: 3,
        })
        .map(([intent, suffix, confirmed]) => {
          const value = `${intent}${confirmed ? "-confirmed" : ""}:${suffix}`;
          return form(`intent ${value}`, `intent=${value}`);
        })
    : [];
  const crossSite: HostileRequest = {
    method: "POST",
    url,
    target,
    family,
    variant: "cross-site (expect 403)",
    headers: { "sec-fetch-site": "cross-site", origin: "null", "content-type": FORM },
    body: Buffer.from("intent=save"),
  };
  // A page with a no-referrer policy posts `Origin: null`, which Sec-Fetch-Site vouches for.
  const originNull: Body = {
    variant: "Origin: null from the console itself",
    headers: { origin: "null", "content-type": FORM },
    body: Buffer.from("intent=save"),
  };
  return [
    ...[
      originNull,
      ...contentTypeBodies(),
      ...shapeBodies(vocabulary.tables),
      ...encodingBodies(),
      ...numberBodies(vocabulary.fieldNames),
      ...sizeBodies(),
      ...intentBodies,
      ...compoundBodies,
    ].map(as),
    crossSite,
  ];
}

/** Page requests with query strings no link of the console makes. */
export function consolePageRequests(route: ConsoleRoute): HostileRequest[] {
  const queries = [
    ["page=99999999999999999999", "page huge"],
    ["page=-1&page_size=0", "page negative"],
    ["page_size=1e9&page=NaN", "page_size 1e9"],
    ["sort=%00&order=%ED%A0%80&status=%FF", "NUL and invalid UTF-8"],
    ["search=%00%ED%A0%80", "search with NUL and a lone surrogate"],
    [
      "q[]=1&q[99999999]=2&edit=1&import=1&delete=99999999999999999999&profile=%00&confirm=push&index",
      "params of other screens",
    ],
    [`search=${"a".repeat(8 * 1024)}`, "search 8 KB"],
    [`search=${"a".repeat(100 * 1024)}`, "search 100 KB"],
    ["redirectTo=/.//evil.example&redirectTo=/%09/evil.example", "redirectTo off-site"],
    ["from=9999-12-02&to=9999-12-31", "the calendar's last month, from its second day"],
    ["to=0001-01-05", "the calendar's first days, without a start"],
  ];
  return queries.map(([query, variant]) => ({
    method: "GET",
    url: `${route.path}?${query}`,
    target: `GET ${route.template}`,
    family: `loader ${route.moduleRoute}`,
    variant,
  }));
}

/* ------------------------------------------------------------------------------------------------
 * API requests, from the OpenAPI document
 * --------------------------------------------------------------------------------------------- */

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
}
export interface Operation {
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

export interface ApiTarget {
  method: string;
  template: string;
  operation: Operation;
}

/** Every operation of the document, plus the API's own paths outside /v1 should it leave one out. */
export function apiTargets(document: OpenApiDocument): ApiTarget[] {
  const targets = Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), template, operation })),
  );
  for (const template of ["/auth/dev", "/auth/google", "/sitemap_refresh"]) {
    if (!targets.some((t) => t.template === template))
      targets.push({ method: "POST", template, operation: { requestBody: { content: { "application/json": {} } } } });
  }
  return targets;
}

/**
 * The URL of an operation with its path parameters filled (`values` by name, or by the segment
 * before it, `files/{id}`, for the ambiguous ones) and the query parameters that name the client, agent or
 * trigger point set, so a request reaches the body's handling.
 */
export function apiUrl(target: ApiTarget, values: Record<string, string>): string {
  const filled = target.template.replace(/\{(\w+)\}/g, (_, name: string, offset: number) => {
    // `{id}` names a file under files/ and a prompt under input_prompts/: the segment before tells.
    const before = target.template.slice(0, offset).split("/").at(-2);
    return encodeURIComponent(values[`${before}/{${name}}`] ?? values[name] ?? "1");
  });
  const query = new URLSearchParams();
  for (const parameter of target.operation.parameters ?? []) {
    if (parameter.in !== "query") continue;
    if (/^(app_?id|appId)$/i.test(parameter.name)) query.set(parameter.name, values.appId ?? "1");
    else if (/^trigger_?point$/i.test(parameter.name)) query.set(parameter.name, values.triggerPoint ?? "1");
    else if (parameter.required) query.set(parameter.name, "1");
  }
  return `${filled}${query.size ? `?${query}` : ""}`;
}

const jsonBody = (variant: string, text: string | Buffer): Body => form(variant, text, "application/json");

/** Bodies for one operation that writes. */
export function apiWriteRequests(target: ApiTarget, url: string, index: number): HostileRequest[] {
  const schema = Object.values(target.operation.requestBody?.content ?? {})[0]?.schema;
  const properties = Object.keys(schema?.properties ?? {});
  const keys = properties.length ? properties : ["id", "name", "app_id"];
  const withAll = (raw: string) => `{${keys.map((key) => `${JSON.stringify(key)}:${raw}`).join(",")}}`;
  const { oneMegabyteJson, twoMegabyteJson, deepJson } = shared();
  // Schema-shaped bodies with hostile leaves; api/http/fuzz.test.ts samples many more of these.
  const leaf = fc.constantFrom<unknown>(
    "\u0000",
    "\ud800",
    "a\udfffb",
    "",
    -1,
    0,
    1e308,
    2 ** 53,
    1.5,
    null,
    true,
    [],
    {},
    "x".repeat(3000),
    "javascript:alert(1)",
    [null],
    { "": null },
  );
  const sampled = fc
    .sample(fc.dictionary(fc.constantFrom(...keys), leaf, { minKeys: 1, maxKeys: keys.length }), {
      seed: SEED + index,
      numRuns: 1,
    })
    .map((value) => jsonBody("json sampled", JSON.stringify(value)));
  const bodies: Body[] = [
    jsonBody("json {}", "{}"),
    jsonBody("json top-level array", "[]"),
    jsonBody("json string", '"x"'),
    jsonBody("json invalid", '{"a":'),
    jsonBody("json NaN", '{"a":NaN}'),
    jsonBody("json 99999999999999999999", withAll("99999999999999999999")),
    jsonBody("json 1e309", withAll("1e309")),
    jsonBody("json -0", withAll("-0")),
    jsonBody("json NUL key and value", `{"\\u0000":"\\u0000",${withAll('"a\\u0000b"').slice(1)}`),
    jsonBody("json lone surrogates", withAll('"\\ud800"')),
    jsonBody(
      "json raw invalid UTF-8",
      Buffer.concat([
        Buffer.from(`{${JSON.stringify(keys[0])}:"`),
        Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]),
        Buffer.from('"}'),
      ]),
    ),
    jsonBody("json __proto__", '{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}'),
    jsonBody("json 20,000-deep array", deepJson),
    jsonBody("json two 1 MB strings", oneMegabyteJson),
    jsonBody("json 2 MB body", twoMegabyteJson),
    ...sampled,
    ...contentTypeBodies().filter((body) => !body.variant.startsWith("json") && !body.variant.startsWith("form ")),
    form(
      "urlencoded sparse indexes",
      "x[30000000]=1&users[99999999].id=1&rows[4294967296].name=a&a[1e9]=1&a.99999999.b=1",
    ),
  ];
  const operation = `${target.method} ${target.template}`;
  return bodies.map((body) => ({
    method: target.method,
    url,
    target: operation,
    family: operation,
    variant: body.variant,
    headers: body.headers,
    body: body.body,
  }));
}

/** Query strings for one operation that reads. */
export function apiReadRequests(target: ApiTarget, url: string): HostileRequest[] {
  const names = (target.operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
  const all = (value: string) => names.map((name) => `${name}=${value}`).join("&");
  const join = (query: string) => `${url}${url.includes("?") ? "&" : "?"}${query}`;
  const operation = `${target.method} ${target.template}`;
  return [
    ["page=99999999999999999999&page_size=1e9", "page huge"],
    [all("%00") || "x=%00", "NUL in every query parameter"],
    [all("99999999999999999999") || "x=-1", "huge number in every query parameter"],
    // The calendar's ends: arithmetic on days past 9999-12-31 or before 0001-01-01 (a default range
    // counted back from the end day) leaves what JavaScript's dates and PostgreSQL's agree on.
    [all("9999-12-31") || "x=9999-12-31", "the last day of the calendar in every query parameter"],
    [
      names.map((name) => `${name}=${/^from/i.test(name) ? "9999-12-02" : "9999-12-31"}`).join("&") || "x=9999-12-02",
      "the calendar's last month, from its second day",
    ],
    [
      names
        .filter((name) => !/^from/i.test(name))
        .map((name) => `${name}=0001-01-05`)
        .join("&") || "x=0001-01-05",
      "the calendar's first days, without a start",
    ],
  ].map(([query, variant]) => ({
    method: target.method,
    url: join(query),
    target: operation,
    family: operation,
    variant,
  }));
}

/* ------------------------------------------------------------------------------------------------
 * Checks
 * --------------------------------------------------------------------------------------------- */

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What an error body must never show: stack frames, the server's own folders, installed packages. */
export function leakPattern(folders: string[]): RegExp {
  return new RegExp(
    [
      String.raw`\bat (?:async |new )?[^\s()<>"']+ \([^()\s<>"']+:\d+:\d+\)`,
      String.raw`\bat (?:file:\/\/)?\/[^\s()<>"']+:\d+:\d+`,
      "node_modules",
      ...folders.filter(Boolean).map(escapeRegExp),
    ].join("|"),
  );
}

/** `200: 12, 302: 40, …`, the statuses in order (answers that never came last). */
export function countsLine(counts: Map<string, number>): string {
  return [...counts.entries()]
    .sort(([a], [b]) => (Number(a) || 1e9) - (Number(b) || 1e9) || a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(", ");
}
