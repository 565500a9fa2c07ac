import { MAX_ID } from "@contract/values/common";

/** Whether a number read from an address or a form can name a row: a positive Postgres integer. */
export const isRowId = (value: number) => Number.isInteger(value) && value > 0 && value <= MAX_ID;
