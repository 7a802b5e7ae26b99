// What mutation testing covers (issue 15): the four folders, in Stryker runs named by the
// short names the scripts take. Each run mutates its files and is judged by the tests that
// exercise them: the folder's own tests (for the option spec also the validators that read
// it). lib/engine/generate is cut in five runs by subject, so that a mutant in the split code
// does not wait for the multi-million-triangle image-to-3D tests, and each run keeps its own
// incremental file. Loading every lib/ test for each mutant made lib/x3d alone a five-hour run.
const G = "lib/engine/generate";
const gen = (...names) => names.map((n) => `${G}/${n}`);
const KERNELS = ["box-filter", "random", "segment-graph", "mask-ops", "mesh-ops", "grid-mesh", "crease-weld", "manifold"];

export const MUTATION_RUNS = {
  x3d: { folder: "lib/x3d", mutate: ["lib/x3d/**/*.ts"], tests: ["lib/x3d/**/*.test.ts", "lib/engine/validate/**/*.test.ts"] },
  validate: {
    folder: "lib/engine/validate",
    mutate: ["lib/engine/validate/**/*.ts"],
    tests: ["lib/engine/validate/**/*.test.ts", "lib/x3d/**/*.test.ts"],
  },
  // The shared kernels (filters, masks, mesh bookkeeping), each judged by its own test file.
  "generate-kernels": {
    folder: G,
    mutate: gen(...KERNELS.map((k) => `${k}.ts`)),
    tests: gen(...KERNELS.map((k) => `${k}.test.ts`)),
  },
  "generate-split": {
    folder: G,
    mutate: gen("split.ts", "split-general.ts", "split-landmarks.ts", "joints.ts", "segmentation.ts"),
    tests: gen("split.test.ts", "split-general.test.ts", "segmentation.test.ts"),
  },
  "generate-depth": {
    folder: G,
    mutate: gen("depth.ts", "depth-filter.ts", "depth-mask.ts", "depth-mesh.ts", "image-input.ts"),
    tests: gen("depth.test.ts", "depth-filter.test.ts", "depth-mesh.test.ts", "image-input.test.ts"),
  },
  "generate-texture": {
    folder: G,
    mutate: gen("texture.ts", "texture-image.ts", "texture-pbr.ts", "texture-visibility.ts", "cover.ts"),
    tests: gen("texture.test.ts", "cover.test.ts"),
  },
  "generate-shape": {
    folder: G,
    mutate: gen("image-to-3d.ts", "inflate.ts", "visual-hull.ts", "face-target.ts"),
    tests: gen("image-to-3d.test.ts", "face-target.test.ts", "multi-view.test.ts"),
  },
  "generate-job": {
    folder: G,
    mutate: gen("run-job.ts", "job.ts", "errors.ts"),
    tests: gen("run-job.test.ts", "default-faces.test.ts"),
  },
  tasks: { folder: "lib/tasks", mutate: ["lib/tasks/**/*.ts"], tests: ["lib/tasks/**/*.test.ts"] },
};

/** The runs of a folder's short name ("generate") or the one run of a run's name. */
export function runsNamed(name) {
  if (MUTATION_RUNS[name]) return [name];
  const runs = Object.keys(MUTATION_RUNS).filter((r) => r.startsWith(`${name}-`));
  return runs.length > 0 ? runs : undefined;
}
