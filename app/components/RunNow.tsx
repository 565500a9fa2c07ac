import { Form } from "@remix-run/react";
import type { QueueSummary } from "@contract";
import * as ui from "~/styles/ui.css";

/**
 * A queue's "Run now", for the queues that run without a payload. The others (a website's
 * indexing, a file's, a test run) run when their work is asked for on its own screen: a button
 * here could only be refused.
 */
export function RunNow({ queue, primary = false }: { queue: QueueSummary; primary?: boolean }) {
  if (!queue.runs_on_demand) return <span className={ui.muted}>Runs when its work is asked for</span>;
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="run" />
      <input type="hidden" name="queue" value={queue.name} />
      <button type="submit" className={primary ? ui.button.primary : ui.button.secondary}>
        Run now
      </button>
    </Form>
  );
}
