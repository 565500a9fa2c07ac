import { Link } from "@remix-run/react";
import * as ui from "~/styles/ui.css";
import * as s from "./integrations.css";

/**
 * One of a few values, chosen by address: plain links (so the choice works without JavaScript),
 * the chosen one marked current. Following one replaces the history entry, since it only changes the view.
 */
export function ChoiceLinks({
  label,
  options,
  current,
  hrefOf,
}: {
  label: string;
  options: { value: string; label: string }[];
  current: string;
  hrefOf: (value: string) => string;
}) {
  return (
    <nav aria-label={label} className={s.choice}>
      <p className={s.choiceLabel} aria-hidden="true">
        {label}
      </p>
      <ul className={s.choices}>
        {options.map((option) => {
          const chosen = option.value === current;
          return (
            <li key={option.value}>
              <Link
                to={hrefOf(option.value)}
                replace
                preventScrollReset
                aria-current={chosen ? "true" : undefined}
                className={chosen ? ui.button.primary : ui.button.secondary}
              >
                {option.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
