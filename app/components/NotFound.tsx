import { NOT_FOUND_TEXT } from "~/lib/messages";

export function NotFound() {
  return (
    <section aria-labelledby="not-found-title">
      <h1 id="not-found-title">{NOT_FOUND_TEXT}</h1>
      <p>
        <a href="/">Back to the clients</a>
      </p>
    </section>
  );
}
