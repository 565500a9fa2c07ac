import { describe, expect, it } from "vitest";
import { z } from "zod";
import "./plain-messages";

const messagesOf = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((issue) => issue.message);

describe("plain refusals", () => {
  it("says what to do instead of what zod checked", () => {
    expect(messagesOf(z.string().max(5000), "x".repeat(5001))).toEqual(["Use at most 5,000 characters"]);
    expect(messagesOf(z.string().min(1), "")).toEqual(["This string is required"]);
    expect(messagesOf(z.array(z.string()).min(1), [])).toEqual(["This array is required"]);
    expect(messagesOf(z.array(z.string()).max(2), ["a", "b", "c"])).toEqual(["Use at most 2 items"]);
    expect(messagesOf(z.number().int().min(1).max(365), 400)).toEqual(["Use a number no larger than 365"]);
    expect(messagesOf(z.object({ email: z.email() }), { email: "nope" })).toEqual([
      "Use an email address like name@example.com",
    ]);
    expect(messagesOf(z.object({ name: z.string() }), {})).toEqual(["This field is required"]);
    expect(messagesOf(z.number(), "3")).toEqual(["Use a number"]);
    expect(messagesOf(z.strictObject({}), { extra: 1 })).toEqual(["Unknown field: extra"]);
  });

  it("names a few choices and only points at a long list", () => {
    expect(messagesOf(z.enum(["stage", "prod"]), "dev")).toEqual(["Choose one of: stage, prod"]);
    const many = z.enum(["a", "b", "c", "d", "e", "f", "g"]);
    expect(messagesOf(many, "z")).toEqual(["Choose one of the listed values"]);
  });

  it("leaves a schema's own words alone", () => {
    expect(messagesOf(z.string().max(3, "Keep it short"), "long")).toEqual(["Keep it short"]);
  });
});
