import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { DataModelPage } from "~/components/data-model/DataModelPage";
import { RouteError } from "~/components/RouteError";
import { dataModelAction, dataModelLoader } from "~/server/data-model.server";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The user profile data model screen; `?edit=1` opens its field table, `?import=1` the import question. */
export const loader = (args: LoaderFunctionArgs) => dataModelLoader(args, "user-profile");
export const action = (args: ActionFunctionArgs) => dataModelAction(args, "user-profile");

export default function PersonalizationUserProfile() {
  return <DataModelPage screen="user-profile" />;
}

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, args.data?.title ?? "Data Model");

export function ErrorBoundary() {
  return <RouteError />;
}
