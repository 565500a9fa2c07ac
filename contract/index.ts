export * from "./common";
export * from "./auth";
export * from "./users";
export * from "./apps";
export * from "./jobs";
export * from "./downloads";
export * from "./knowledge";
