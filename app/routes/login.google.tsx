import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { consoleContext } from "~/server/context.server";
import { beginGoogleSignIn } from "~/server/google-signin.server";

export const loader = () => redirect("/login");

export async function action({ request, context }: ActionFunctionArgs) {
  return beginGoogleSignIn(request, consoleContext(context));
}
