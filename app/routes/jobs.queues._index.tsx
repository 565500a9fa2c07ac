import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { RouteError } from "~/components/RouteError";
import { requireApi } from "~/server/api/client.server";
import { jobsApi } from "~/server/api/jobs-api.server";
import { consoleContext } from "~/server/context.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The queue console opens on the first queue; each queue has its own addressable page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  const [first] = await jobsApi.queues(api);
  if (!first) throw new Response("No queues", { status: 404 });
  return redirect(`/jobs/queues/${encodeURIComponent(first.name)}`);
}

/**
 * Never drawn (the loader always redirects), but a page rather than a resource: a refusal (a client
 * user's 403) is the console's error screen in its shell, not a bare answer.
 */
export default function QueueConsoleEntry() {
  return null;
}

export function ErrorBoundary() {
  return <RouteError />;
}
