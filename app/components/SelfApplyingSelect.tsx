import { useSubmit } from "@remix-run/react";
import { useRef } from "react";
import { useFieldFollowsAddress } from "~/components/useFieldFollowsAddress";
import { useHydrated } from "~/components/useHydrated";
import * as ui from "~/styles/ui.css";

/** Keys that move a closed select's choice without opening it. */
const MOVING_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

/**
 * A choice that lives in the address: the select submits its GET form as soon as it is chosen with
 * the pointer; without JavaScript, the button beside it does. Moved through with the keyboard, it
 * submits on Enter or when the focus leaves it, not on every arrow key (WCAG 3.2.2: a choice does
 * not change the page by itself), and keeps the focus. It follows the address, so going back to an
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
  const field = useFieldFollowsAddress<HTMLSelectElement>(value);
  // Whether the choice now shown was reached by keys, and is not applied yet.
  const movedByKeys = useRef(false);
  const apply = (select: HTMLSelectElement) => {
    movedByKeys.current = false;
    if (select.value !== value) submit(select.form, { replace, preventScrollReset: true });
  };
  return (
    <>
      <select
        ref={field}
        id={id}
        name={name}
        defaultValue={value}
        className={ui.input}
        onKeyDown={(event) => {
          // A letter moves to the option it starts (a space opens the list, whose choice comes as a change).
          if (MOVING_KEYS.has(event.key) || (event.key.length === 1 && event.key !== " ")) movedByKeys.current = true;
          else if (event.key === "Enter") {
            event.preventDefault();
            apply(event.currentTarget);
          }
        }}
        onChange={(event) => {
          if (!movedByKeys.current) apply(event.currentTarget);
        }}
        onBlur={(event) => {
          if (movedByKeys.current) apply(event.currentTarget);
        }}
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
