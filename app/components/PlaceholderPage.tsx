import * as ui from "~/styles/ui.css";

/**
 * A route that exists (navigation and breadcrumbs reach it) whose screen is not built yet.
 * It says so plainly rather than pretending to work.
 */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <section>
      <h1>{title}</h1>
      <p className={ui.muted} data-testid="placeholder">
        This screen is not available yet.
      </p>
    </section>
  );
}
