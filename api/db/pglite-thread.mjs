// The database thread's entry. A process started through tsx reads the TypeScript module directly;
// any other (a test runner's fork, plain node) registers tsx in this thread first. The built server
// has its own bundled entry beside it instead (scripts/build-server.mjs).
try {
  await import("./pglite-thread.ts");
} catch (error) {
  // Node 22.18+ reads TypeScript itself (type stripping) but not our extensionless imports: its
  // failure to link them (before any of the module ran) also means tsx is needed.
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION" && error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  await import("./pglite-thread.ts?with-tsx");
}
