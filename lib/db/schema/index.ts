export * from "./engine";
