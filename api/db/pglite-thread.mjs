// The database thread's entry. A process started through tsx reads the TypeScript module directly;
// any other (a test runner's fork, plain node) registers tsx in this thread first. The built server
// has its own bundled entry beside it instead (scripts/build-server.mjs).
try {
  await import("./pglite-thread.ts");
} catch (error) {
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  await import("./pglite-thread.ts?with-tsx");
}
