import { and, eq } from "drizzle-orm";
import { profileFields, visitorProfiles } from "../db/schema";
import type { ApiDeps } from "../deps";
import { fieldScore } from "../insights/lead-score";

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/;
const PHONE = /\+?\d[\d\s().-]{7,}\d/;

/**
 * What a visitor says about themselves, read into the client's user profile fields: an email or
 * phone number for fields named so, "my name is …" / "I'm …" for a name, and "my <field> is …" for
 * any field. Values keep the id of the message they came from.
 */
export function readProfileValues(message: string, fields: { name: string; field_type: string }[]) {
  const found: Record<string, unknown> = {};
  for (const field of fields) {
    const words = field.name.toLowerCase().replace(/_/g, " ");
    let value: string | null = null;
    if (/e-?mail/.test(words)) value = EMAIL.exec(message)?.[0] ?? null;
    else if (/phone|mobile/.test(words)) value = PHONE.exec(message)?.[0]?.trim() ?? null;
    else if (/(^|\s)(first |full )?name$/.test(words)) {
      // The lead-in in any case ("My name is" opens a sentence), the name itself capitalised.
      value =
        /\b(?:[Mm]y name is|[Ii] am|[Ii]'m|[Tt]his is)\s+([A-Z][\p{L}'-]+(?:\s[A-Z][\p{L}'-]+)?)/u.exec(message)?.[1] ??
        null;
      if (value && words.startsWith("first")) value = value.split(" ")[0];
    }
    if (!value) {
      const escaped = words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      // The value runs to the end of its clause: punctuation (not a decimal point), or an "and"/"but" that starts the next one.
      value =
        new RegExp(`\\bmy ${escaped} (?:is|=|:)\\s*([^,!?;]{1,80}?)(?=\\s+(?:and|but)\\s|[,!?;]|\\.(?!\\d)|$)`, "i")
          .exec(message)?.[1]
          ?.trim() ?? null;
    }
    if (!value) continue;
    if (field.field_type === "number") {
      const n = Number(value.replace(/[^\d.]/g, ""));
      if (Number.isFinite(n) && value.match(/\d/)) found[field.name] = n;
    } else {
      found[field.name] = value;
    }
  }
  return found;
}

/**
 * Whether a message may say anything readProfileValues reads: an email address, a phone number, or
 * one of the lead-ins it looks for ("my …", "I am", "I'm", "this is"). A question that holds none
 * ("How much is tuition?", most of them) needs no read of the client's fields.
 */
export const mayDescribeVisitor = (message: string) =>
  EMAIL.test(message) || PHONE.test(message) || /\b(my|i am|i'm|this is)\b/i.test(message);

export async function captureProfile(
  input: { appId: number; conversationId: string; messageId: number; message: string },
  deps: Pick<ApiDeps, "db">,
) {
  if (!mayDescribeVisitor(input.message)) return;
  const fields = await deps.db
    .select({ name: profileFields.name, field_type: profileFields.fieldType })
    .from(profileFields)
    .where(and(eq(profileFields.appId, input.appId), eq(profileFields.modelType, "user_profile")));
  const values = readProfileValues(input.message, fields);
  if (!Object.keys(values).length) return;
  const [existing] = await deps.db
    .select()
    .from(visitorProfiles)
    .where(eq(visitorProfiles.conversationId, input.conversationId));
  const sources = Object.fromEntries(Object.keys(values).map((name) => [name, input.messageId]));
  const merged = { ...(existing?.values ?? {}), ...values };
  const { score, isLead } = fieldScore(merged);
  if (existing) {
    await deps.db
      .update(visitorProfiles)
      .set({
        values: merged,
        sourceMessages: { ...existing.sourceMessages, ...sources },
        fieldScore: score,
        isLead,
        updatedAt: new Date(),
      })
      .where(eq(visitorProfiles.conversationId, input.conversationId));
  } else {
    await deps.db.insert(visitorProfiles).values({
      conversationId: input.conversationId,
      appId: input.appId,
      values,
      sourceMessages: sources,
      fieldScore: score,
      isLead,
    });
  }
}
