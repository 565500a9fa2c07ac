import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { JOB_STATES, jobStateOf } from "@contract/values/jobs";
import { JobsTable } from "~/components/JobsTable";
import { RunNow } from "~/components/RunNow";
import { Pagination } from "~/components/Pagination";
import { RouteError } from "~/components/RouteError";
import { requireApi } from "~/server/api/client.server";
import { jobsApi } from "~/server/api/jobs-api.server";
import { consoleContext } from "~/server/context.server";
import { handleJobAction, jobsPageShown } from "~/server/jobs.server";
import * as ui from "~/styles/ui.css";
import { readPageParam } from "~/lib/query-params";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  const params = new URL(request.url).searchParams;
  const state = jobStateOf(params.get("state"));
  const page = readPageParam(params.get("page"));
  const [queues, jobs] = await Promise.all([jobsApi.queues(api), jobsPageShown(api, { state, page, page_size: 20 })]);
  return json({ queues, jobs, state: state ?? null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  return handleJobAction(api, request);
}

export default function JobsDashboard() {
  const { queues, jobs, state } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>Background jobs</h1>
      <h2>Queues</h2>
      <div className={ui.tableScroll} tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col">Queue</th>
              {JOB_STATES.map((s) => (
                <th scope="col" key={s}>
                  {s}
                </th>
              ))}
              <th scope="col">Schedule (UTC)</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {queues.map((queue) => (
              <tr key={queue.name} data-queue={queue.name}>
                <td>
                  <Link to={`/jobs/queues/${encodeURIComponent(queue.name)}`} className={ui.identifier}>
                    {queue.name}
                  </Link>
                  <div className={ui.muted}>{queue.description}</div>
                </td>
                {JOB_STATES.map((s) => (
                  <td key={s} data-state={s}>
                    {queue.counts[s]}
                  </td>
                ))}
                <td>{queue.schedule ?? "—"}</td>
                <td>
                  <RunNow queue={queue} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Recent jobs</h2>
      <nav aria-label="Filter by state" className={ui.toolbar}>
        <Link to="/jobs" aria-current={state === null ? "true" : undefined} className={ui.button.secondary}>
          All
        </Link>
        {JOB_STATES.map((s) => (
          <Link
            key={s}
            to={`/jobs?state=${s}`}
            aria-current={state === s ? "true" : undefined}
            className={ui.button.secondary}
          >
            {s}
          </Link>
        ))}
      </nav>
      <JobsTable jobs={jobs.jobs} showQueue />
      <Pagination page={jobs.page} totalPages={jobs.total_pages} />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Background jobs · Assistant Console" }];

export function ErrorBoundary() {
  return <RouteError />;
}
