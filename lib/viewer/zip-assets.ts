import { strFromU8, unzipSync } from "fflate";
/**
 * An OBJ result with textures comes as a ZIP (model.obj, model.mtl, PNG textures).
 * These helpers pick the model and material files out of the archive and match the
 * names the OBJ and MTL refer to (relative paths, backslashes, other case) to entries.
 */

const decode = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** "./a\\b/../c.png" -> "a/c.png": forward slashes, no "." or "..", no leading slash. */
export function normalizeAssetPath(path: string): string {
  const out: string[] = [];
  for (const part of decode(path).replace(/\\/g, "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return out.join("/");
}

const dirOf = (path: string): string => (path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "");
const baseOf = (path: string): string => path.slice(path.lastIndexOf("/") + 1);
const extOf = (path: string): string => baseOf(path).split(".").pop()?.toLowerCase() ?? "";

/** Entry names worth looking at: files, not folders or macOS resource forks. */
function usableEntries(names: string[]): string[] {
  return names.filter((n) => !n.endsWith("/") && !n.startsWith("__MACOSX/") && !baseOf(n).startsWith("._"));
}

/** The material libraries an OBJ names with `mtllib` (file names may contain spaces). */
export function mtllibNames(objText: string): string[] {
  const out: string[] = [];
  for (const [, name] of objText.matchAll(/^[ \t]*mtllib[ \t]+(.+?)[ \t]*$/gm)) if (name) out.push(name);
  return out;
}

/** Finds entries by the names a model refers to, relative to the folder of the model file. */
export class ZipAssetResolver {
  private readonly exact = new Map<string, string>();
  private readonly lower = new Map<string, string>();
  private readonly byBase = new Map<string, string[]>();

  constructor(
    names: string[],
    private readonly baseDir = "",
  ) {
    for (const name of usableEntries(names)) {
      const n = normalizeAssetPath(name);
      this.exact.set(n, name);
      this.lower.set(n.toLowerCase(), name);
      const b = baseOf(n).toLowerCase();
      this.byBase.set(b, [...(this.byBase.get(b) ?? []), name]);
    }
  }

  /** The entry name for a reference, or undefined when none matches. */
  resolve(reference: string): string | undefined {
    const ref = normalizeAssetPath(reference);
    if (!ref) return undefined;
    const candidates = [normalizeAssetPath(this.baseDir + ref), ref];
    for (const c of candidates) {
      const hit = this.exact.get(c) ?? this.lower.get(c.toLowerCase());
      if (hit) return hit;
    }
    // Exported from another machine, a path often points at a folder that is not in the archive.
    const same = this.byBase.get(baseOf(ref).toLowerCase());
    return same?.length === 1 ? same[0] : undefined;
  }
}

/** The OBJ to show (the shallowest, then first by name) and its MTL, from an archive's entry names. */
export function pickObjAndMtl(names: string[], readText: (name: string) => string): { obj: string; mtl?: string } {
  const files = usableEntries(names);
  const depth = (n: string): number => normalizeAssetPath(n).split("/").length;
  const objs = files.filter((n) => extOf(n) === "obj").sort((a, b) => depth(a) - depth(b) || a.localeCompare(b));
  const obj = objs[0];
  if (!obj) throw new Error("the archive holds no .obj file");
  const resolver = new ZipAssetResolver(files, dirOf(normalizeAssetPath(obj)));
  for (const lib of mtllibNames(readText(obj))) {
    const mtl = resolver.resolve(lib);
    if (mtl) return { obj, mtl };
  }
  const mtl = files.find((n) => extOf(n) === "mtl");
  return mtl ? { obj, mtl } : { obj };
}

/** An OBJ archive opened: its entries, the OBJ and MTL picked, and a resolver for the names they use. */
export interface OpenedObjZip {
  files: Record<string, Uint8Array>;
  text: (name: string) => string;
  obj: string;
  mtl?: string;
  resolver: ZipAssetResolver;
}

/** Unzips an OBJ result (OBJ + MTL + textures) and picks what to load; throws a readable error for a bad archive. */
export function openObjZip(bytes: Uint8Array): OpenedObjZip {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes);
  } catch {
    throw new Error("the archive could not be opened");
  }
  const names = Object.keys(files);
  const text = (name: string): string => strFromU8(files[name] ?? new Uint8Array());
  return { files, text, ...pickObjAndMtl(names, text), resolver: new ZipAssetResolver(names) };
}
