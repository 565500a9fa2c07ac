/** Postgres unique_violation, whether it comes straight from the driver or wrapped by Drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  for (
    let current = error as { code?: string; cause?: unknown } | undefined;
    current;
    current = current.cause as typeof current
  ) {
    if (current.code === "23505") return true;
  }
  return false;
}

/** The Postgres error code of a driver error, or of the one Drizzle wrapped. */
function postgresCodeOf(error: unknown): string | null {
  for (
    let current = error as { code?: unknown; cause?: unknown } | undefined;
    current;
    current = current.cause as typeof current
  ) {
    if (typeof current.code === "string" && /^[0-9A-Z]{5}$/.test(current.code)) return current.code;
  }
  return null;
}

/**
 * The answer for a database refusal that input caused, when a route's own checks let it through:
 * a reference to a row that does not exist is a 404, a value out of range is a 400, a value
 * another row holds where the table allows one is a 409. Anything
 * else stays a 500 (our bug). A safety net: routes should check first and say it better.
 */
export function inputErrorOf(error: unknown): { status: 400 | 404 | 409; message: string } | null {
  switch (postgresCodeOf(error)) {
    case "23505": // unique_violation: a value the request gives twice, or another save took meanwhile
      return { status: 409, message: "A value in the request is already taken; reload and try again" };
    case "23503": // foreign_key_violation
      return { status: 404, message: "Not found" };
    case "22003": // numeric_value_out_of_range
    case "22P02": // invalid_text_representation
    case "22021": // character_not_in_repertoire
    case "22P05": // untranslatable_character
    case "22007": // invalid_datetime_format
    case "22008": // datetime_field_overflow (a date PostgreSQL's calendar lacks, as year 0)
      return { status: 400, message: "A value in the request is not valid" };
    case "54000": // program_limit_exceeded (an index row too large)
    case "22001": // string_data_right_truncation
      return { status: 400, message: "A value in the request is too long" };
    default:
      return null;
  }
}

/** The message of an answer given while the database cannot be reached. */
export const DATABASE_UNAVAILABLE =
  "The database is not answering right now; nothing was changed. Try again in a moment.";

/** Node's and the driver's words for a connection that could not be made or was cut. */
const CONNECTION_LOST =
  /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|connect ECONNREFUSED|read ECONNRESET|write EPIPE)/;

/**
 * Whether an error says the database could not be reached or dropped the connection (a restart, a
 * failover, a full connection table) rather than refused the statement: the request can be tried
 * again, so it is answered 503 with Retry-After, not 500. Postgres' class 08 (connection
 * exceptions), its shutdown codes and "too many connections", or the driver's own words.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = postgresCodeOf(error);
  if (code && (code.startsWith("08") || ["57P01", "57P02", "57P03", "53300"].includes(code))) return true;
  for (
    let current = error as { message?: unknown; code?: unknown; cause?: unknown } | undefined;
    current;
    current = current.cause as typeof current
  ) {
    if (typeof current.message === "string" && CONNECTION_LOST.test(current.message)) return true;
    if (current.code === "ECONNREFUSED" || current.code === "ECONNRESET") return true;
  }
  return false;
}
