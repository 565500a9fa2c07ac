import { domainToASCII } from "node:url";
import { and, eq, sql } from "drizzle-orm";
import { profileFields, visitorProfiles, websites } from "../db/schema";
import { rowsOf } from "../db/rows";
import type { ApiDeps } from "../deps";
import { fieldScore } from "../insights/lead-score";

/**
 * Letters of the scripts written without spaces between words (as `wordsOf` knows them). Where one
 * of them meets a letter of another script a word ends, so "邮箱是wang@example.com谢谢" holds the
 * address wang@example.com.
 */
const UNSPACED = String.raw`\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}`;
/** A letter, mark or digit of any other script. */
const SPACED = String.raw`(?:(?![${UNSPACED}])[\p{L}\p{M}\p{N}])`;
/** What may stand beside the letters of an address and belong to it: RFC 5322's atext, dots and "@". */
const ADDRESS_PUNCTUATION = String.raw`.!#$%&*+/=?^_\u0060{|}~@\-`;
const SPACED_LABEL = String.raw`${SPACED}+(?:-+${SPACED}+)*`;
/**
 * An email address in a message, internationalised ones too (RFC 6531: "jürgen.müller@web.de",
 * "wang@例子.中国", "user@пример.рф", "x@xn--fsqu00a.xn--fiqs8s"), whole or not at all: nothing
 * that could belong to an address stands before or after what is taken, so an address holding a
 * character left out here ("bob#1@…") gives nothing rather than its tail. A local part or a
 * domain label is of unspaced scripts or of none (see UNSPACED).
 */
const EMAIL = new RegExp(
  [
    // Before: nothing of an address; an apostrophe only as a quote ("'bob@…'", not o'brien@…).
    String.raw`(?<![${ADDRESS_PUNCTUATION}])(?<!(?:[${ADDRESS_PUNCTUATION}']|${SPACED})')`,
    String.raw`(?:(?<!${SPACED})(?:${SPACED}|_)(?:[_%+'\-]|${SPACED}|\.(?=[_%+'\-]|${SPACED}))*`,
    String.raw`|(?<![${UNSPACED}]|${SPACED})[${UNSPACED}]+(?:\.[${UNSPACED}]+)*)`,
    "@",
    String.raw`(?:(?:${SPACED_LABEL}|[${UNSPACED}]+)\.)+`,
    // The top-level domain: letters, or an internationalised one in its ASCII form.
    String.raw`(?:[Xx][Nn]--[A-Za-z0-9]+(?:-+[A-Za-z0-9]+)*|(?:(?!\p{N})${SPACED}){2,}|[${UNSPACED}]{2,})`,
    // After: nothing of an address either; a full stop may end the sentence.
    String.raw`(?![_@\-]|${SPACED}|\.(?:${SPACED}|[${UNSPACED}]))`,
  ].join(""),
  "gu",
);
/** Digits with the spaces, dots, dashes and brackets phone numbers are written with. */
const PHONE_LIKE = /\+?\(?\d[\d\s().-]{5,}\d/g;
/** Two years joined by a dash ("1973-1974", "2012 - 13"): what a question asks about, no number to call. */
const YEAR_RANGE = /^\d{4}\s*[-\u2013]\s*\d{2}(?:\d{2})?$/;
/** A word of a name in a script without capitals: Han or Hangul, at most four (names have two to four), else up to 20. */
const CASELESS_NAME_WORD = String.raw`(?:[\p{Script=Han}\p{Script=Hangul}]{1,4}|(?![\p{Script=Han}\p{Script=Hangul}])\p{Lo}[\p{Lo}\p{M}]{0,19})(?![\p{L}\p{M}])`;
/**
 * "My name is Ana Lopez", "I'm Bo", "this is Carla", "my name is Łukasz", "I’m Ömer": the lead-in
 * in any case, the name capitalised (one or two words), in any script that has capitals. A name in
 * a script without them (王小明, محمد) is taken after "my name is" only, where only a name
 * follows, one or two words of it. Han and Hangul run on into the next word without a space: a
 * run too long to be a name is not told apart from what follows it, and gives no name.
 */
const NAME_LEAD_IN = new RegExp(
  [
    String.raw`\b(?:(?:[Mm]y name is|[Ii] am|[Ii]['\u2019]m|[Tt]his is)\s+`,
    String.raw`([\p{Lu}\p{Lt}][\p{L}\p{M}'\u2019-]+(?:\s[\p{Lu}\p{Lt}][\p{L}\p{M}'\u2019-]+)?)`,
    String.raw`|[Mm]y name is\s+(${CASELESS_NAME_WORD}(?:\s${CASELESS_NAME_WORD})?))`,
  ].join(""),
  "u",
);

/** The name a visitor introduces themselves with ("My name is …", "I'm …"), and the words that say it. */
function introducedName(message: string) {
  const found = NAME_LEAD_IN.exec(message);
  return found ? { name: found[1] ?? found[2], said: found[0] } : null;
}

/** A yes or a no as a visitor writes one, for a yes/no field. */
const YES = /^(?:yes|yeah|yep|y|true|i do|definitely|sure)$/i;
const NO = /^(?:no|nope|n|false|i don't|i do not|not really)$/i;

/** The email addresses a message holds. */
const emailsIn = (message: string) => message.match(EMAIL) ?? [];

/**
 * The phone numbers a message holds: 7 to 15 digits (E.164 allows at most 15), not a range of years.
 * Questions hold year ranges far more often than visitors give a number: "What happened in
 * 1973-1974?" was read as a phone number.
 */
function phoneNumbersIn(message: string) {
  return (message.match(PHONE_LIKE) ?? [])
    .map((candidate) => candidate.trim())
    .filter((candidate) => {
      const digits = candidate.replace(/\D/g, "").length;
      return digits >= 7 && digits <= 15 && !YEAR_RANGE.test(candidate);
    });
}

/**
 * What a visitor says about themselves, read into the client's user profile fields: an email or
 * phone number for fields named so (nothing else), "my name is …" / "I'm …" for a name, and
 * "my <field> is …" for any field, a number field's as a number and a yes/no field's as yes or no.
 * Values keep the id of the message they came from.
 */
export function readProfileValues(message: string, fields: { name: string; field_type: string }[]) {
  const found: Record<string, unknown> = {};
  for (const field of fields) {
    const words = field.name.toLowerCase().replace(/_/g, " ");
    let value: string | null = null;
    // An address or a number, or nothing: "my email is none of your business" gives no email, and
    // no lead either (a way to reach the person is what makes one).
    if (/e-?mail/.test(words)) {
      const email = emailsIn(message)[0];
      if (email) found[field.name] = email;
      continue;
    }
    if (/phone|mobile/.test(words)) {
      const phone = phoneNumbersIn(message)[0];
      if (phone) found[field.name] = phone;
      continue;
    }
    if (/(^|\s)(first |full )?name$/.test(words)) {
      // The lead-in in any case ("My name is" opens a sentence), the name itself capitalised.
      value = introducedName(message)?.name ?? null;
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
    } else if (field.field_type === "boolean") {
      // Yes or no, and nothing else: "maybe" is neither.
      if (YES.test(value)) found[field.name] = true;
      else if (NO.test(value)) found[field.name] = false;
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
  emailsIn(message).length > 0 || phoneNumbersIn(message).length > 0 || /\b(my|i am|i'm|this is)\b/i.test(message);

/**
 * The message without what the visitor says of who they are: their email address, phone number
 * and name as they introduce themselves ("Hi, I'm Maya Chen, maya@example.net. What does tuition
 * cost?"). Those words are the visitor's, not the question's: searched for, the store holds none of
 * them, so the question's own words weighed too little and it got the fallback. A message that
 * says nothing else is kept whole. What is stored beside the message (`question_part`) builds on it
 * (`askedPartOf` in small-talk.ts, which leaves greetings out too): Insights counts that and
 * Conversations gives it as the question an answer answered, so neither a Top question nor a test
 * question made from it holds the visitor's address.
 */
export function questionPartOf(message: string) {
  const { rest, gave } = withoutSelfDescription(message);
  return gave && /[\p{L}\p{N}]/u.test(rest) ? rest : message;
}

/**
 * The message without the email addresses, phone numbers and introduced name it holds (`rest`,
 * empty when it said nothing else), whether it held any (`gave`), and the name, if given.
 */
export function withoutSelfDescription(message: string) {
  const contacts = [...emailsIn(message), ...phoneNumbersIn(message)];
  const introduced = introducedName(message);
  const name = introduced?.name ?? null;
  if (!contacts.length && !introduced) return { rest: message, gave: false, name };
  let rest = message;
  for (const contact of contacts) rest = rest.replace(contact, " ");
  if (introduced) rest = rest.replace(introduced.said, " ");
  rest = rest.replace(/\s+/g, " ");
  // The commas that stood around what was taken out go with it: "Hi, , . What …" reads "Hi. What …"
  // (and "，" or "،" in scripts that write those).
  rest = rest
    .replace(/\s+(?=[,;:.!?，、；：。！？،؛])/g, "")
    .replace(/[,;:，、；：،؛]+(?=[,;:.!?，、；：。！？،؛])/g, "")
    .replace(/^[\s,;:.!?，、；：。！？،؛]+/, "")
    .trim();
  return { rest, gave: true, name };
}

/**
 * The host a website's address or an email address names, without a leading "www.", lower case,
 * in its ASCII form: an address at umontréal.ca is on the website whose URL says xn--umontral-g1a.ca.
 */
const bareHost = (host: string) => (domainToASCII(host) || host.toLowerCase()).replace(/^www\./, "");

/**
 * The values read without the organisation's own contact details: "Is admissions@northfield.edu
 * the right address for transcripts?" or "Is (555) 010-1891 the admissions office?" asks about the
 * organisation and gives nothing of the visitor. An email address on the domain of one of the
 * client's websites, and a phone number a page of its store prints, are not the visitor's.
 */
async function withoutOrganisationContacts(
  appId: number,
  values: Record<string, unknown>,
  deps: Pick<ApiDeps, "db">,
): Promise<Record<string, unknown>> {
  const kept = { ...values };
  const emails = Object.entries(values).filter(([, value]) => typeof value === "string" && value.includes("@"));
  if (emails.length) {
    const sites = await deps.db.select({ url: websites.url }).from(websites).where(eq(websites.appId, appId));
    const domains = sites.flatMap(({ url }) => {
      try {
        return [bareHost(new URL(url).hostname)];
      } catch {
        return [];
      }
    });
    for (const [name, value] of emails) {
      const domain = bareHost(String(value).split("@").pop() ?? "");
      // A website on a host under the address's domain counts (blog.northfield.edu, northfield.edu);
      // an address on a host under the website's does not: students.northfield.edu is a person's.
      const own = domains.some((site) => domain === site || site.endsWith(`.${domain}`));
      if (own) delete kept[name];
    }
  }
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== "string" || value.includes("@") || !PHONE_LIKE_WHOLE.test(value)) continue;
    if (await printedInStore(appId, value, deps)) delete kept[name];
  }
  return kept;
}

/** A value that is a phone number as phoneNumbersIn reads one. */
const PHONE_LIKE_WHOLE = /^\+?\(?\d[\d\s().-]{5,}\d$/;

/**
 * Whether a page or file of the client prints the phone number: a passage holding each of its
 * groups of digits as words (the index finds those), whose digits hold the number's.
 */
async function printedInStore(appId: number, phone: string, deps: Pick<ApiDeps, "db">) {
  const groups = phone.match(/\d+/g) ?? [];
  const digits = groups.join("");
  const query = groups.map((group) => `'${group}'`).join(" & ");
  const [found] = rowsOf<{ id: number }>(
    await deps.db.execute(sql`
    select id from chunks
    where app_id = ${appId} and tsv @@ ${query}::tsquery
      and position(${digits.slice(-7)} in regexp_replace(text, '[^0-9]', '', 'g')) > 0
    limit 1`),
  );
  return Boolean(found);
}

/** Reads what the visitor says of themselves into their conversation's profile, and scores it. */
export async function captureProfile(
  input: { appId: number; conversationId: string; messageId: number; message: string },
  deps: Pick<ApiDeps, "db">,
) {
  if (!mayDescribeVisitor(input.message)) return;
  const fields = await deps.db
    .select({ name: profileFields.name, field_type: profileFields.fieldType })
    .from(profileFields)
    .where(and(eq(profileFields.appId, input.appId), eq(profileFields.modelType, "user_profile")));
  const values = await withoutOrganisationContacts(input.appId, readProfileValues(input.message, fields), deps);
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
