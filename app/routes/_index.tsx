// '/' is the client list, the same screen as /clients.
export { loader, default, meta, ErrorBoundary, shouldRevalidate } from "./clients._index";
