/**
 * Property-based fuzzing of every /v1 route the OpenAPI document lists (generated from the
 * contract's zod schemas), plus the public widget routes and stored files: paths, queries and
 * JSON bodies shaped like the schema but filled with hostile values (NUL, lone surrogates, very
 * long strings, out-of-range and foreign ids, script URLs). Whatever comes in, the answer is
 * never a 5xx. FUZZ_RUNS and FUZZ_SEED widen or vary the search.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAs, startTestHost } from "../../tests/support/test-host";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  maxLength?: number;
};
interface Operation {
  parameters?: { name: string; in: "path" | "query"; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

const hostileString = fc.constantFrom(
  "\u0000",
  "a\u0000b",
  "%00",
  "\ud800",
  "x\udfffy",
  "😀",
  "",
  " ",
  "1e3",
  "-1",
  "null",
  "../../etc/passwd",
  "javascript:alert(1)",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "https://example.com/a",
  "/storage/public/logos",
  `https://example.com/${"a".repeat(3000)}`,
  "x".repeat(1 << 20),
);
const hostileNumber = fc.constantFrom(0, -1, 1, 999, 1e3, 2_147_483_648, 99_999_999_999, 1.5, Number.MAX_SAFE_INTEGER);
const pathValue = fc.constantFrom(
  "1",
  "2",
  "999",
  "99999999999",
  "1e3",
  "-1",
  "0",
  "abc",
  "%00",
  "%ED%A0%80",
  "%F0%9F%98%80",
  "a".repeat(300),
);

/** An arbitrary for values of a JSON schema: mostly the right shape, with hostile leaves. */
function valueOf(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return fc.oneof(hostileString, hostileNumber, fc.constant(null));
  if (schema.const !== undefined) return fc.oneof(fc.constant(schema.const), hostileString);
  if (schema.enum)
    return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: hostileString });
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => valueOf(s, depth + 1)));
  if (schema.allOf?.length) return valueOf(schema.allOf[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return fc.oneof({ weight: 3, arbitrary: hostileString }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) });
    case "integer":
    case "number":
      return fc.oneof(hostileNumber, fc.integer());
    case "boolean":
      return fc.oneof(fc.boolean(), hostileString);
    case "array":
      return fc.array(valueOf(schema.items, depth + 1), { maxLength: 3 });
    case "object": {
      const properties = Object.entries(schema.properties ?? {});
      if (!properties.length) return fc.dictionary(hostileString, hostileString, { maxKeys: 2 });
      return fc.record(Object.fromEntries(properties.map(([key, s]) => [key, valueOf(s, depth + 1)])), {
        requiredKeys: [],
      });
    }
    default:
      return fc.oneof(hostileString, hostileNumber, fc.constant(null));
  }
}

interface FuzzRequest {
  method: string;
  path: string;
  body?: string;
}

/** Requests for one operation of the OpenAPI document. */
function requestsFor(method: string, template: string, operation: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters = operation.parameters ?? [];
  const pathParams = parameters.filter((p) => p.in === "path");
  const queryParams = parameters.filter((p) => p.in === "query");
  const bodySchema = operation.requestBody?.content["application/json"]?.schema;
  return fc
    .record({
      path: fc
        .tuple(...pathParams.map(() => pathValue))
        .map((values) => pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, values[i]), template)),
      query: fc.tuple(...queryParams.map((p) => fc.option(valueOf(p.schema), { nil: undefined, freq: 4 }))),
      body: bodySchema ? valueOf(bodySchema).map((b) => JSON.stringify(b)) : fc.constant(undefined),
    })
    .map(({ path, query, body }) => {
      const search = new URLSearchParams();
      queryParams.forEach((p, i) => {
        if (query[i] !== undefined)
          search.set(p.name, typeof query[i] === "string" ? (query[i] as string) : JSON.stringify(query[i]));
      });
      return { method: method.toUpperCase(), path: `${path}${search.size ? `?${search}` : ""}`, body };
    });
}

let host: Awaited<ReturnType<typeof startTestHost>>;
let tokens: Record<string, string>;
let operations: [string, string, Operation][];

beforeAll(async () => {
  host = await startTestHost();
  tokens = {
    staff: (await signInAs(host, "admin@example.com")).user_token,
    client_user: (await signInAs(host, "client.user@example.com")).user_token,
  };
  const document = (await (await host.api.request("/v1/openapi.json")).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => [method, path, op] as [string, string, Operation]),
  );
  // The widget's public routes and stored files are outside the document.
  operations.push(
    [
      "post",
      "/v1/chat",
      {
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  key: { type: "string" },
                  message: { type: "string" },
                  trigger_point: { type: "string" },
                  conversation_id: { type: "string" },
                },
              },
            },
          },
        },
      },
    ],
    [
      "get",
      "/v1/widget/config",
      {
        parameters: [
          { name: "key", in: "query", schema: { type: "string" } },
          { name: "trigger_point", in: "query", schema: { type: "string" } },
        ],
      },
    ],
    ["get", "/storage/public/{key}", { parameters: [{ name: "key", in: "path", schema: { type: "string" } }] }],
    ["get", "/storage/public/logos", {}],
  );
});
afterAll(() => host?.close());

describe("fuzzing every /v1 route", () => {
  it("never answers 5xx, whoever asks and whatever they send", { timeout: 600_000 }, async () => {
    expect(operations.length).toBeGreaterThan(60);
    const failures: string[] = [];
    let sent = 0;
    for (const [method, template, operation] of operations) {
      if (template === "/v1/openapi.json") continue;
      const samples = fc.sample(requestsFor(method, template, operation), { numRuns: RUNS, seed: SEED });
      for (const [index, request] of samples.entries()) {
        const token = index % 2 ? tokens.client_user : tokens.staff;
        const response = await host.api.request(request.path, {
          method: request.method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(request.body !== undefined ? { "content-type": "application/json" } : {}),
          },
          body: request.body,
        });
        await response.arrayBuffer();
        sent += 1;
        if (response.status >= 500)
          failures.push(
            `${response.status} ${request.method} ${request.path.slice(0, 200)} ${String(request.body).slice(0, 300)}`,
          );
      }
    }
    expect(sent).toBeGreaterThan(operations.length * RUNS * 0.9);
    expect(failures).toEqual([]);
  });
});
