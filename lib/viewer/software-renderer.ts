/** WebGL renderer names of CPU rasterisers (Chromium's SwiftShader, Mesa's llvmpipe/softpipe, Windows' WARP). */
const SOFTWARE = /swiftshader|llvmpipe|softpipe|software|microsoft basic render/i;

/** True when a WebGL renderer name is a CPU rasteriser. */
export function isSoftwareRendererName(name: string): boolean {
  return SOFTWARE.test(name);
}

let cached: boolean | undefined;

/**
 * Whether this browser draws WebGL on the CPU. There, 4× MSAA and image-based lighting
 * (PMREM prefiltering, environment sampling) each cost seconds per frame of a
 * multi-million-triangle model, so the viewer leaves them out. Asked once per page, with a
 * throwaway context that is released at once.
 */
export function isSoftwareRenderer(): boolean {
  if (cached !== undefined) return cached;
  cached = false;
  if (typeof document === "undefined") return cached;
  const gl = document.createElement("canvas").getContext("webgl2") ?? document.createElement("canvas").getContext("webgl");
  if (!gl) return cached;
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? "");
  gl.getExtension("WEBGL_lose_context")?.loseContext();
  cached = isSoftwareRendererName(name);
  return cached;
}
