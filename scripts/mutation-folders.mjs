// The folders mutation testing covers (issue 15), by the short name the scripts use, and the
// tests that judge each one's mutants: the folder's own tests, and for the option spec also
// the validators that read it. Loading every lib/ test for each mutant (the geometry runs
// take seconds apiece) made one folder a five-hour run.
export const MUTATION_FOLDERS = {
  x3d: { folder: "lib/x3d", tests: ["lib/x3d/**/*.test.ts", "lib/engine/validate/**/*.test.ts"] },
  validate: { folder: "lib/engine/validate", tests: ["lib/engine/validate/**/*.test.ts", "lib/x3d/**/*.test.ts"] },
  generate: { folder: "lib/engine/generate", tests: ["lib/engine/generate/**/*.test.ts"] },
  tasks: { folder: "lib/tasks", tests: ["lib/tasks/**/*.test.ts"] },
};
