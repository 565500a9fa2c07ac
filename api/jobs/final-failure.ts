/**
 * Thrown by a job handler that has recorded why its work cannot be done (a website without a
 * sitemap, a file that is no PDF, a build without pages) where the operator sees it: the job ends
 * failed with that message, at once, not completed as if it had worked, and not tried again to
 * fail the same way.
 */
export class FinalFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FinalFailure";
  }
}
