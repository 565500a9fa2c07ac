// '/' is the client list, the same screen as /clients.
export { loader, default, meta, ErrorBoundary } from "./clients._index";
