import type { ConversationSource } from "@contract";
import { isHttpLink } from "~/lib/links";

/**
 * The sources an answer cited, as a transcript and a test run's results show them: an uploaded
 * file's link is signed when the page is read, and none is left of a file deleted since.
 */
export function AnswerSources({ sources, className }: { sources: readonly ConversationSource[]; className?: string }) {
  if (!sources.length) return null;
  return (
    <ul className={className} aria-label="Sources">
      {sources.map((source, index) => (
        // By place: every deleted file's link is empty, and an answer may cite a page twice.
        <li key={index}>
          {isHttpLink(source.url) ? (
            <a href={source.url} target="_blank" rel="noreferrer">
              {source.title || source.url}
            </a>
          ) : (
            source.title || source.url
          )}
          {source.file_deleted ? " (file, deleted since)" : null}
        </li>
      ))}
    </ul>
  );
}
