import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      ".build/**",
      "node_modules/**",
      "data/**",
      "backups/**",
      "test-results/**",
      "playwright-report/**",
      ".stryker-tmp/**",
      "reports/**",
      "next-env.d.ts",
      "public/draco/**",
      // AssemblyScript (assembly/README.md): WebAssembly's types, not the app's TypeScript
      "assembly/**",
    ],
  },
  {
    // A value is proved by a type, a guard or a parse, not asserted with `!` (docs/style.md).
    rules: { "@typescript-eslint/no-non-null-assertion": "error" },
  },
  {
    // The geometry kernels read typed arrays by index in hot loops (hundreds of reads), where
    // noUncheckedIndexedAccess types every read `number | undefined` and no type can prove the
    // index in range; a guard or a default per read would only be noise in those loops.
    // The thin-wall walk reads its index and mesh so (a default per read costs it 6%).
    files: ["lib/engine/generate/**", "lib/engine/formats/**", "lib/engine/mesh/**", "lib/viewer/wall-thickness.ts"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
  {
    // Links prefetch on intent, not in view (components/ui/link.tsx): every studio page is dynamic.
    files: ["app/**", "components/**"],
    ignores: ["components/ui/link.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "next/link", message: "Import Link from @/components/ui/link: it prefetches on intent, not in view." }] },
      ],
    },
  },
  {
    // Tests may assert what they have just set up.
    files: ["**/*.test.ts", "**/*.test.tsx", "**/*.test-helpers.ts", "test/**", "e2e/**"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
];

export default config;
