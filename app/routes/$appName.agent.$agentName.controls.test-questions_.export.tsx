import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportTestQuestions } from "~/server/test-questions.server";

/** The agent's test questions (this view's search) as a CSV file that Import CSV reads back. */
export async function loader(args: LoaderFunctionArgs) {
  return exportTestQuestions(args);
}
