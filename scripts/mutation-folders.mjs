// What mutation testing covers (issue 15; the guards' folders since issue 30): each folder, in Stryker runs named by the
// short names the scripts take. Each run mutates its files and is judged by the tests that
// exercise them: the folder's own tests (for the option spec also the validators that read
// it). lib/engine/generate is cut in runs by file, so that a mutant in the split code does not
// wait for the multi-million-triangle image-to-3D tests, and each run keeps its own
// incremental file. Loading every lib/ test for each mutant made lib/x3d alone a five-hour run.
const G = "lib/engine/generate";
const gen = (...names) => names.map((n) => `${G}/${n}`);
const genRun = (name, files, tests) => ({ [`generate-${name}`]: { folder: G, mutate: gen(...files), tests: gen(...tests) } });
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
  // One run per file (or two), so that each finishes and keeps its incremental file even
  // where a whole subject would take hours.
  // The character split's landmarks and joint cutters apart from split.ts (725 and 548 valid
  // mutants), each run keeping its own incremental file.
  ...genRun("split", ["split.ts"], ["split-exact.test.ts", "split.test.ts"]),
  ...genRun(
    "split-landmarks",
    ["split-landmarks.ts", "joints.ts"],
    ["split-landmarks-exact.test.ts", "split-exact.test.ts", "split.test.ts"],
  ),
  ...genRun(
    "split-general",
    ["split-general.ts"],
    ["split-general-exact.test.ts", "split-general-cuts-exact.test.ts", "split-general.test.ts", "split.test.ts"],
  ),
  ...genRun(
    "segmentation",
    ["segmentation.ts"],
    ["segmentation-exact.test.ts", "segmentation-scene-exact.test.ts", "segmentation.test.ts"],
  ),
  ...genRun(
    "depth",
    ["depth.ts", "depth-mask.ts"],
    ["depth-mask.test.ts", "depth-exact.test.ts", "depth-relief-exact.test.ts", "depth.test.ts"],
  ),
  ...genRun("depth-filter", ["depth-filter.ts"], ["depth-filter.test.ts", "depth.test.ts"]),
  ...genRun("depth-mesh", ["depth-mesh.ts"], ["depth-mesh.test.ts", "depth.test.ts"]),
  ...genRun("image-input", ["image-input.ts"], ["image-input-exact.test.ts", "image-input.test.ts", "depth.test.ts"]),
  ...genRun("texture", ["texture.ts", "texture-visibility.ts"], ["texture-visibility.test.ts", "texture-exact.test.ts", "texture.test.ts"]),
  ...genRun("texture-image", ["texture-image.ts", "texture-pbr.ts"], ["texture-image.test.ts", "texture-pbr.test.ts", "texture.test.ts"]),
  ...genRun("cover", ["cover.ts"], ["cover.test.ts"]),
  ...genRun(
    "image-to-3d",
    ["image-to-3d.ts", "inflate.ts"],
    ["inflate.test.ts", "image-to-3d-exact.test.ts", "image-to-3d.test.ts", "multi-view.test.ts"],
  ),
  ...genRun("visual-hull", ["visual-hull.ts"], ["visual-hull.test.ts", "image-to-3d.test.ts", "multi-view.test.ts"]),
  ...genRun("face-target", ["face-target.ts"], ["face-target-exact.test.ts", "face-target-plan.test.ts", "face-target.test.ts"]),
  "generate-job": {
    folder: G,
    mutate: gen("run-job.ts", "job.ts", "errors.ts"),
    tests: gen("run-job.test.ts", "default-faces.test.ts"),
  },
  tasks: { folder: "lib/tasks", mutate: ["lib/tasks/**/*.ts"], tests: ["lib/tasks/**/*.test.ts"] },
  // The studio's guards (issue 30): request checks, accounts (sign-in, passwords, throttles,
  // sessions) and the credit ledger, each judged by its own folder's tests.
  http: { folder: "lib/http", mutate: ["lib/http/**/*.ts"], tests: ["lib/http/**/*.test.ts"] },
  credits: { folder: "lib/credits", mutate: ["lib/credits/**/*.ts"], tests: ["lib/credits/**/*.test.ts"] },
  accounts: { folder: "lib/accounts", mutate: ["lib/accounts/**/*.ts"], tests: ["lib/accounts/**/*.test.ts"] },
};

/** The runs of a folder's short name ("generate") or the one run of a run's name. */
export function runsNamed(name) {
  if (MUTATION_RUNS[name]) return [name];
  const runs = Object.keys(MUTATION_RUNS).filter((r) => r.startsWith(`${name}-`));
  return runs.length > 0 ? runs : undefined;
}
