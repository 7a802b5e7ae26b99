// The folders mutation testing covers (issue 15), by the short name the scripts use.
export const MUTATION_FOLDERS = {
  x3d: "lib/x3d",
  validate: "lib/engine/validate",
  generate: "lib/engine/generate",
  tasks: "lib/tasks",
};
