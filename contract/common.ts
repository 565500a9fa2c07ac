import { z } from "zod";
import { MAX_ID } from "./values/common";
export * from "./values/common";

/** Every non-2xx answer of the API has this body. `errors` maps a field path to its messages. */
export const ErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>; // ids are Postgres integers
export const IdParam = z.coerce.number().int().positive().max(MAX_ID, "Not a valid id");
/** An id inside a JSON body. */
export const Id = z.number().int().positive().max(MAX_ID, "Not a valid id");
