import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AnswerSources } from "./AnswerSources";

/* The sources an answer listed, as its transcript and a test run's results show them (docs/decisions/030, 023). */
describe("an answer's sources", () => {
  it("link a file by the link the page was given, and name a file deleted since without one", () => {
    const html = renderToStaticMarkup(
      <AnswerSources
        sources={[
          { title: "Admissions", url: "https://www.northfield.edu/admissions" },
          { title: "Shuttle times", url: "http://127.0.0.1:3000/storage/download?key=k", file_id: 4 },
          { title: "Parking guide", url: "", file_deleted: true },
          { title: "Bus guide", url: "", file_deleted: true },
        ]}
      />,
    );
    expect(html).toContain('<a href="http://127.0.0.1:3000/storage/download?key=k"');
    expect(html).toContain("<li>Parking guide (file, deleted since)</li>");
    expect(html).toContain("<li>Bus guide (file, deleted since)</li>");
  });
});
