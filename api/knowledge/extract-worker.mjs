// The pool's thread entry. A process started through tsx reads the TypeScript worker directly;
// any other (a test runner's fork, plain node) registers tsx in this thread first. The second
// import asks under another address: the loader remembers the first one's failure.
let worker;
try {
  worker = await import("./extract-worker.ts");
} catch (error) {
  if (error?.code !== "ERR_UNKNOWN_FILE_EXTENSION") throw error;
  const { register } = await import("tsx/esm/api");
  register();
  worker = await import("./extract-worker.ts?with-tsx");
}
export default worker.default;
