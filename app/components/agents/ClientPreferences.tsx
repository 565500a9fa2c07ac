import { Form, Link, useNavigation } from "@remix-run/react";
import * as ui from "~/styles/ui.css";
import * as s from "./agents.css";

export const EXPORT_INTENT = "export";

/**
 * The 'Manage Client Preference' buttons: Manage Profile, Manage Access Control and Export App.
 * Export App is a real form (works without JavaScript); with JavaScript it reads 'Exporting...'
 * and is disabled until the export is done. Users who may not configure the client see it disabled.
 */
export function ClientPreferences({
  urlCode,
  canExport,
  exportError,
}: {
  urlCode: string;
  canExport: boolean;
  /** Why the last export was refused while the page stays (too many exports in a minute). */
  exportError?: string;
}) {
  const navigation = useNavigation();
  const exporting = navigation.state !== "idle" && navigation.formData?.get("intent") === EXPORT_INTENT;
  return (
    <section aria-labelledby="client-preferences-title" className={s.preferences}>
      <h2 id="client-preferences-title" className={s.preferencesTitle}>
        Manage Client Preference
      </h2>
      <Link to={`/${urlCode}/manage`} className={ui.button.secondary}>
        Manage Profile
      </Link>
      <Link to={`/${urlCode}/access-control`} className={ui.button.secondary}>
        Manage Access Control
      </Link>
      <Form method="post">
        <input type="hidden" name="intent" value={EXPORT_INTENT} />
        <button
          type="submit"
          className={ui.button.primary}
          disabled={!canExport || exporting}
          aria-describedby={exportError ? "export-error" : undefined}
        >
          {exporting ? "Exporting..." : "Export App"}
        </button>
        {exportError && !exporting ? (
          <p id="export-error" role="alert" className={ui.fieldError}>
            {exportError}
          </p>
        ) : null}
      </Form>
    </section>
  );
}
