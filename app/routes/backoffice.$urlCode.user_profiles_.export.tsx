import type { LoaderFunctionArgs } from "@remix-run/node";
import { userProfilesCsv } from "~/server/user-profiles.server";

/** Every profile the store's filters find, as a CSV download. */
export const loader = (args: LoaderFunctionArgs) => userProfilesCsv(args);
