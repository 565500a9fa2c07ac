import { Form, useNavigation } from "@remix-run/react";
import { DATA_MODEL_MESSAGES } from "@contract/values/personalisation";
import type { ProgramRecordsList, RecommendationStatus } from "@contract";
import { usePolling } from "~/components/usePolling";
import { formatDateTimeUtc } from "~/lib/dates";
import { displayValue } from "~/lib/data-model";
import * as ui from "~/styles/ui.css";
import * as s from "./data-model.css";

const inFlight = (status: RecommendationStatus) => status.state === "queued" || status.state === "running";
const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
const METHOD = { rules: "rule-based extraction", llm: "a language model" } as const;

/** One line on the last build: what it is doing or did, with its figures. */
function statusLine(status: RecommendationStatus) {
  const figures = status.progress
    ? `${plural(status.progress.pages, "page")} read, ${plural(status.progress.programs, "program")} found`
    : "";
  switch (status.state) {
    case "never":
      return "The recommendation model has not been built yet.";
    case "queued":
      return "Waiting for a worker to start the build…";
    case "running":
      return `Building… ${figures || "starting"}${status.method ? ` (${METHOD[status.method]})` : ""}.`;
    case "completed":
      return `Built ${status.finished_at ? formatDateTimeUtc(status.finished_at) : ""}: ${figures}${status.method ? `, by ${METHOD[status.method]}` : ""}.`;
    case "failed":
      return `The last build failed${status.finished_at ? ` (${formatDateTimeUtc(status.finished_at)})` : ""}: ${status.error ?? "no reason given"}`;
  }
}

/**
 * 'Build Recommendation Model' and what the last build found: programs with the program model's
 * fields as their pages state them, each with its source. Follows a running build every 2 s.
 */
export function RecommendationModel({
  programs,
  error,
  canConfigure,
  hasFields,
}: {
  programs: ProgramRecordsList | null;
  error: string | null;
  canConfigure: boolean;
  hasFields: boolean;
}) {
  const navigation = useNavigation();
  const status = programs?.status ?? null;
  const running = Boolean(status && inFlight(status));
  usePolling(running);
  const starting = navigation.state === "submitting" && navigation.formData?.get("intent") === "build";
  return (
    <section className={s.section} aria-labelledby="recommendation-title">
      <h2 id="recommendation-title" className={s.sectionTitle}>
        Recommendation Model
      </h2>
      <p className={s.intro}>
        Finds the programs in this client's indexed pages and files and fills the program model's fields where the pages
        state them. The assistant recommends programs from these records. {DATA_MODEL_MESSAGES.buildWarning}
      </p>
      {canConfigure ? (
        <Form method="post" className={ui.toolbar} preventScrollReset>
          <button
            type="submit"
            name="intent"
            value="build"
            className={ui.button.primary}
            disabled={running || starting || !hasFields}
          >
            {running ? "Building…" : "Build Recommendation Model"}
          </button>
          {!hasFields ? <span className={ui.muted}>Add fields to the program model first.</span> : null}
        </Form>
      ) : null}
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : null}
      {status ? (
        <p className={s.status} role="status">
          {running ? <progress className={s.progress} aria-label="Recommendation model build" /> : null}
          {statusLine(status)}
        </p>
      ) : null}
      {programs && programs.programs.length > 0 ? (
        <div className={ui.tableScroll} tabIndex={0}>
          <table aria-label="Programs found">
            <thead>
              <tr>
                <th scope="col">Program</th>
                <th scope="col">Fields</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {programs.programs.map((program) => (
                <tr key={program.id}>
                  <td>{program.name}</td>
                  <td>
                    {Object.keys(program.values).length ? (
                      <dl className={s.values}>
                        {Object.entries(program.values).map(([field, value]) => (
                          <div key={field} className={s.valueRow}>
                            <dt>{field}</dt>
                            <dd>
                              {displayValue(value)}
                              {program.evidence[field] ? (
                                <div className={s.evidence}>“{program.evidence[field]}”</div>
                              ) : null}
                            </dd>
                          </div>
                        ))}
                      </dl>
                    ) : (
                      <span className={ui.muted}>No field stated on the page</span>
                    )}
                  </td>
                  <td>
                    <a href={program.source_url} target="_blank" rel="noopener noreferrer">
                      {program.source_url}
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
