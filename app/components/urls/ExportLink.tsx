import { useState } from "react";
import { useHydrated } from "~/components/useHydrated";
import { EXPORT_LEFT_OUT_HEADER, exportDoneMessage } from "~/lib/urls";
import * as ui from "~/styles/ui.css";

const fileNameOf = (disposition: string | null) =>
  /filename="?([^";]+)"?/.exec(disposition ?? "")?.[1] ?? "urls_export.csv";

/**
 * Export CSV: a link to the export resource route with the view's filters. Without JavaScript it
 * simply downloads (dates in UTC); with it the browser's time zone goes along, the file is
 * fetched, handed to the browser as a download, and a toast says how it went.
 */
export function ExportLink({
  href,
  onToast,
}: {
  href: string;
  onToast: (type: "success" | "error", description: string) => void;
}) {
  const hydrated = useHydrated();
  const [running, setRunning] = useState(false);
  const withZone = (base: string) => {
    const url = new URL(base, window.location.href);
    url.searchParams.set("tz", Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
    return `${url.pathname}${url.search}`;
  };
  const target = hydrated ? withZone(href) : href;
  return (
    <a
      href={target}
      download
      className={ui.button.secondary}
      aria-disabled={running || undefined}
      onClick={async (event) => {
        event.preventDefault();
        if (running) return;
        setRunning(true);
        try {
          const response = await fetch(target, { headers: { accept: "text/csv" } });
          if (!response.ok) throw new Error(`Export answered ${response.status}`);
          const blob = await response.blob();
          const url = URL.createObjectURL(blob);
          const anchor = document.createElement("a");
          anchor.href = url;
          anchor.download = fileNameOf(response.headers.get("content-disposition"));
          document.body.append(anchor);
          anchor.click();
          anchor.remove();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
          onToast("success", exportDoneMessage(response.headers.get(EXPORT_LEFT_OUT_HEADER)));
        } catch {
          onToast("error", "Failed to export URLs");
        } finally {
          setRunning(false);
        }
      }}
    >
      {running ? "Exporting..." : "Export CSV"}
    </a>
  );
}
