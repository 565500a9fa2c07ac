import type { LlmConfig } from "../config";
import { cutText } from "@contract";
import { chatCompletion } from "../llm/chat-completion";
import type { ModelField } from "./extract-programs";

/**
 * Fills a program's fields with an OpenAI-compatible chat model, from the program's own text only.
 * Answers are checked against each field's type; anything the model leaves out or gets wrong is
 * simply not filled (the rule-based value stays).
 */
export async function fillWithModel(
  llm: LlmConfig,
  programName: string,
  text: string,
  fields: ModelField[],
): Promise<Record<string, unknown>> {
  const reply = await chatCompletion(
    llm,
    [
      {
        role: "system",
        content:
          "You extract facts about one academic program from the text given. Answer a JSON object with one key per field. Use only what the text states; use null when it does not say. Types: text is a string, number a number, boolean true/false, array a list of strings, json an object.",
      },
      {
        role: "user",
        content: JSON.stringify({
          program: programName,
          fields: fields.map((f) => ({ name: f.name, type: f.field_type, definition: f.definition })),
          text: cutText(text, 12_000),
        }),
      },
    ],
    { temperature: 0, json: true },
  );
  let answer: unknown;
  try {
    answer = JSON.parse(reply);
  } catch {
    throw new Error("The language model did not answer JSON");
  }
  if (!answer || typeof answer !== "object") return {};
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (answer as Record<string, unknown>)[field.name];
    if (value === null || value === undefined) continue;
    if (fitsType(value, field.field_type)) values[field.name] = value;
  }
  return values;
}

function fitsType(value: unknown, type: ModelField["field_type"]) {
  switch (type) {
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    case "json":
      return typeof value === "object" && !Array.isArray(value);
    default:
      return typeof value === "string" && value.trim().length > 0;
  }
}
