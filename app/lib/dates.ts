// The console and the API write dates alike (the API's History summaries among them). From the
// module itself, not the contract's index: the index brings every schema into the browser's bundle.
export { formatDateTime, formatDateTimeUtc, formatTimeOfDay } from "@contract/dates";
