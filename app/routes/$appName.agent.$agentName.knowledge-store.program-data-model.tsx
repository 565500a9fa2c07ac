import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { DataModelPage } from "~/components/data-model/DataModelPage";
import { RouteError } from "~/components/RouteError";
import { dataModelAction, dataModelLoader } from "~/server/data-model.server";
import { agentPageMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The knowledge store's Program Data Model: the same program model as personalization's; `?edit=1` opens its field table. */
export const loader = (args: LoaderFunctionArgs) => dataModelLoader(args, "program-data-model");
export const action = (args: ActionFunctionArgs) => dataModelAction(args, "program-data-model");

export default function ProgramDataModel() {
  return <DataModelPage screen="program-data-model" />;
}

export const meta: MetaFunction<typeof loader> = (args) => agentPageMeta(args, args.data?.title ?? "Data Model");

export function ErrorBoundary() {
  return <RouteError />;
}
