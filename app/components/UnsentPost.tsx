import { Form, Link, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import { useFocusOnShow } from "./useFocusOnShow";
import { UNSENT_OFFERED_AGAIN, type Resend } from "~/lib/messages";
import * as ui from "~/styles/ui.css";

/**
 * A form posted after the session ended, offered again once its user has signed in (the server
 * kept its fields: unsent-post.server.ts), or one the API could not take while its data was out of
 * reach, offered in the error screen that took its page's place (RouteError). It posts the same
 * fields to the same address, as the page's own form would; leaving it reloads the page, which
 * offers it no more.
 */
export function UnsentPost({
  resend,
  message = UNSENT_OFFERED_AGAIN,
  takeFocus = false,
}: {
  resend: Resend;
  message?: string;
  /** In an error screen drawn in place of the form that was sent: its Save button went with it, and focus with it. */
  takeFocus?: boolean;
}) {
  const page = resend.to.split("?")[0];
  const box = useRef<HTMLElement>(null);
  useFocusOnShow(takeFocus ? box : NO_ELEMENT, resend);
  return (
    <section ref={box} tabIndex={-1} className={ui.card} aria-label="Not sent">
      <p role="alert">{message}</p>
      <Form method="post" action={resend.to} className={ui.toolbar}>
        {resend.fields.map(([name, value], index) => (
          <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className={ui.button.primary}>
          Send it again
        </button>
        <Link to={page} reloadDocument className={ui.button.secondary}>
          Leave it
        </Link>
      </Form>
    </section>
  );
}

const NO_ELEMENT = { current: null };

/** The last post this page sent with JavaScript: its address and text fields (files are not kept). */
let lastPost: Resend | null = null;

/**
 * Notes each post as it is sent (the root's component, drawn on every page). When the API cannot
 * take it and cannot give the page its data either (a database away for a while), the page's error
 * screen takes the form's place; what was typed is then offered again from here, as the server
 * offers it to a browser without JavaScript (resend-page.server.ts).
 */
export function useNotePosts() {
  const { state, formMethod, formAction, formData } = useNavigation();
  if (state === "submitting" && formMethod?.toUpperCase() === "POST" && formAction && formData) {
    const fields = [...formData].filter((field): field is [string, string] => typeof field[1] === "string");
    lastPost = { to: formAction, fields };
  }
  // Leaving for another page drops it: what was typed (a key, say) is kept no longer than needed.
  if (state === "loading" && !formData) lastPost = null;
}

/** The post `useNotePosts` noted last, if any. */
export const lastPostSent = () => lastPost;
