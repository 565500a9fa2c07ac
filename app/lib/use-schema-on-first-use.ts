import { useEffect, useState } from "react";

/*
 * Why forms load their checks late: zod's runtime is about 77 KB of brotli JavaScript, as much as
 * all the rest of a page, and a page that merely shows a form never needs it. So a form's schema
 * module (and conform's zod parser) is fetched with import() the first time the person focuses
 * or types in the form, usually well before they submit it. Until it has arrived the form
 * validates nothing in the browser: it submits and the server's own validation answers, exactly
 * as without JavaScript. Forms validated with conform use useZodValidationOnFirstUse
 * (./use-zod-validation-on-first-use), built on this hook; this module stays free of conform so
 * that a screen without conform (the AI Finetuning tables) does not load it.
 */

/** The events that show someone is using a form: focus moving into it, or a value changing. */
const FIRST_USE_EVENTS = ["focusin", "input"] as const;

/** The form an event's target belongs to (a field's own form, or the form it sits in). */
function formOf(target: EventTarget | null): HTMLFormElement | null {
  if (!(target instanceof Element)) return null;
  const owner = (target as Partial<HTMLInputElement>).form;
  return owner instanceof HTMLFormElement ? owner : target.closest("form");
}

/**
 * What `load` resolves to, once someone has first focused or typed in the form `#formId`; null
 * until then (and while it is on its way). A failed load is tried again on the next use. Give a
 * `load` that keeps its identity (a module-level function): a new one starts over.
 */
export function useSchemaOnFirstUse<T>(formId: string, load: () => Promise<T>): T | null {
  const [loaded, setLoaded] = useState<{ value: T } | null>(null);
  const done = loaded !== null;

  useEffect(() => {
    if (done) return;
    let active = true;
    let loading = false;
    const start = () => {
      if (loading) return;
      loading = true;
      load().then(
        (value) => {
          if (active) setLoaded({ value });
        },
        () => {
          loading = false; // offline for a moment: the next focus or keystroke tries again
        },
      );
    };
    const onUse = (event: Event) => {
      if (formOf(event.target)?.id === formId) start();
    };
    for (const type of FIRST_USE_EVENTS) document.addEventListener(type, onUse, true);
    // Someone may have clicked into the form before the page's scripts ran.
    if (formOf(document.activeElement)?.id === formId) start();
    return () => {
      active = false;
      for (const type of FIRST_USE_EVENTS) document.removeEventListener(type, onUse, true);
    };
  }, [formId, load, done]);

  return loaded ? loaded.value : null;
}
