import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { LogoutConfirm } from "~/components/LogoutConfirm";
import { requireSignedIn, revokeSessionTokens } from "~/server/auth.server";
import { consoleContext } from "~/server/context.server";
import { destroySession, getSession } from "~/server/session.server";
import * as ui from "~/styles/ui.css";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

/** Without JavaScript the profile menu's Logout lands here: the same question, server-rendered. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSignedIn(request, consoleContext(context));
  return null;
}

/** Clears the tokens and the user and returns to /. */
export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = consoleContext(context);
  const session = await getSession(request, ctx);
  await revokeSessionTokens(ctx, session.get("refresh_token"));
  return redirect("/", { headers: { "Set-Cookie": await destroySession(session, ctx) } });
}

export default function Logout() {
  return (
    <section className={ui.card}>
      <h1>Logout</h1>
      <LogoutConfirm />
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Logout · Assistant Console" }];
