export * from "./engine";
export * from "./studio";
