import { NotFound } from "~/components/NotFound";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** Any path no route claims: the spec's 404 inside the shell. */
export function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function Unknown() {
  return <NotFound />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
