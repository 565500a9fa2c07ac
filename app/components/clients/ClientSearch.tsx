import { Form, useLocation, useSubmit } from "@remix-run/react";
import { useFieldFollowsAddress } from "~/components/useFieldFollowsAddress";
import * as ui from "~/styles/ui.css";
import * as s from "./clients.css";
import { useDebounced } from "./useDebounced";

export const SEARCH_DEBOUNCE_MS = 300;

/**
 * Searches clients by name or url_code through the `search` URL parameter: a GET form whose
 * button works without JavaScript; with it, results follow the typing 300 ms after the last key.
 */
export function ClientSearch({ search }: { search: string }) {
  const { pathname } = useLocation();
  const submit = useSubmit();
  const input = useFieldFollowsAddress<HTMLInputElement>(search);
  const searchAsYouType = useDebounced((form: HTMLFormElement) => submit(form, { replace: true }), SEARCH_DEBOUNCE_MS);

  return (
    <Form method="get" action={pathname} role="search" className={s.search} onSubmit={searchAsYouType.cancel}>
      <label htmlFor="client-search" className={ui.visuallyHidden}>
        Search clients
      </label>
      <input
        ref={input}
        id="client-search"
        type="search"
        name="search"
        defaultValue={search}
        placeholder="Search by name or url code"
        className={`${ui.input} ${s.searchInput}`}
        onChange={(event) => {
          if (event.currentTarget.form) searchAsYouType(event.currentTarget.form);
        }}
      />
      <button type="submit" className={ui.button.secondary}>
        Search
      </button>
    </Form>
  );
}
