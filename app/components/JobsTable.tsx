import { Form, Link } from "@remix-run/react";
import type { JobRecord } from "@contract";
import { formatDateTime } from "~/lib/dates";
import * as ui from "~/styles/ui.css";

const stateTone = {
  created: "info",
  retry: "warning",
  active: "info",
  completed: "success",
  cancelled: "default",
  failed: "error",
} as const;

/** Recent jobs with their payload, output or error, retries, and the actions their state allows. */
/** A job as it arrives through a loader (JSON drops undefined payloads). */
type JobRow = Omit<JobRecord, "data" | "output"> & { data?: unknown; output?: unknown };

export function JobsTable({ jobs, showQueue }: { jobs: JobRow[]; showQueue: boolean }) {
  if (!jobs.length) return <p className={ui.muted}>Nothing To Display</p>;
  return (
    <div className={ui.tableScroll} tabIndex={0}>
      <table>
        <thead>
          <tr>
            {showQueue ? <th scope="col">Queue</th> : null}
            <th scope="col">State</th>
            <th scope="col">Created (UTC)</th>
            <th scope="col">Finished (UTC)</th>
            <th scope="col">Retries</th>
            <th scope="col">Payload and result</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id} data-job-id={job.id}>
              {showQueue ? (
                <td>
                  <Link to={`/jobs/queues/${encodeURIComponent(job.queue)}`} className={ui.identifier}>
                    {job.queue}
                  </Link>
                </td>
              ) : null}
              <td>
                <span className={ui.chip[stateTone[job.state]]}>{job.state}</span>
              </td>
              <td className={ui.dateTimeCell}>{formatDateTime(job.created_on)}</td>
              <td className={ui.dateTimeCell}>{job.completed_on ? formatDateTime(job.completed_on) : "—"}</td>
              <td>
                {job.retry_count} / {job.retry_limit}
              </td>
              <td>
                <details>
                  <summary>Job {job.id.slice(0, 8)}</summary>
                  <p className={ui.label}>Payload</p>
                  <pre className={ui.pre} tabIndex={0} aria-label="Job data">
                    {JSON.stringify(job.data, null, 2)}
                  </pre>
                  <p className={ui.label}>{job.state === "failed" ? "Error" : "Output"}</p>
                  <pre className={ui.pre} tabIndex={0} aria-label="Job output">
                    {JSON.stringify(job.output, null, 2)}
                  </pre>
                </details>
              </td>
              <td>
                {job.state === "failed" || job.state === "cancelled" ? (
                  <JobButton intent="retry" job={job} label="Retry" />
                ) : null}
                {job.state === "created" || job.state === "retry" || job.state === "active" ? (
                  <JobButton intent="cancel" job={job} label="Cancel" />
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function JobButton({ intent, job, label }: { intent: string; job: JobRow; label: string }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="queue" value={job.queue} />
      <input type="hidden" name="id" value={job.id} />
      <button type="submit" className={ui.button.secondary} aria-label={`${label} job ${job.id}`}>
        {label}
      </button>
    </Form>
  );
}
