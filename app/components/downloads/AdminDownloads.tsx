import { Form } from "@remix-run/react";
import type { AdminFile } from "@contract";
import { formatBytes } from "~/lib/format";
import { titleCase } from "~/lib/text";
import * as ui from "~/styles/ui.css";
import * as s from "./downloads.css";

export const ADMIN_DOWNLOADS_TITLE = "Admin Downloads";
export const NO_FILES_TEXT = "No files found for this client.";

/** A file as the page lists it: with the console's signed word that this client's page listed it. */
export type ListedFile = AdminFile & { proof: string };

/**
 * The client's admin files: File Name, File Type (title-cased), Timestamp, Size and a Download
 * button. Download is a plain form post that the server answers with a redirect to a signed link;
 * it reloads the document, so the browser (not the router) follows that link and saves the file.
 * The button posts the file's proof beside its key, so the file it stood beside still downloads
 * after a newer one has taken its place in the list.
 */
export function AdminDownloads({ files, error }: { files: ListedFile[]; error?: string | null }) {
  return (
    <section aria-labelledby="admin-downloads-title">
      <h1 id="admin-downloads-title">{ADMIN_DOWNLOADS_TITLE}</h1>
      {error ? (
        <p role="alert" className={ui.fieldError}>
          {error}
        </p>
      ) : (
        <div className={ui.tableScroll} tabIndex={0}>
          <table className={s.table}>
            <thead>
              <tr>
                <th scope="col">File Name</th>
                <th scope="col">File Type</th>
                <th scope="col">Timestamp</th>
                <th scope="col">Size</th>
                <th scope="col">
                  <span className={ui.visuallyHidden}>Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {files.length ? (
                files.map((file) => (
                  <tr key={file.key} data-file-type={file.file_type}>
                    <td className={s.fileName}>{file.filename}</td>
                    <td>{titleCase(file.file_type)}</td>
                    <td className={s.numeric}>{file.formatted_timestamp}</td>
                    <td className={s.numeric}>{formatBytes(file.size)}</td>
                    <td className={s.actionCell}>
                      <Form method="post" reloadDocument>
                        <input type="hidden" name="file_key" value={file.key} />
                        <input type="hidden" name="filename" value={file.filename} />
                        <input type="hidden" name="proof" value={file.proof} />
                        <button type="submit" className={ui.button.secondary}>
                          Download<span className={ui.visuallyHidden}> {file.filename}</span>
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))
              ) : (
                <tr>
                  <td colSpan={5} className={s.empty}>
                    {NO_FILES_TEXT}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
