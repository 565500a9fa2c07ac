import type { FieldChange } from "~/lib/json-diff";
import * as s from "./history.css";

const WORDS: Record<FieldChange["change"], string> = { added: "added", removed: "removed", changed: "changed" };

/** One change, field by field: the old value struck through, the new one beside it. */
export function ChangeDiff({ fields, moreFields }: { fields: FieldChange[]; moreFields: number }) {
  if (!fields.length) return <p>No field differs.</p>;
  return (
    <ul className={s.fields}>
      {fields.map((field) => (
        <li key={`${field.change} ${field.path}`} className={s.field} data-change={field.change}>
          <span className={s.path}>{field.path} ({WORDS[field.change]})</span>
          {field.before !== null ? <del className={s.before}>{field.before}</del> : null}
          {field.after !== null ? <ins className={s.after}>{field.after}</ins> : null}
        </li>
      ))}
      {moreFields ? <li>… and {moreFields.toLocaleString("en")} more fields</li> : null}
    </ul>
  );
}
