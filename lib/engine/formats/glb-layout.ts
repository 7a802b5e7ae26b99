/**
 * What a GLB's JSON claims about its binary data, checked before gltf-transform reads it, as the
 * Khronos glTF-Validator checks it (its error codes in brackets). gltf-transform slices what an
 * accessor claims without looking at its buffer view's length, so an accessor that runs past its
 * view would read the neighbouring view's bytes (or a short array) and be taken as a mesh.
 */
import type { GLTF } from "@gltf-transform/core";
import { MeshDecodeError } from "./mesh-decode-error";

/** Bytes per component, by componentType. */
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
/** Components per element, by type. */
const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
/** The component types an index accessor may have: unsigned byte, short and int. */
const INDEX_TYPES = new Set([5121, 5123, 5125]);
/** The buffer's bytes in a GLB without a URI: the BIN chunk. */
const GLB_BUFFER = "@glb.bin";

const refuse = (message: string): never => {
  throw new MeshDecodeError(`GLB ${message}`);
};

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/** One element's bytes: matrix columns of 1- and 2-byte components start on 4-byte boundaries. */
function elementBytes(type: string, componentBytes: number): number {
  const columns = { MAT2: 2, MAT3: 3, MAT4: 4 }[type];
  if (columns === undefined || componentBytes === 4) return COMPONENTS[type]! * componentBytes;
  return columns * Math.ceil((columns * componentBytes) / 4) * 4;
}

/** The chunk lengths the header and chunk headers claim must lie within the file [GLB_LENGTH_MISMATCH, GLB_CHUNK_TOO_BIG]. */
export function checkGlbChunks(bytes: Uint8Array): void {
  if (bytes.length < 20) refuse(`file of ${bytes.length} bytes is shorter than its header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(8, true);
  if (length > bytes.length) refuse(`header claims ${length} bytes, the file has ${bytes.length}`);
  for (let at = 12; at < length;) {
    if (at + 8 > length) refuse(`chunk header at byte ${at} runs past the end of the file`);
    const chunk = view.getUint32(at, true);
    if (at + 8 + chunk > length) refuse(`chunk at byte ${at} claims ${chunk} bytes, past the end of the file (${length} bytes)`);
    at += 8 + chunk;
  }
}

/**
 * Refuses (MeshDecodeError) a glTF whose buffers, buffer views or accessors claim bytes their
 * container does not hold, or whose primitives' indices are not unsigned integers. `resources`
 * are the buffers' bytes by URI, the GLB's BIN chunk under "@glb.bin" (gltf-transform's JSONDocument).
 */
export function checkGltfLayout(json: GLTF.IGLTF, resources: Record<string, Uint8Array>): void {
  const buffers = json.buffers ?? [];
  const views = json.bufferViews ?? [];
  const accessors = json.accessors ?? [];

  // Buffers: no more than their bytes [BUFFER_BYTE_LENGTH_MISMATCH]. A meshopt fallback buffer
  // has no bytes; only the compressed views decode into it.
  const bufferBytes = buffers.map((b, i) => {
    if (!isCount(b.byteLength)) refuse(`buffer ${i} has no valid byteLength`);
    const data = b.uri !== undefined ? resources[b.uri] : i === 0 ? resources[GLB_BUFFER] : undefined;
    const fallback = (b.extensions?.EXT_meshopt_compression as { fallback?: boolean } | undefined)?.fallback === true;
    if (!data && fallback) return undefined;
    const held = data?.byteLength ?? 0;
    if (b.byteLength > held) refuse(`buffer ${i} claims ${b.byteLength} bytes, holds ${held}`);
    return b.byteLength;
  });
  const bufferLength = (i: number, what: string): number => {
    if (!isCount(i) || i >= buffers.length) refuse(`${what} names buffer ${i}, which does not exist`);
    const n = bufferBytes[i];
    if (n === undefined) refuse(`${what} reads the meshopt fallback buffer ${i}, which holds no bytes`);
    return n!;
  };

  // Buffer views: within their buffer [BUFFER_VIEW_TOO_LONG]; a meshopt view's compressed bytes
  // within theirs, and its length what it decodes to.
  const viewBytes = views.map((v, i) => {
    const what = `bufferView ${i}`;
    const offset = v.byteOffset ?? 0;
    if (!isCount(offset) || !isCount(v.byteLength)) refuse(`${what} has no valid byteOffset or byteLength`);
    if (
      v.byteStride !== undefined &&
      !(Number.isInteger(v.byteStride) && v.byteStride >= 4 && v.byteStride <= 252 && v.byteStride % 4 === 0)
    )
      refuse(`${what} has byteStride ${v.byteStride}, not a multiple of 4 in 4..252`);
    const meshopt = v.extensions?.EXT_meshopt_compression as
      { buffer: number; byteOffset?: number; byteLength: number; byteStride: number; count: number } | undefined;
    if (meshopt) {
      const from = meshopt.byteOffset ?? 0;
      const held = bufferLength(meshopt.buffer, `${what} (meshopt)`);
      if (!isCount(from) || !isCount(meshopt.byteLength) || from + meshopt.byteLength > held)
        refuse(`${what}'s meshopt data (bytes ${from}..${from + meshopt.byteLength}) runs past its buffer's ${held} bytes`);
      if (!isCount(meshopt.count) || !isCount(meshopt.byteStride)) refuse(`${what}'s meshopt count or byteStride is not valid`);
      // It decodes to count * byteStride bytes: an accessor gets no more than that.
      return Math.min(v.byteLength, meshopt.count * meshopt.byteStride);
    }
    const held = bufferLength(v.buffer, what);
    if (offset + v.byteLength > held) refuse(`${what} (bytes ${offset}..${offset + v.byteLength}) runs past its buffer's ${held} bytes`);
    return v.byteLength;
  });

  // Accessors: count elements of its type, each byteStride apart from its byteOffset, within its
  // view [ACCESSOR_TOO_LONG]; the same for a sparse accessor's indices and values.
  const fits = (what: string, viewIndex: number, offset: number, count: number, element: number, stride: number) => {
    if (!isCount(viewIndex) || viewIndex >= views.length) refuse(`${what} names bufferView ${viewIndex}, which does not exist`);
    if (!isCount(offset)) refuse(`${what} has byteOffset ${offset}`);
    const end = count === 0 ? offset : offset + stride * (count - 1) + element;
    const held = viewBytes[viewIndex]!;
    if (end > held) refuse(`${what} claims bytes ${offset}..${end} of bufferView ${viewIndex}, which holds ${held}`);
  };
  accessors.forEach((a, i) => {
    const what = `accessor ${i}`;
    const componentBytes = COMPONENT_BYTES[a.componentType];
    if (componentBytes === undefined || COMPONENTS[a.type] === undefined)
      refuse(`${what} has componentType ${a.componentType} and type ${a.type}`);
    if (!isCount(a.count) || a.count < 1) refuse(`${what} has count ${a.count}`);
    const element = elementBytes(a.type, componentBytes!);
    if (a.bufferView !== undefined) {
      const stride = views[a.bufferView]?.byteStride ?? element;
      if (stride < element) refuse(`${what}'s elements of ${element} bytes are longer than its view's byteStride ${stride}`);
      fits(what, a.bufferView, a.byteOffset ?? 0, a.count, element, stride);
    }
    const sparse = a.sparse;
    if (sparse) {
      if (!isCount(sparse.count) || sparse.count > a.count) refuse(`${what} has a sparse count of ${sparse.count}`);
      const indexBytes = COMPONENT_BYTES[sparse.indices.componentType];
      if (!indexBytes || !INDEX_TYPES.has(sparse.indices.componentType)) refuse(`${what}'s sparse indices are not unsigned integers`);
      fits(`${what}'s sparse indices`, sparse.indices.bufferView, sparse.indices.byteOffset ?? 0, sparse.count, indexBytes!, indexBytes!);
      fits(`${what}'s sparse values`, sparse.values.bufferView, sparse.values.byteOffset ?? 0, sparse.count, element, element);
    }
  });

  // Primitives: indices are unsigned scalars [MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT], and
  // every attribute of a primitive has the same count [MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT]; the
  // reader checks each index against that count [ACCESSOR_INDEX_OOB].
  (json.meshes ?? []).forEach((mesh, m) =>
    (mesh.primitives ?? []).forEach((p, j) => {
      const what = `mesh ${m} primitive ${j}`;
      if (p.indices !== undefined) {
        const a = accessors[p.indices];
        if (!a) refuse(`${what} names indices accessor ${p.indices}, which does not exist`);
        if (a!.type !== "SCALAR" || !INDEX_TYPES.has(a!.componentType)) refuse(`${what}'s indices are not unsigned integer scalars`);
      }
      let count: number | undefined;
      for (const [name, index] of Object.entries(p.attributes ?? {})) {
        const a = accessors[index];
        if (!a) refuse(`${what} names ${name} accessor ${index}, which does not exist`);
        if (count !== undefined && a!.count !== count) refuse(`${what}'s ${name} has ${a!.count} elements, another attribute ${count}`);
        count = a!.count;
      }
    }),
  );
}
