/** Thrown by readMesh for unknown, unsupported or corrupt mesh files. */
export class MeshDecodeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MeshDecodeError";
  }
}
