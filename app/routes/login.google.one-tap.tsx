import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { consoleContext } from "~/server/context.server";
import { oneTapSignIn } from "~/server/google-signin.server";

export const loader = () => redirect("/login");

export async function action({ request, context }: ActionFunctionArgs) {
  return oneTapSignIn(request, consoleContext(context));
}
