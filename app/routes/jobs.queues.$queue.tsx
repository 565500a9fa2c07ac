import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { JOB_STATES, jobStateOf } from "@contract/values/jobs";
import { JobsTable } from "~/components/JobsTable";
import { RunNow } from "~/components/RunNow";
import { Pagination } from "~/components/Pagination";
import { RouteError } from "~/components/RouteError";
import { requireApi } from "~/server/api/client.server";
import { jobsApi } from "~/server/api/jobs-api.server";
import { invariantResponse } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { handleJobAction, jobsPageShown } from "~/server/jobs.server";
import * as ui from "~/styles/ui.css";
import { readPageParam } from "~/lib/query-params";
import { titleMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  const search = new URL(request.url).searchParams;
  const state = jobStateOf(search.get("state"));
  const page = readPageParam(search.get("page"));
  const queues = await jobsApi.queues(api);
  const queue = queues.find((q) => q.name === params.queue);
  invariantResponse(queue, "Queue not found");
  const jobs = await jobsPageShown(api, { queue: queue.name, state, page, page_size: 20 });
  return json({ queues, queue, jobs, state: state ?? null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  return handleJobAction(api, request);
}

export default function QueueConsole() {
  const { queues, queue, jobs, state } = useLoaderData<typeof loader>();
  const base = `/jobs/queues/${encodeURIComponent(queue.name)}`;
  return (
    <section>
      <div className={ui.pageHeader}>
        <h1>Queue console: {queue.name}</h1>
        <RunNow queue={queue} primary />
      </div>
      <p className={ui.muted}>
        {queue.description} {queue.schedule ? `Scheduled: ${queue.schedule} (UTC).` : ""}
      </p>
      <nav aria-label="Queues" className={ui.toolbar}>
        {queues.map((q) => (
          <Link
            key={q.name}
            to={`/jobs/queues/${encodeURIComponent(q.name)}`}
            aria-current={q.name === queue.name ? "page" : undefined}
          >
            {q.name} ({q.total})
          </Link>
        ))}
      </nav>
      <nav aria-label="Filter by state" className={ui.toolbar}>
        <Link to={base} className={ui.button.secondary} aria-current={state === null ? "true" : undefined}>
          All ({queue.total})
        </Link>
        {JOB_STATES.map((s) => (
          <Link
            key={s}
            to={`${base}?state=${s}`}
            className={ui.button.secondary}
            aria-current={state === s ? "true" : undefined}
          >
            {s} ({queue.counts[s]})
          </Link>
        ))}
      </nav>
      <JobsTable jobs={jobs.jobs} showQueue={false} />
      <Pagination page={jobs.page} totalPages={jobs.total_pages} />
    </section>
  );
}

export const meta: MetaFunction = ({ params, error }) => titleMeta(error, `Queue ${params.queue}`);

export function ErrorBoundary() {
  return <RouteError />;
}
