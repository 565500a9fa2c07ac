import { ConfirmStep } from "~/components/ConfirmStep";
import {
  IMPORT_CHANGED_SINCE_TEXT,
  IMPORT_REPLACE_ASKED,
  IMPORT_REPLACE_CONFIRMED,
  importPageTicking,
  importReplaceQuestion,
  type ImportReplaceQuestion,
} from "~/lib/import-question";

/**
 * What the ticked files would change in clients that exist, and the question before they are
 * imported (with or without JavaScript): Import posts the same files again, confirmed with what
 * was asked; Cancel goes back to the list of files, still ticked, with nothing imported. Asked again because what
 * the import would change has changed since, it says so first.
 */
export function ImportReplaceConfirm({ question }: { question: ImportReplaceQuestion }) {
  return (
    <>
      {question.changedSince ? <p role="alert">{IMPORT_CHANGED_SINCE_TEXT}</p> : null}
      <ul aria-label="Clients the import would change">
        {question.replacing.map((client) => (
          <li key={client.file_name}>
            <strong>{client.client_name}</strong> exists: importing {client.file_name} changes
            <ul>
              {client.changes.map((change, i) => (
                <li key={i}>{change}</li>
              ))}
              {client.change_count > client.changes.length ? (
                <li>and {(client.change_count - client.changes.length).toLocaleString("en")} more</li>
              ) : null}
            </ul>
          </li>
        ))}
      </ul>
      <ConfirmStep
        label="Replace what clients hold"
        question={importReplaceQuestion(question.fileNames.length, question.replacing.length)}
        confirm="Import and replace"
        intent="import"
        cancelTo={importPageTicking(question.fileNames)}
        focusKey={question.asked}
      >
        <input type="hidden" name={IMPORT_REPLACE_CONFIRMED} value="yes" />
        <input type="hidden" name={IMPORT_REPLACE_ASKED} value={question.asked} />
        {question.fileNames.map((fileName) => (
          <input key={fileName} type="hidden" name="file_name" value={fileName} />
        ))}
      </ConfirmStep>
    </>
  );
}
