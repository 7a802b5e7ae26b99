/**
 * Mesh file reader: detects GLB / STL (binary or ASCII) / OBJ from the bytes and
 * returns a Scene in millimetres, +Y up. Throws MeshDecodeError for anything else.
 */
import { readFile } from "node:fs/promises";
import type { MeshPart, Scene } from "@/lib/engine/mesh/types";
import { MeshDecodeError } from "./mesh-decode-error";
import { readGlb } from "./read-glb";
import { readObj } from "./read-obj";
import { isBinaryStl, readAsciiStl, readBinaryStl } from "./read-stl";

export { MeshDecodeError };

export type MeshType = "glb" | "stl" | "obj";

const SNIFF = 1 << 16;

function looksLikeText(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return false;
  return true;
}

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder("utf-8").decode(bytes);
}

function isAsciiStl(bytes: Uint8Array): boolean {
  const head = decodeText(bytes.subarray(0, Math.min(bytes.length, SNIFF)));
  return /^\s*solid\b/.test(head) && /\bfacet\b/.test(head);
}

function isObj(bytes: Uint8Array): boolean {
  const head = decodeText(bytes.subarray(0, Math.min(bytes.length, 4 * SNIFF)));
  if (/^[ \t]*v[ \t]/m.test(head) && /^[ \t]*f[ \t]/m.test(head)) return true;
  // Faces may come after a long vertex list: check the whole file once vertices were seen.
  return /^[ \t]*v[ \t]/m.test(head) && bytes.length > head.length && /^[ \t]*f[ \t]/m.test(decodeText(bytes));
}

/** The mesh file type, or null when the bytes are not a GLB, STL or OBJ file. */
export function detectMeshType(bytes: Uint8Array): MeshType | null {
  if (bytes.length >= 12 && bytes[0] === 0x67 && bytes[1] === 0x6c && bytes[2] === 0x54 && bytes[3] === 0x46) return "glb";
  if (isBinaryStl(bytes)) return "stl";
  if (!looksLikeText(bytes)) return null;
  if (isAsciiStl(bytes)) return "stl";
  if (isObj(bytes)) return "obj";
  return null;
}

function checkParts(parts: MeshPart[], type: MeshType): Scene {
  const parts2 = parts.filter((p) => p.indices.length > 0);
  if (parts2.length === 0) throw new MeshDecodeError(`${type.toUpperCase()} file contains no triangles`);
  for (const p of parts2) {
    for (let i = 0; i < p.positions.length; i++) {
      if (!Number.isFinite(p.positions[i]!)) throw new MeshDecodeError(`${type.toUpperCase()} file contains a non-finite coordinate`);
    }
  }
  return { parts: parts2 };
}

export async function readMesh(bytes: Uint8Array): Promise<Scene> {
  const type = detectMeshType(bytes);
  if (!type) throw new MeshDecodeError("Unrecognised mesh file: expected GLB, STL or OBJ");
  let parts: MeshPart[];
  try {
    if (type === "glb") parts = await readGlb(bytes);
    else if (type === "obj") parts = readObj(decodeText(bytes));
    else parts = [isBinaryStl(bytes) ? readBinaryStl(bytes) : readAsciiStl(decodeText(bytes))];
  } catch (err) {
    if (err instanceof MeshDecodeError) throw err;
    const reason = err instanceof Error ? err.message : String(err);
    throw new MeshDecodeError(`Corrupt or unsupported ${type.toUpperCase()} file: ${reason}`, { cause: err });
  }
  return checkParts(parts, type);
}

/** Reads a mesh file (readMesh); the file's bytes are not kept once the scene is built. */
export async function readMeshFile(path: string): Promise<Scene> {
  const b = await readFile(path);
  return readMesh(new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
}
