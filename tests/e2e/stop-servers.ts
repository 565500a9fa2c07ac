import { E2E } from "./ports";

/**
 * Playwright's global teardown on PostgreSQL: asks tests/e2e/start-servers.ts to close its consoles
 * and drop their database, and waits until it has, before Playwright kills its process.
 */
export default async function stopServers() {
  const answer = await fetch(`http://127.0.0.1:${E2E.controlPort}/stop`, { method: "POST" });
  if (answer.status !== 204) throw new Error(`the journeys' servers answered ${answer.status} to stop`);
}
