import { z, type core } from "zod";

/*
 * The words of a refusal that a schema does not word itself. zod's own ("Too big: expected string
 * to have <=5000 characters", "Invalid option: expected one of \"\"|\"US\"|…") reach operators
 * beside the field they typed into, and API callers in `errors`; these say what to do instead.
 * A message a schema gives for its own check still wins (zod asks the schema first).
 */

type Issue = core.$ZodRawIssue;

const count = (n: number | bigint) => (typeof n === "bigint" ? n.toString() : n.toLocaleString("en"));

const EXPECTED_WORDS: Record<string, string> = {
  string: "Use text",
  number: "Use a number",
  int: "Use a whole number",
  boolean: "Use true or false",
  array: "Use a list",
  object: "Use an object",
  date: "Use a date",
};

const FORMAT_WORDS: Record<string, string> = {
  email: "Use an email address like name@example.com",
  url: "Use a web address starting with http:// or https://",
  uuid: "Not a valid id",
  datetime: "Use a date and time like 2026-01-31T09:00:00Z",
  date: "Use a date like 2026-01-31",
};

/** Few enough choices to name them all in the message. */
const NAMEABLE_CHOICES = 6;

function choicesMessage(values: readonly unknown[]) {
  const named = values.filter((value) => value !== "" && value !== null && value !== undefined);
  if (named.length === 0 || named.length > NAMEABLE_CHOICES) return "Choose one of the listed values";
  return `Choose one of: ${named.map(String).join(", ")}`;
}

/** An issue's message in plain words, or undefined to keep zod's. */
export function plainMessageOf(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined || issue.input === null) return "This field is required";
      return EXPECTED_WORDS[issue.expected];
    case "too_big": {
      const max = count(issue.maximum as number | bigint);
      if (issue.origin === "string") return `Use at most ${max} characters`;
      if (issue.origin === "array" || issue.origin === "set") return `Use at most ${max} items`;
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint")
        return issue.inclusive ? `Use a number no larger than ${max}` : `Use a number below ${max}`;
      return undefined;
    }
    case "too_small": {
      const min = count(issue.minimum as number | bigint);
      if (issue.origin === "string")
        return issue.minimum === 1 ? "This string is required" : `Use at least ${min} characters`;
      if (issue.origin === "array" || issue.origin === "set")
        return issue.minimum === 1 ? "This array is required" : `Use at least ${min} items`;
      if (issue.origin === "number" || issue.origin === "int" || issue.origin === "bigint")
        return issue.inclusive ? `Use a number of at least ${min}` : `Use a number above ${min}`;
      return undefined;
    }
    case "invalid_value":
      return choicesMessage(issue.values);
    case "invalid_format":
      return FORMAT_WORDS[issue.format] ?? "Not in the expected format";
    case "not_multiple_of":
      return `Use a multiple of ${count(issue.divisor as number | bigint)}`;
    case "unrecognized_keys":
      return `Unknown ${issue.keys.length === 1 ? "field" : "fields"}: ${issue.keys.join(", ")}`;
    default:
      return undefined;
  }
}

z.config({ customError: plainMessageOf });
