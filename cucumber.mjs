// Executed Gherkin contract: features/*.feature against the real pure core.
// Node >= 22.18 strips TypeScript types natively, so step files are imported as .ts.
export default {
  paths: ["features/**/*.feature"],
  import: ["features/step_definitions/**/*.ts"],
  format: ["progress", "summary"],
};
