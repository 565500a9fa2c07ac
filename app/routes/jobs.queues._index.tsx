import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireApi } from "~/server/api/client.server";
import { jobsApi } from "~/server/api/jobs-api.server";
import { consoleContext } from "~/server/context.server";

/** The queue console opens on the first queue; each queue has its own addressable page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  const [first] = await jobsApi.queues(api);
  if (!first) throw new Response("No queues", { status: 404 });
  return redirect(`/jobs/queues/${encodeURIComponent(first.name)}`);
}
