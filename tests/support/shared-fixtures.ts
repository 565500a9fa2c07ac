import path from "node:path";

/**
 * Where the shared fixtures are (real pages, PDFs and questions nobody here wrote): `FIXTURES_DIR`,
 * else `../shared/fixtures` beside the checkout. Tests that read them skip where they are absent.
 */
export const SHARED_FIXTURES = path.resolve(process.env.FIXTURES_DIR ?? "../shared/fixtures");

/** A folder or file of the shared fixtures. */
export const sharedFixture = (...parts: string[]) => path.join(SHARED_FIXTURES, ...parts);
