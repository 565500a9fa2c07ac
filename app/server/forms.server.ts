import type { SubmissionResult } from "@conform-to/react";
import { json } from "@remix-run/node";
import { IMAGE_MAX_MB } from "@contract/values/files";
import { shownInPlace } from "./api/client.server";
import { FORM_WITH_IMAGES, readForm } from "./http/form-data.server";

/** Beside a logo field, when the chosen image is past what the API stores (or past what the form may carry). */
export const LOGO_TOO_LARGE = `The chosen logo is larger than ${IMAGE_MAX_MB} MB: choose a smaller image`;

/**
 * A form that carries a logo (the agent and client forms), read with FORM_WITH_IMAGES: a logo past
 * its limit (a photograph of 12 MB too) is read to its end but not kept, and the form comes back
 * with it said. Past what the form may read (64 MB) nothing typed was read; only a logo makes these
 * forms that large, and with JavaScript the page still holds what was typed, so the answer then is
 * the 413 saying so beside the logo.
 */
export async function readLogoForm(request: Request) {
  try {
    return { formData: await readForm(request, FORM_WITH_IMAGES), tooLarge: null };
  } catch (error) {
    if (error instanceof Response && error.status === 413) {
      const tooLarge = json({ status: "error" as const, error: { logo: [LOGO_TOO_LARGE] } }, { status: 413 });
      return { formData: null, tooLarge };
    }
    throw error;
  }
}

interface Replyable {
  reply(options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }): SubmissionResult<string[]>;
}

/**
 * Turns an API refusal (400 with per-field errors, 403), or its 503 (try again in a few seconds),
 * into the form's reply, so the message appears next to its field and nothing the user typed is
 * lost. Other errors propagate.
 * `fieldNames` maps API field paths to form field names where they differ.
 */
export function replyWithApiError(submission: Replyable, error: unknown, fieldNames: Record<string, string> = {}) {
  if (!shownInPlace(error)) throw error;
  const fieldErrors: Record<string, string[]> = {};
  for (const [path, messages] of Object.entries(error.fieldErrors)) fieldErrors[fieldNames[path] ?? path] = messages;
  const hasFields = Object.keys(fieldErrors).length > 0;
  return json(submission.reply({ formErrors: hasFields ? [] : [error.message], fieldErrors }), error.answerInit);
}

/**
 * What a table row was loaded with, posted back as one hidden JSON field: the values checked
 * against `schema`, or null when the field is missing or was tampered with (the row then counts
 * as unreadable, never as unchanged).
 */
export function parseLoadedField<T>(
  schema: { safeParse: (value: unknown) => { success: true; data: T } | { success: false } },
  raw: string,
): T | null {
  if (!raw) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
