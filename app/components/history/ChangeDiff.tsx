import type { ChangeLine } from "@contract";
import * as s from "./history.css";

/**
 * What one change did, line by line as the API words it ("No-Go Topics of Default: added
 * 'parking permits' …"); a long text's differing part shows under its line, the old struck
 * through and the new beside it.
 */
export function ChangeDiff({ lines }: { lines: ChangeLine[] }) {
  if (!lines.length) return <p>Saved with no difference a screen shows.</p>;
  return (
    <ul className={s.lines}>
      {lines.map((line, i) => (
        <li key={i} className={s.line}>
          <span>{line.text}</span>
          {line.before !== undefined ? <del className={s.before}>{line.before}</del> : null}
          {line.after !== undefined ? <ins className={s.after}>{line.after}</ins> : null}
        </li>
      ))}
    </ul>
  );
}
