import { z } from "zod";
import type { JobsQuery } from "@contract";
import { lastPageInstead } from "~/lib/query-params";
import { shownInPlace, type ApiClient } from "./api/client.server";
import { jobsApi } from "./api/jobs-api.server";
import { redirectWithToast } from "./toast.server";
import { readForm } from "./http/form-data.server";
import { requireUserWithPermission } from "./permissions.server";

const JobAction = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("run"), queue: z.string().min(1) }),
  z.object({ intent: z.literal("retry"), queue: z.string().min(1), id: z.string().min(1) }),
  z.object({ intent: z.literal("cancel"), queue: z.string().min(1), id: z.string().min(1) }),
]);

/**
 * A page of jobs. Past the end (its last jobs retried, cancelled or finished meanwhile, or an old
 * link), the last page, as the pager says, in place of an empty table.
 */
export async function jobsPageShown(api: ApiClient, query: Partial<JobsQuery> & { page: number }) {
  const asked = await jobsApi.list(api, query);
  const lastPage = lastPageInstead(query.page, { totalCount: asked.total_count, totalPages: asked.total_pages });
  return lastPage === null ? asked : jobsApi.list(api, { ...query, page: lastPage });
}

/**
 * The dashboard's and queue console's buttons: run a queue now, retry or cancel a job. Staff only,
 * checked before the form is read: anyone else is refused here (403), not sent back to a page they
 * cannot open.
 */
export async function handleJobAction(api: ApiClient, request: Request) {
  await requireUserWithPermission(api, "view_jobs");
  const formData = await readForm(request);
  const url = new URL(request.url);
  const backTo = `${url.pathname}${url.search}`;
  const parsed = JobAction.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return redirectWithToast(backTo, { type: "error", description: "Unknown job action" });
  const action = parsed.data;
  try {
    const result =
      action.intent === "run"
        ? await jobsApi.run(api, action.queue)
        : action.intent === "retry"
          ? await jobsApi.retry(api, action.queue, action.id)
          : await jobsApi.cancel(api, action.queue, action.id);
    return redirectWithToast(backTo, { type: "success", description: `${result.message} (${action.queue})` });
  } catch (error) {
    if (shownInPlace(error)) return redirectWithToast(backTo, { type: "error", description: error.reason });
    throw error;
  }
}
