import { getFormProps, useForm } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { ImportFilesTable } from "~/components/clients/ImportFilesTable";
import { ImportReplaceConfirm } from "~/components/clients/ImportReplaceConfirm";
import { IMPORT_REPLACE_CONFIRMED, importPageTicking, isImportReplaceQuestion } from "~/lib/import-question";
import * as f from "~/styles/forms.css";
import { IMPORT_LOAD_ERROR_TEXT, NO_IMPORT_FILES_TEXT } from "~/components/clients/texts";
import { useHydrated } from "~/components/useHydrated";
import { RouteError } from "~/components/RouteError";
import { useZodValidationOnFirstUse } from "~/lib/use-zod-validation-on-first-use";
import { requireApi } from "~/server/api/client.server";
import { appsApi } from "~/server/api/apps-api.server";
import {
  askBeforeReplacing,
  importFailureMessage,
  importedSummary,
  readImportClientsForm,
} from "~/server/client-form.server";
import { consoleContext } from "~/server/context.server";
import { requireUserWithPermission } from "~/server/permissions.server";
import { redirectWithToast } from "~/server/toast.server";
import * as ui from "~/styles/ui.css";
import { readForm } from "~/server/http/form-data.server";
export { keepDataAfterUnavailable as shouldRevalidate } from "~/lib/revalidation";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  try {
    return json({ files: await appsApi.exportFiles(api), loadError: false });
  } catch (error) {
    // Sign-in redirects and permission refusals are the page's answer; anything else is the spec's load error.
    if (error instanceof Response) throw error;
    return json({ files: [] as string[], loadError: true });
  }
}

/**
 * Imports the ticked files one by one, in order; the first failure stops the run, keeping what was
 * imported; the page comes back with the files not imported still ticked. Where a file would change a client that exists, the answer is first the question that
 * says what would change, and the files are imported once it is confirmed, if what they would
 * change is still what was asked; else the question is asked again.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const api = await requireApi(request, consoleContext(context));
  await requireUserWithPermission(api, "create_client");
  const form = await readForm(request);
  const submission = readImportClientsForm(form);
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  // A confirmation imports only what it was given for: the files are previewed again either way.
  const confirmed = form.get(IMPORT_REPLACE_CONFIRMED) === "yes" ? submission.value.replace_asked : undefined;
  const asked = await askBeforeReplacing(api, submission.value.file_name, confirmed);
  if (asked) return asked;
  // What each import did ("Imported Acme", "Updated Northfield University"): an update overwrites a client.
  const done: string[] = [];
  const fileNames = submission.value.file_name;
  for (const [index, fileName] of fileNames.entries()) {
    try {
      done.push((await appsApi.importFromFile(api, fileName)).message);
    } catch (error) {
      return redirectWithToast(importPageTicking(fileNames.slice(index)), {
        type: "error",
        title: done.length ? importedSummary(done) : undefined,
        description: importFailureMessage(fileName, error),
      });
    }
  }
  return redirectWithToast("/clients", { type: "success", description: importedSummary(done) });
}

const IMPORT_FORM_ID = "import-clients";

/** The ticked files the address names, one per line (a file's name holds no line break). */
const tickedSet = (lines: string) => new Set(lines ? lines.split("\n") : []);

/** The form's schema, fetched when the form is first used (see useZodValidationOnFirstUse). */
const loadSchema = () => import("~/lib/client-form.schema").then((module) => module.ImportClientsForm);

export default function ImportClients() {
  const { files, loadError } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const question = isImportReplaceQuestion(answer) ? answer : null;
  // The question is not the form's reply: conform reads only the reply.
  const lastResult = isImportReplaceQuestion(answer) ? undefined : answer;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  // The address says which files start ticked (after a failed import or a cancelled question).
  // (useLocation, not useSearchParams: the latter would add its code to every page's shared chunk.)
  const tickedByAddress = new URLSearchParams(useLocation().search).getAll("file_name").join("\n");
  const [selected, setSelected] = useState(() => tickedSet(tickedByAddress));
  const [shownAddress, setShownAddress] = useState(tickedByAddress);
  if (shownAddress !== tickedByAddress) {
    // With JavaScript, the redirect after a failure keeps this page mounted: tick what it names.
    setShownAddress(tickedByAddress);
    setSelected(tickedSet(tickedByAddress));
  }
  const onValidate = useZodValidationOnFirstUse(IMPORT_FORM_ID, loadSchema);
  const [form, fields] = useForm({
    id: IMPORT_FORM_ID,
    lastResult,
    shouldValidate: "onSubmit",
    onValidate,
  });
  const chosen = files.filter((file) => selected.has(file));
  // Without JavaScript the button always submits and the server answers an empty selection.
  const disabled = hydrated && (chosen.length === 0 || navigation.state !== "idle");
  const errors = [...(fields.file_name.errors ?? []), ...(fields.replace_asked.errors ?? []), ...(form.errors ?? [])];

  if (question)
    return (
      <section aria-labelledby="import-title">
        <h1 id="import-title">Import Clients</h1>
        <ImportReplaceConfirm question={question} />
      </section>
    );
  return (
    <section aria-labelledby="import-title">
      <h1 id="import-title">Import Clients</h1>
      <Form method="post" {...getFormProps(form)}>
        {loadError ? (
          <p role="alert" className={ui.fieldError}>
            {IMPORT_LOAD_ERROR_TEXT}
          </p>
        ) : files.length ? (
          <ImportFilesTable files={files} selected={selected} onChange={setSelected} hydrated={hydrated} />
        ) : (
          <p className={ui.muted}>{NO_IMPORT_FILES_TEXT}</p>
        )}
        {errors.length ? (
          <p id={fields.file_name.errorId} role="alert" className={ui.fieldError}>
            {errors[0]}
          </p>
        ) : null}
        <div className={f.actions}>
          <button type="submit" className={ui.button.primary} disabled={disabled}>
            Import Selected
          </button>
          <Link to="/clients" className={ui.button.secondary}>
            Cancel
          </Link>
        </div>
      </Form>
    </section>
  );
}

export const meta: MetaFunction = () => [{ title: "Import Clients · Assistant Console" }];

export function ErrorBoundary() {
  return <RouteError />;
}
