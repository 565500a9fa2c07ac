import { Form, Link } from "@remix-run/react";
import { UNSENT_OFFERED_AGAIN, type Resend } from "~/lib/messages";
import * as ui from "~/styles/ui.css";

/**
 * A form posted after the session ended, offered again once its user has signed in (the server
 * kept its fields: unsent-post.server.ts). It posts the same fields to the same address, as the
 * page's own form would; leaving it reloads the page, which offers it no more.
 */
export function UnsentPost({ resend }: { resend: Resend }) {
  const page = resend.to.split("?")[0];
  return (
    <section className={ui.card} aria-label="Not sent">
      <p role="alert">{UNSENT_OFFERED_AGAIN}</p>
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
