import { getFormProps, type FormMetadata } from "@conform-to/react";
import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { SaveBar } from "~/components/SaveBar";
import { differsFrom, READ_ONLY_MESSAGE, type Baseline } from "~/lib/controls";
import * as ui from "~/styles/ui.css";
import * as s from "./controls.css";

/** Whether this page's form is being saved right now. */
function useSaving() {
  const navigation = useNavigation();
  const location = useLocation();
  return (
    navigation.state === "submitting" &&
    navigation.formMethod?.toUpperCase() === "POST" &&
    navigation.formAction?.split("?")[0] === location.pathname
  );
}

/** Every named field's current text, as the baseline spells it (a ticked checkbox is "on"). */
function currentValues(form: HTMLFormElement, names: string[]): Baseline {
  const values: Baseline = {};
  for (const name of names) {
    const element = form.elements.namedItem(name);
    if (element instanceof HTMLInputElement && element.type === "checkbox")
      values[name] = element.checked ? element.value : "";
    else if (
      element instanceof HTMLInputElement ||
      element instanceof HTMLTextAreaElement ||
      element instanceof HTMLSelectElement
    )
      values[name] = element.value;
  }
  return values;
}

/**
 * The spec's dirty flag: the form against what was loaded, checked as the user types (and when
 * the form appears, which after a refused save holds what was posted).
 */
function useDirty(baseline: Baseline) {
  const formRef = useRef<HTMLFormElement>(null);
  const [dirty, setDirty] = useState(false);
  const check = useCallback(() => {
    if (formRef.current) setDirty(differsFrom(baseline, currentValues(formRef.current, Object.keys(baseline))));
  }, [baseline]);
  useEffect(check, [check]);
  return { formRef, dirty, check };
}

/**
 * A controls form: a plain POST to this very address (the trigger point rides in the query), the
 * save bar first so Enter saves, then the fields. Save is disabled until something changes;
 * after a successful save the page reloads the saved values and the form starts clean. A user
 * who may only look gets the fields disabled and no save bar.
 */
export function ControlsForm<Schema extends Record<string, unknown>>({
  form,
  label,
  baseline,
  readOnly,
  children,
}: {
  form: FormMetadata<Schema, string[]>;
  label: string;
  baseline: Baseline;
  readOnly: boolean;
  children: ReactNode;
}) {
  const location = useLocation();
  const saving = useSaving();
  const { formRef, dirty, check } = useDirty(baseline);
  return (
    <Form
      ref={formRef}
      method="post"
      action={`${location.pathname}${location.search}`}
      {...getFormProps(form)}
      // The server's messages must show without JavaScript too: no browser checks in the way.
      noValidate
      aria-label={label}
      onChange={check}
    >
      {/* What this page loaded: the save keeps what was changed elsewhere since (controls.server.ts). */}
      <input type="hidden" name="loaded" value={JSON.stringify(baseline)} />
      {readOnly ? (
        <p className={`${ui.muted} ${s.readOnlyNote}`}>{READ_ONLY_MESSAGE}</p>
      ) : (
        <SaveBar dirty={dirty} saving={saving} />
      )}
      {form.errors?.length ? (
        <p id={form.errorId} role="alert" className={`${ui.fieldError} ${s.formError}`}>
          {form.errors.join("\n")}
        </p>
      ) : null}
      <fieldset disabled={readOnly} className={s.fieldset}>
        <legend className={ui.visuallyHidden}>{label}</legend>
        {children}
      </fieldset>
    </Form>
  );
}
