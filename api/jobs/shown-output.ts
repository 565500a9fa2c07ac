/** The longest message a failed job shows: a sentence or two, the way its screen shows it. */
const MAX_MESSAGE = 300;

/** A statement Drizzle could not run: its message holds the SQL text and every value sent. */
const FAILED_STATEMENT = /^Failed query:/;

/**
 * The user name and password of an address (`https://user:secret@host/`): up to the last @ before
 * the path, query or fragment, as a browser reads it (an @ after those is not one of them).
 */
const ADDRESS_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#]+@/gi;

/** A path on the server (`/srv/console/build/server/index.mjs`), not one of an address, whose host comes before it. */
const SERVER_PATH = /(?<![\w:/.-])(?:\/[\w.@-]+){2,}\/?/g;

const firstLine = (text: string) => text.split("\n", 1)[0].trim();

/**
 * What a job's record shows of its output. A finished job's output is what its handler returned,
 * shown as it is. A failed job's is the error pg-boss saved whole (message, stack, the database's
 * statement and values, the source file and line of the database server that refused it), or the
 * reason a handler gave for failing for good: staff get its failedJobLine, and the server's log
 * keeps the rest.
 */
export function shownOutput(output: unknown, state: string): unknown {
  const failed = state === "failed" || state === "retry";
  if (!hasMessage(output) || !(failed || isSavedError(output))) return output ?? null;
  return { message: failedJobLine(output) };
}

/**
 * The one plain line staff are shown of why a job failed, from the error itself or as pg-boss saved
 * it: its first line, without an address's user name and password or a path of the server, at most
 * 300 characters. An error from the database says what the database said, not the statement and
 * its values. Wherever else a job's failure is shown (a website's last error), it is this line.
 */
export function failedJobLine(error: unknown): string {
  if (!hasMessage(error)) return "The job failed";
  const cause = hasMessage(error.cause) ? error.cause : null;
  const said = FAILED_STATEMENT.test(error.message)
    ? `The database refused a statement${cause ? `: ${firstLine(cause.message)}` : ""}`
    : firstLine(error.message);
  const plain = said.replace(ADDRESS_CREDENTIALS, "$1").replace(SERVER_PATH, "…");
  return plain.length > MAX_MESSAGE ? `${plain.slice(0, MAX_MESSAGE - 1)}…` : plain || "The job failed";
}

const hasMessage = (value: unknown): value is { message: string; cause?: unknown } =>
  typeof value === "object" && value !== null && typeof (value as { message?: unknown }).message === "string";

/** An error as pg-boss saves it (serialize-error): a message with its stack beside it. */
const isSavedError = (value: { message: string }) => Object.hasOwn(value, "stack");
