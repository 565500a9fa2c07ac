import * as ui from "~/styles/ui.css";

/**
 * The messages of one field, cell or form, one a line: joined on one line, two messages that do
 * not end in a full stop run together ("… does not visit This client already has …").
 */
export function MessageLines({ messages }: { messages: readonly string[] }) {
  if (messages.length === 1) return <>{messages[0]}</>;
  return (
    <>
      {messages.map((message, index) => (
        <span key={index} className={ui.messageLine}>
          {message}
        </span>
      ))}
    </>
  );
}
