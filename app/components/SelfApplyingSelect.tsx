import { useSubmit } from "@remix-run/react";
import { useHydrated } from "~/components/useHydrated";
import * as ui from "~/styles/ui.css";

/**
 * A choice that lives in the address: the select submits its GET form as soon as it changes;
 * without JavaScript, the button beside it does. Keyed by the value, so that going back to an
 * earlier address shows that address's choice.
 */
export function SelfApplyingSelect({
  id,
  name,
  value,
  options,
  button,
  replace = true,
}: {
  id: string;
  name: string;
  value: string;
  options: readonly { value: string; label: string }[];
  /** The button's words, shown only while the page runs without JavaScript. */
  button: string;
  /** Whether the new address replaces the current one in the history, rather than following it. */
  replace?: boolean;
}) {
  const submit = useSubmit();
  const hydrated = useHydrated();
  return (
    <>
      <select
        key={value}
        id={id}
        name={name}
        defaultValue={value}
        className={ui.input}
        onChange={(event) => submit(event.currentTarget.form, { replace, preventScrollReset: true })}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hydrated ? null : (
        <button type="submit" className={ui.button.secondary}>
          {button}
        </button>
      )}
    </>
  );
}

/** Page sizes as a select's options. */
export const pageSizeOptions = (sizes: readonly number[]) =>
  sizes.map((size) => ({ value: String(size), label: String(size) }));
