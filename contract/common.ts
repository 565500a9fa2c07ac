import { z } from "zod";

/** Every non-2xx answer of the API has this body. `errors` maps a field path to its messages. */
export const ErrorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** Ids travel as numbers in JSON bodies but arrive as strings in paths and queries. */
export const MAX_ID = 2_147_483_647; // ids are Postgres integers
export const IdParam = z.coerce.number().int().positive().max(MAX_ID, "Not a valid id");
/** An id inside a JSON body. */
export const Id = z.number().int().positive().max(MAX_ID, "Not a valid id");
