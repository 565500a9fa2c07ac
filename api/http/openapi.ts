import { z, type ZodType } from "zod";
import type { RouteDoc } from "./route";

const jsonSchema = (schema: ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;

/** Hono's `:param` paths become OpenAPI's `{param}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, "{$1}");

/** Builds the OpenAPI 3.1 document from the routes that were actually registered. */
export function openApiDocument(docs: RouteDoc[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const doc of docs) {
    const path = openApiPath(doc.path);
    const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
      name,
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    if (doc.query) {
      const schema = jsonSchema(doc.query, "input") as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        parameters.push({
          name,
          in: "query",
          required: schema.required?.includes(name) ?? false,
          schema: property as never,
        });
      }
    }
    (paths[path] ??= {})[doc.method] = {
      summary: doc.summary,
      tags: [doc.tag],
      ...(doc.auth ? { security: [{ bearer: [] }] } : { security: [] }),
      ...(parameters.length ? { parameters } : {}),
      ...(doc.form
        ? { requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object" } } } } }
        : {}),
      ...(doc.body
        ? {
            requestBody: { required: true, content: { "application/json": { schema: jsonSchema(doc.body, "input") } } },
          }
        : {}),
      responses: {
        [doc.status]: {
          description: "OK",
          ...(doc.response ? { content: { "application/json": { schema: jsonSchema(doc.response, "output") } } } : {}),
        },
        400: { description: "Invalid input: `message` and per-field `errors`" },
        ...(doc.auth ? { 401: { description: "Missing, invalid or expired user token" } } : {}),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Assistant console API", version: "1" },
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    paths,
  };
}
