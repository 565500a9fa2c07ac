import { useEffect, useRef } from "react";
import * as ui from "~/styles/ui.css";
import * as s from "./clients.css";

/**
 * The importable export files with a checkbox each. The select-all box needs JavaScript (it is
 * indeterminate when some are ticked); without it the row boxes post as an ordinary form.
 */
export function ImportFilesTable({
  files,
  selected,
  onChange,
  hydrated,
}: {
  files: string[];
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
  hydrated: boolean;
}) {
  const allBox = useRef<HTMLInputElement>(null);
  const all = files.length > 0 && files.every((file) => selected.has(file));
  const some = files.some((file) => selected.has(file));
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = some && !all;
  }, [some, all]);

  const toggle = (file: string, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(file);
    else next.delete(file);
    onChange(next);
  };

  return (
    <div className={ui.tableScroll} tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col" className={s.checkboxCell}>
              {hydrated ? (
                <input
                  ref={allBox}
                  type="checkbox"
                  aria-label="Select all files"
                  checked={all}
                  onChange={(event) => onChange(event.currentTarget.checked ? new Set(files) : new Set())}
                />
              ) : (
                <span className={ui.visuallyHidden}>Select</span>
              )}
            </th>
            <th scope="col">File Name</th>
          </tr>
        </thead>
        <tbody>
          {files.map((file) => (
            <tr key={file}>
              <td className={s.checkboxCell}>
                <input
                  type="checkbox"
                  name="file_name"
                  value={file}
                  id={`import-${file}`}
                  checked={selected.has(file)}
                  onChange={(event) => toggle(file, event.currentTarget.checked)}
                />
              </td>
              <td>
                <label htmlFor={`import-${file}`}>{file}</label>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
