import type { LoaderFunctionArgs } from "@remix-run/node";
import { consoleContext } from "~/server/context.server";
import { finishGoogleSignIn } from "~/server/google-signin.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return finishGoogleSignIn(request, consoleContext(context));
}
