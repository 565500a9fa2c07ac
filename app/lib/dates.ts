// The console and the API write dates alike (the API's History summaries among them).
export { formatDateTime, formatDateTimeUtc, formatTimeOfDay } from "@contract";
