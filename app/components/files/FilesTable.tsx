import { Link, useFetcher, useLocation } from "@remix-run/react";
import { ConfirmStep } from "~/components/ConfirmStep";
import { useEffect, useState } from "react";
import { FILE_TAG_LABELS, FILE_TAGS } from "@contract/values/files";
import type { KnowledgeFile } from "@contract";
import { useHydrated } from "~/components/useHydrated";
import { StatusChip } from "~/components/StatusChip";
import { FILES_QUESTION_PARAMS, filesListSearch, formatBytes, NO_FILES_TEXT, type FilesPaging } from "~/lib/files";
import { TablePager } from "~/components/TableView";
import { countOf } from "~/lib/format";
import * as ui from "~/styles/ui.css";
import * as s from "./files.css";

const TAG_LABELS: Record<string, string> = FILE_TAG_LABELS;

/**
 * A file's tags as two checkboxes. With JavaScript a change saves at once; without it the row's
 * 'Save tags' button posts the form.
 */
function TagsForm({ file }: { file: KnowledgeFile }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  // What was ticked shows at once and stays until the saved tags come back from the loader; a
  // refused save (its toast says why) shows the saved tags again.
  const saved = file.tags.join(",");
  const [checked, setChecked] = useState<string[]>(file.tags);
  const idle = fetcher.state === "idle";
  useEffect(() => {
    if (idle) setChecked(saved ? saved.split(",") : []);
  }, [saved, idle]);
  return (
    <fetcher.Form method="post" preventScrollReset aria-label={`Tags of ${file.file_name}`}>
      <input type="hidden" name="intent" value="tags" />
      <input type="hidden" name="file_id" value={file.id} />
      <fieldset className={s.tags}>
        <legend className={ui.visuallyHidden}>Tags of {file.file_name}</legend>
        {FILE_TAGS.map((tag) => (
          <label key={tag}>
            <input
              type="checkbox"
              name="tags"
              value={tag}
              checked={checked.includes(tag)}
              onChange={(event) => {
                const box = event.currentTarget;
                setChecked((now) => (box.checked ? [...now, tag] : now.filter((t) => t !== tag)));
                fetcher.submit(box.form, { method: "post", preventScrollReset: true });
              }}
            />{" "}
            {TAG_LABELS[tag]}
          </label>
        ))}
        {hydrated ? null : (
          <button type="submit" className={ui.button.secondary}>
            Save tags
          </button>
        )}
      </fieldset>
    </fetcher.Form>
  );
}

function ReadOnlyTags({ tags }: { tags: string[] }) {
  if (!tags.length) return <span className={ui.muted}>None</span>;
  return <span>{tags.map((tag) => TAG_LABELS[tag] ?? tag).join(", ")}</span>;
}

/** Columns File Name, URL, Status, Tags, Added By (the spec's), then the row's actions. */
export function FilesTable({
  files,
  paging,
  canConfigure,
  search,
}: {
  files: KnowledgeFile[];
  paging: FilesPaging;
  canConfigure: boolean;
  search: string;
}) {
  const location = useLocation();
  if (!files.length) {
    return <p className={ui.muted}>{search ? `No files match “${search}”.` : NO_FILES_TEXT}</p>;
  }
  // The drawer and the question keep the list's search and page behind them.
  const query = filesListSearch(location.search);
  const deleteHref = (id: number) => filesListSearch(location.search, { delete: String(id) });
  return (
    <>
      <div className={s.tableWrap}>
        <table aria-label="Files">
          <thead>
            <tr>
              <th scope="col">File Name</th>
              <th scope="col">URL</th>
              <th scope="col">Status</th>
              <th scope="col">Tags</th>
              <th scope="col">Added By</th>
              <th scope="col">
                <span className={ui.visuallyHidden}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {files.map((file) => (
              <tr key={file.id} data-file-id={file.id}>
                <td>
                  <div className={s.nameCell}>
                    <span>{file.file_name}</span>
                    <span className={s.detail}>
                      {[
                        formatBytes(file.size),
                        file.page_count !== null ? countOf(file.page_count, "page") : "",
                        file.status === "indexed" ? countOf(file.chunks_count, "chunk") : "",
                      ]
                        .filter(Boolean)
                        .join(" · ")}
                    </span>
                  </div>
                </td>
                <td>
                  {file.url ? (
                    <a href={file.url} target="_blank" rel="noopener noreferrer">
                      Open PDF<span className={ui.visuallyHidden}> {file.file_name}</span>
                    </a>
                  ) : (
                    <span className={ui.muted}>—</span>
                  )}
                </td>
                <td>
                  <StatusChip status={file.status} />
                  {file.error_message ? <p className={s.reason}>{file.error_message}</p> : null}
                </td>
                <td>{canConfigure ? <TagsForm file={file} /> : <ReadOnlyTags tags={file.tags} />}</td>
                <td>{file.added_by ?? <span className={ui.muted}>—</span>}</td>
                <td>
                  <div className={s.actions}>
                    {file.chunks_count > 0 ? (
                      <Link to={`${file.id}/chunks${query}`} preventScrollReset>
                        View chunks<span className={ui.visuallyHidden}> of {file.file_name}</span>
                      </Link>
                    ) : null}
                    {canConfigure ? (
                      <Link to={deleteHref(file.id)} preventScrollReset className={ui.button.link}>
                        Delete<span className={ui.visuallyHidden}> {file.file_name}</span>
                      </Link>
                    ) : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <TablePager
        view={paging.view}
        page={paging.page}
        totalPages={paging.totalPages}
        total={paging.total}
        closes={FILES_QUESTION_PARAMS}
      />
    </>
  );
}

/** Asks before a file leaves the knowledge store; a link back cancels (works without JavaScript). */
export function DeleteFileConfirm({ file, cancelTo }: { file: KnowledgeFile; cancelTo: string }) {
  return (
    <ConfirmStep
      label="Delete file"
      question={`Delete ${file.file_name}? Its chunks leave the knowledge store and the assistant stops answering from it.`}
      confirm="Delete file"
      intent="delete"
      cancelTo={cancelTo}
      focusKey={file.id}
    >
      <input type="hidden" name="file_id" value={file.id} />
    </ConfirmStep>
  );
}
