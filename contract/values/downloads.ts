/** The downloads contract's plain values: no schema and no zod, so browser code can import them (schemas: contract/downloads.ts). */

export const FILE_TYPES = ["app_export"] as const;
