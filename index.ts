// Package entry for Pi: re-exports the extension factory.
export { default } from "./src/extension.ts";
