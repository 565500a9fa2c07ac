import type { MetaFunction } from "@remix-run/node";
import { UserProfiles } from "~/components/insights/UserProfiles";
import { RouteError } from "~/components/RouteError";
import { userProfilesAction, userProfilesLoader } from "~/server/user-profiles.server";
import { titleMeta } from "~/lib/page-title";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** The user profile store of one client (`?search&triggerPoint&environment&leads_only&page`; `?profile=` opens one). */
export const loader = userProfilesLoader;
export const action = userProfilesAction;

export default function UserProfileStore() {
  return <UserProfiles />;
}

export const meta: MetaFunction<typeof loader> = ({ data, error }) =>
  titleMeta(error, "User Profile Store", data?.client.name);

export function ErrorBoundary() {
  return <RouteError />;
}
