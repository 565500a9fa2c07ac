// The pool's thread entry. A process started through tsx reads the TypeScript worker directly;
// any other (a test runner's fork, plain node) registers tsx in this thread first. The second
// import asks under another address: the loader remembers the first one's failure.
let worker;
try {
  worker = await import("./extract-worker.ts");
} catch (error) {
  // Node 22.18+ reads TypeScript itself (type stripping) but not our extensionless imports: its
  // failure to link them (before any of the module ran) also means tsx is needed.
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION" && error?.code !== "ERR_MODULE_NOT_FOUND") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  worker = await import("./extract-worker.ts?with-tsx");
}
export default worker.default;
