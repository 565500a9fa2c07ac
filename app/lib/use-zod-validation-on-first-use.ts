import { parse, type Submission } from "@conform-to/react";
import { useCallback } from "react";
import type { output, ZodType } from "zod";
import { useSchemaOnFirstUse } from "./use-schema-on-first-use";

/*
 * conform's onValidate for a form whose zod schema loads on first use (why: ./use-schema-on-first-use).
 * conform's useForm merges its options again on every render (useForm's layout effect calls the
 * form context's onUpdate), so the onValidate using the schema takes over as soon as it is there.
 */

type Validate<Schema extends ZodType> = (formData: FormData) => Submission<output<Schema>>;

/** A form's schema with conform's zod parser (kept out of the first load too: it imports zod). */
async function zodValidator<Schema extends ZodType>(loadSchema: () => Promise<Schema>): Promise<Validate<Schema>> {
  // The contract's plain refusals (@contract/plain-messages) word the browser's checks as the server's.
  const [{ parseWithZod }, , schema] = await Promise.all([
    import("@conform-to/zod/v4"),
    import("@contract/plain-messages"),
    loadSchema(),
  ]);
  return (formData) => parseWithZod(formData, { schema }) as Submission<output<Schema>>;
}

/**
 * Without the schema: conform's schema-less parse takes every value as it is, so the submission
 * passes and the form posts. The value is unchecked; nothing in the browser reads it.
 */
function withoutSchema<Value>(formData: FormData) {
  return parse<Value, string[]>(formData, { resolve: (value) => ({ value: value as Value }) });
}

/**
 * The onValidate of form `#formId`, whose schema `loadSchema` imports: the schema's checks once
 * it has arrived (parseWithZod, as a statically imported schema gives), a plain pass before.
 * `loadSchema` must be a module-level function.
 */
export function useZodValidationOnFirstUse<Schema extends ZodType>(formId: string, loadSchema: () => Promise<Schema>) {
  const load = useCallback(() => zodValidator(loadSchema), [loadSchema]);
  const validate = useSchemaOnFirstUse(formId, load);
  return ({ formData }: { formData: FormData }): Submission<output<Schema>> =>
    validate ? validate(formData) : withoutSchema<output<Schema>>(formData);
}
