import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Drawer } from "~/components/Drawer";
import { RouteError } from "~/components/RouteError";
import { Toaster } from "~/components/Toaster";
import { useHydrated } from "~/components/SaveBar";
import { useClientToast } from "~/components/urls/params";
import * as s from "~/components/urls/urls.css";
import { FONT_SIZES, sameData, viewerSettings } from "~/lib/urls";
import * as ui from "~/styles/ui.css";
import { requireClient } from "~/server/clients.server";
import { consoleContext } from "~/server/context.server";
import { loadChunks, parseWebsiteId } from "~/server/urls.server";

/** The chunks drawer, over the view-links drawer: one URL's cached chunks (`?url=`), font size and theme in the address too. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, app } = await requireClient(request, consoleContext(context), params.appName);
  const websiteId = parseWebsiteId(params.websiteId);
  const search = new URL(request.url).searchParams;
  const url = search.get("url")?.trim() ?? "";
  const result = url ? await loadChunks(api, app.id, websiteId, url) : { chunks: null, error: "Choose a URL to see its chunks" };
  return json({ url, ...result });
}

export default function ChunksDrawer() {
  const { url, chunks, error } = useLoaderData<typeof loader>();
  const location = useLocation();
  // Read from the address, not the loader: changing them reloads nothing.
  const { font, theme } = viewerSettings(new URLSearchParams(location.search));
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const { toast, show } = useClientToast();
  const params = new URLSearchParams(location.search);
  const hrefWith = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) next.set(key, value);
    return `?${next}`;
  };
  const back = new URLSearchParams(params);
  for (const key of ["url", "font", "theme"]) back.delete(key);
  const closeTo = `${location.pathname.replace(/\/chunks\/?$/, "")}${back.size ? `?${back}` : ""}`;
  const text = chunks ? JSON.stringify(chunks, null, 2) : "";
  // Another URL's chunks on their way (font and theme changes load nothing).
  const loading = navigation.state === "loading" && navigation.location.pathname === location.pathname
    && new URLSearchParams(navigation.location.search).get("url") !== url;
  const smaller = Math.max(FONT_SIZES.min, font - FONT_SIZES.step);
  const larger = Math.min(FONT_SIZES.max, font + FONT_SIZES.step);

  return (
    <Drawer title={`Chunks for URL ${url}`} size="medium" closeTo={closeTo}>
      <Toaster toast={toast} />
      <div className={s.jsonControls}>
        {hydrated && chunks?.length ? (
          <button
            type="button"
            className={ui.button.secondary}
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(text);
                show("success", "JSON copied to clipboard!");
              } catch {
                show("error", "Could not copy to the clipboard");
              }
            }}
          >
            Copy JSON
          </button>
        ) : null}
        <Link to={hrefWith({ font: String(smaller) })} replace preventScrollReset className={ui.button.secondary} aria-label="Smaller font (A-)" aria-disabled={font <= FONT_SIZES.min || undefined}>
          A-
        </Link>
        <span aria-live="polite">{font}px</span>
        <Link to={hrefWith({ font: String(larger) })} replace preventScrollReset className={ui.button.secondary} aria-label="Larger font (A+)" aria-disabled={font >= FONT_SIZES.max || undefined}>
          A+
        </Link>
        <Link to={hrefWith({ theme: theme === "dark" ? "light" : "dark" })} replace preventScrollReset className={ui.button.secondary}>
          {theme === "dark" ? "Light theme" : "Dark theme"}
        </Link>
      </div>
      {loading ? (
        <div role="status" aria-label="Loading chunks" className={s.spinner} />
      ) : error ? (
        <p className={s.errorBox} role="alert">{error}</p>
      ) : !chunks || chunks.length === 0 ? (
        <p className={ui.muted}>No data available</p>
      ) : (
        <pre className={`${s.json[theme]} ${s.jsonFont[String(font)] ?? ""}`} data-testid="chunks-json" tabIndex={0} aria-label="Chunks as JSON">
          {text}
        </pre>
      )}
    </Drawer>
  );
}

/** Font size and theme are the browser's business: changing them asks the API for nothing. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.href !== nextUrl.href && sameData(currentUrl, nextUrl, ["font", "theme"])) return false;
  return defaultShouldRevalidate;
};

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data ? `Chunks for URL ${data.url} · Assistant Console` : "Chunks · Assistant Console" }];

export function ErrorBoundary() {
  return <RouteError />;
}
