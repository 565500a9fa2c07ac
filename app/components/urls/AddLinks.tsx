import { Form, useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/components/useHydrated";
import { parseLinks } from "~/lib/urls";
import * as ui from "~/styles/ui.css";
import * as s from "./urls.css";

/**
 * '+ Links': a 4-row box of addresses, one a line, with Cancel and Add. A <details> opens it
 * without JavaScript; with it, Add stays disabled while the box is blank and nothing is sent
 * when no line is left after trimming.
 */
export function AddLinks({ error, postedText }: { error: string | null; postedText: string }) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [open, setOpen] = useState(Boolean(error));
  const [text, setText] = useState(postedText);
  // Until the answer has loaded: a refused add's message, or a successful one's page without it,
  // arrives with the loading that follows the submission (the earlier message is still there meanwhile).
  const adding = navigation.state !== "idle" && navigation.formData?.get("intent") === "add-links";
  const blank = text.trim() === "";
  const location = useLocation();
  const wasAdding = useRef(false);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    // A successful add redirects back without an error: close and clear the box.
    if (wasAdding.current && !adding && !error) {
      setText("");
      setOpen(false);
    }
    if (!adding && error) {
      setOpen(true);
      // A refused add takes the keyboard back to the links to fix (the pressed Add was disabled meanwhile).
      if (wasAdding.current) box.current?.focus();
    }
    wasAdding.current = adding;
  }, [adding, error]);
  return (
    <details className={s.menu} open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary className={`${ui.button.primary} ${s.menuSummary}`}>+ Links</summary>
      <Form
        method="post"
        className={`${s.menuPanel} ${s.addLinks}`}
        preventScrollReset
        onSubmit={(event) => {
          if (parseLinks(text).length === 0) event.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value="add-links" />
        <label htmlFor="add-links" className={ui.label}>
          Links (one per line)
        </label>
        <textarea
          ref={box}
          id="add-links"
          name="links"
          rows={4}
          className={s.textarea}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "add-links-error" : undefined}
          placeholder="https://www.example.edu/page"
        />
        {error ? (
          <p id="add-links-error" className={s.errorText} role="alert">
            {error}
          </p>
        ) : null}
        <div className={s.toolbar}>
          {hydrated ? (
            <button
              type="button"
              className={ui.button.secondary}
              onClick={() => {
                setText("");
                setOpen(false);
              }}
            >
              Cancel
            </button>
          ) : (
            // Without JavaScript, reloading the view closes the box.
            <a href={`${location.pathname}${location.search}`} className={ui.button.secondary}>
              Cancel
            </a>
          )}
          <button type="submit" className={ui.button.primary} disabled={adding || (hydrated && blank)}>
            {adding ? "Adding…" : "Add"}
          </button>
        </div>
      </Form>
    </details>
  );
}
