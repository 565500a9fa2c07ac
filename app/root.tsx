import { cssBundleHref } from "@remix-run/css-bundle";
import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { NotFound } from "~/components/NotFound";
import { Shell } from "~/components/Shell";
import { LeaveGuard } from "~/components/LeaveGuard";
import { RouteAnnouncer } from "~/components/RouteAnnouncer";
import { ToastProvider } from "~/components/Toaster";
import { UnsentPost, useNotePosts } from "~/components/UnsentPost";
import { requireApi } from "~/server/api/client.server";
import { getUserInfo } from "~/server/api/users-api.server";
import { listActiveApps } from "~/server/api/apps-api.server";
import { consoleContext } from "~/server/context.server";
import { takeUnsentPost } from "~/server/unsent-post.server";
import { takeToast } from "~/server/toast.server";
import { ErrorMessage } from "~/components/RouteError";
import { useNonce } from "~/lib/nonce";
import { titleMeta } from "~/lib/page-title";
import { replayTypedBeforeHydration } from "~/lib/typed-before-hydration";
import { keepLayoutData } from "~/lib/revalidation";

export const links: LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  ...(cssBundleHref ? [{ rel: "stylesheet", href: cssBundleHref }] : []),
];

/** Pages a signed-out visitor may see. Everything else requires a session. */
const isPublicPath = (pathname: string) => pathname === "/login" || pathname.startsWith("/login/");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = consoleContext(context);
  const { toast, clearCookie } = await takeToast(request);
  const headers = new Headers(clearCookie ? { "Set-Cookie": clearCookie } : {});
  const url = new URL(request.url);
  if (isPublicPath(url.pathname)) return json({ signedIn: null, toast, unsent: null }, { headers });

  const api = await requireApi(request, ctx);
  // Roles are read fresh whenever the shell loads (a page, a post, another client), not kept from the sign-in.
  const [user, apps] = await Promise.all([getUserInfo(api), listActiveApps(api)]);
  const { mode, templates } = ctx.config.backoffice;
  const unsent = await takeUnsentPost(request, ctx, user.email);
  if (unsent) headers.append("Set-Cookie", unsent.clearCookie);
  return json(
    {
      signedIn: { user, apps, backoffice: { template: templates[mode], origin: url.origin } },
      toast,
      unsent: unsent?.resend ?? null,
    },
    { headers },
  );
}

export default function App() {
  const { signedIn, toast, unsent } = useLoaderData<typeof loader>();
  useNotePosts();
  // Says the browser-side code has taken over (journeys wait for it before relying on it), once
  // what was typed before it did has reached every screen's state.
  useEffect(() => {
    replayTypedBeforeHydration();
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <Document>
      <RouteAnnouncer />
      <ToastProvider serverToast={toast}>
        <LeaveGuard>
          {signedIn ? (
            <Shell {...signedIn}>
              {unsent ? <UnsentPost resend={unsent} /> : null}
              <Outlet />
            </Shell>
          ) : (
            <Outlet />
          )}
        </LeaveGuard>
      </ToastProvider>
    </Document>
  );
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * The shell's user and client list are read again after a post and on a move to another client
 * or screen family; paging, filtering and polling within one ask for them no more (the API checks
 * the roles on every call, so nothing is allowed on the strength of a stale copy).
 */
export const shouldRevalidate = keepLayoutData(1);

/** The console's name, or the 404 page's title; routes that name their page set their own. */
export const meta: MetaFunction = ({ error }) => titleMeta(error);

/** Errors that escaped every route: the shell when we still have it, the spec's texts inside. */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const body = isRouteErrorResponse(error) && error.status === 404 ? <NotFound /> : <ErrorMessage error={error} />;
  return <Document>{data?.signedIn ? <Shell {...data.signedIn}>{body}</Shell> : <main>{body}</main>}</Document>;
}
