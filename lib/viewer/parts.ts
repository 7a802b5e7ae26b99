/**
 * The parts of a split or segmented result: the named objects a model is made of (one glTF
 * node per part), their colours in the part-colour mode, and the explode layout that moves
 * them away from the model's centre.
 */
import { Box3, Matrix3, Matrix4, Vector3, type Object3D } from "three";

export interface ModelPart {
  /** The part's name in the file, or "part N" when it has none. */
  name: string;
  object: Object3D;
}

/**
 * The model's parts: below the chain of single children that wraps every loaded file, the
 * children that hold a mesh. A model of one piece has none.
 */
export function findParts(root: Object3D): ModelPart[] {
  let node = root;
  for (let only = node.children[0]; node.children.length === 1 && only; only = node.children[0]) node = only;
  const parts = node.children.filter(holdsMesh);
  if (parts.length < 2) return [];
  // Names are the list's keys and what hiding goes by: a repeated one gets a number.
  const seen = new Map<string, number>();
  return parts.map((object, i) => {
    const base = object.name.trim() || `part ${i + 1}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return { name: count === 1 ? base : `${base} (${count})`, object };
  });
}

function holdsMesh(object: Object3D): boolean {
  let found = false;
  object.traverse((o) => {
    if ((o as Object3D & { isMesh?: boolean }).isMesh) found = true;
  });
  return found;
}

/** The colour of part `i`: distinct hues by the golden angle, mid lightness (a CSS colour). */
export function partColour(i: number): string {
  const hue = Math.round((i * 137.508 + 20) % 360);
  return `hsl(${hue}, 65%, ${i % 2 === 0 ? 55 : 45}%)`;
}

/**
 * Shows and hides parts by name, and moves them apart from the model's centre: exploded by 1,
 * each part's centre is twice as far from it. Measured when made, with the parts in place.
 */
export class PartLayout {
  private readonly moves: { name: string; object: Object3D; home: Vector3; away: Vector3 }[];

  constructor(root: Object3D, parts: readonly ModelPart[]) {
    root.updateMatrixWorld(true);
    const centre = new Box3().setFromObject(root).getCenter(new Vector3());
    this.moves = parts.map(({ name, object }) => {
      const away = new Box3().setFromObject(object).getCenter(new Vector3()).sub(centre);
      // Into the parent's frame (a direction: rotation and scale only).
      const toParent = new Matrix3().setFromMatrix4(new Matrix4().copy(object.parent?.matrixWorld ?? new Matrix4()).invert());
      return { name, object, home: object.position.clone(), away: away.applyMatrix3(toParent) };
    });
  }

  /** Hides the parts named in `hidden`, shows the others, and places each at `explode` (0 = as in the file). */
  apply(hidden: ReadonlySet<string>, explode: number): void {
    for (const { name, object, home, away } of this.moves) {
      object.visible = !hidden.has(name);
      object.position.copy(home).addScaledVector(away, explode);
    }
  }
}
