import type { ReactNode } from "react";
import { Link, useLocation } from "@remix-run/react";
import { Drawer } from "~/components/Drawer";
import { useHydrated } from "~/components/useHydrated";
import { useClientToast } from "~/components/urls/params";
import * as s from "~/components/urls/urls.css";
import { FONT_SIZES, viewerSettings } from "~/lib/urls";
import { addressWithout, keepDataWhileSame } from "~/lib/revalidation";
import { copyWithoutJavaScript } from "~/lib/messages";
import * as ui from "~/styles/ui.css";

/**
 * The chunks drawer (60% width) of a URL or an uploaded file: the stored chunks as formatted
 * JSON, with Copy JSON, font size A-/A+ and a dark or light theme — the last two kept in the
 * address (`font`, `theme`) so they work without JavaScript and survive a reload.
 */
export function ChunksDrawer({
  title,
  closeTo,
  chunks,
  error,
  loading,
  children,
}: {
  title: string;
  closeTo: string;
  chunks: unknown[] | null;
  error: string | null;
  loading: boolean;
  /** Shown between the controls and the chunks: which of a file's chunks these are. */
  children?: ReactNode;
}) {
  const location = useLocation();
  const { font, theme } = viewerSettings(new URLSearchParams(location.search));
  const hydrated = useHydrated();
  const { show } = useClientToast();
  const hrefWith = (changes: Record<string, string>) => {
    const next = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(changes)) next.set(key, value);
    return `?${next}`;
  };
  const text = chunks ? JSON.stringify(chunks, null, 2) : "";
  const smaller = Math.max(FONT_SIZES.min, font - FONT_SIZES.step);
  const larger = Math.min(FONT_SIZES.max, font + FONT_SIZES.step);

  return (
    <Drawer title={title} size="medium" closeTo={closeTo}>
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
        ) : chunks?.length ? (
          <span className={ui.muted}>{copyWithoutJavaScript("JSON", "Copy JSON")}</span>
        ) : null}
        <Link
          to={hrefWith({ font: String(smaller) })}
          replace
          preventScrollReset
          className={ui.button.secondary}
          aria-label="Smaller font (A-)"
          aria-disabled={font <= FONT_SIZES.min || undefined}
        >
          A-
        </Link>
        <span aria-live="polite">{font}px</span>
        <Link
          to={hrefWith({ font: String(larger) })}
          replace
          preventScrollReset
          className={ui.button.secondary}
          aria-label="Larger font (A+)"
          aria-disabled={font >= FONT_SIZES.max || undefined}
        >
          A+
        </Link>
        <Link
          to={hrefWith({ theme: theme === "dark" ? "light" : "dark" })}
          replace
          preventScrollReset
          className={ui.button.secondary}
        >
          {theme === "dark" ? "Light theme" : "Dark theme"}
        </Link>
      </div>
      {children}
      {loading ? (
        <div role="status" aria-label="Loading chunks" className={s.spinner} />
      ) : error ? (
        <p className={s.errorBox} role="alert">
          {error}
        </p>
      ) : !chunks || chunks.length === 0 ? (
        <p className={ui.muted}>No data available</p>
      ) : (
        <pre
          className={`${s.json[theme]} ${s.jsonFont[String(font)] ?? ""}`}
          data-testid="chunks-json"
          tabIndex={0}
          aria-label="Chunks as JSON"
        >
          {text}
        </pre>
      )}
    </Drawer>
  );
}

/**
 * The drawer routes' `shouldRevalidate`: their font size and theme are the browser's business, so
 * changing them asks the API for nothing; any other change of address, or a post, loads as usual.
 */
export const chunksDrawerShouldRevalidate = keepDataWhileSame(addressWithout(["font", "theme"]));
