/**
 * Camera placement for a model: the model is moved so its bounding-box centre sits at the
 * origin, and the camera looks at it from the front-right, far enough for the bounding
 * sphere to fit the view, with near/far planes scaled to the model's size (as
 * donmccurdy/three-gltf-viewer does) so that millimetre and kilometre models both draw.
 */

type Vec3 = [number, number, number];

export interface Bounds {
  min: Vec3;
  max: Vec3;
}

export interface CameraFit {
  /** Centre of the bounds: subtract it from the model's position to centre the model. */
  center: Vec3;
  /** Camera position, looking at the origin (the centred model). */
  position: Vec3;
  /** Length of the bounds' diagonal (1 for empty or degenerate bounds). */
  size: number;
  near: number;
  far: number;
  /** How far orbit controls may zoom out. */
  maxDistance: number;
}

export interface FitOptions {
  /** Vertical field of view, degrees. */
  fovDeg: number;
  /** Width / height of the view. */
  aspect: number;
  /** Azimuth from +Z towards +X, degrees (default 35: front-right three-quarter view). */
  azimuthDeg?: number;
}

const rad = (deg: number): number => (deg * Math.PI) / 180;

/** True when the box is much lower than it is wide and deep: a relief or a tile lying on Y = 0. */
export function isFlat({ min, max }: Bounds): boolean {
  const dx = max[0] - min[0],
    dy = max[1] - min[1],
    dz = max[2] - min[2];
  return dy < 0.35 * Math.max(dx, dz);
}

/** Where to put the camera for a model with these bounds. */
export function fitCamera(bounds: Bounds, { fovDeg, aspect, azimuthDeg = 35 }: FitOptions): CameraFit {
  const { min, max } = bounds;
  const valid = ([0, 1, 2] as const).every((k) => Number.isFinite(min[k]) && Number.isFinite(max[k]) && max[k] >= min[k]);
  const center: Vec3 = valid ? [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2] : [0, 0, 0];
  const diagonal = valid ? Math.hypot(max[0] - min[0], max[1] - min[1], max[2] - min[2]) : 0;
  const size = diagonal > 0 ? diagonal : 1;
  const radius = size / 2;

  // The narrower of the two half-angles decides: a tall, thin view must fit the sphere sideways.
  const halfV = rad(fovDeg) / 2;
  const halfH = Math.atan(Math.tan(halfV) * (aspect > 0 && Number.isFinite(aspect) ? aspect : 1));
  const distance = radius / Math.sin(Math.min(halfV, halfH));

  // Reliefs lie flat and face up: look down on them more steeply, as their covers do.
  const elevation = rad(valid && isFlat(bounds) ? 55 : 20);
  const azimuth = rad(azimuthDeg);
  const position: Vec3 = [
    distance * Math.cos(elevation) * Math.sin(azimuth),
    distance * Math.sin(elevation),
    distance * Math.cos(elevation) * Math.cos(azimuth),
  ];
  return {
    center,
    position,
    size,
    near: size / 100,
    far: Math.max(size * 100, distance * 4),
    maxDistance: Math.max(size * 10, distance * 2),
  };
}
