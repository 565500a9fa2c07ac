/**
 * The form field that carries the accepted stage run (see gateRunToAccept). On its own, so the
 * confirm step of the pages that index knowledge need not load the test questions' code.
 */
export const ACCEPT_FAILING_FIELD = "accept_failing";
