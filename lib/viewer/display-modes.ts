/**
 * The viewer's wireframe, clay, part-colour and material-view modes. Clay swaps every mesh's
 * material for one plain grey material, part colours swap each part's meshes for a plain
 * material of the part's colour (over clay too), a material view swaps each material for one
 * showing a single map, or the UV checker; the originals come back when all are off. Wireframe applies
 * to whichever materials are showing, and to the put-aside originals so they come back alike.
 */
import { MeshStandardMaterial } from "three";
import type { DataTexture, Material, Mesh, Object3D } from "three";
import { collectMaterials } from "./dispose";
import { checkerMaterial, mapMaterial, uvCheckerTexture, type MaterialView } from "./material-views";

export interface DisplayMode {
  wireframe: boolean;
  clay: boolean;
  /** Each part (an object of the model) drawn in one plain colour (CSS colour), or null. */
  partColours?: ReadonlyMap<Object3D, string> | null;
  /** Which maps show (clay and part colours come first); "lit" is the model as it is. */
  view?: MaterialView;
}

export class DisplayModes {
  private readonly originals = new Map<Mesh, Material | Material[]>();
  private readonly clayMaterial = new MeshStandardMaterial({ name: "clay", color: 0xb4b4b4, roughness: 0.85, metalness: 0 });
  private readonly made: Material[] = [];
  private checker: DataTexture | null = null;
  private swapped: "clay" | MaterialView | ReadonlyMap<Object3D, string> | null = null;

  constructor(private readonly root: Object3D) {}

  get clayOn(): boolean {
    return this.swapped === "clay";
  }

  /** Shows the model in this mode. */
  apply({ wireframe, clay, partColours = null, view = "lit" }: DisplayMode): void {
    const want = partColours ?? (clay ? "clay" : view === "lit" ? null : view);
    if (want !== this.swapped) {
      this.restore();
      if (want === "clay") this.swap(this.root, () => this.clayMaterial);
      else if (want === "uv") {
        const checker = this.make(checkerMaterial((this.checker ??= uvCheckerTexture())));
        this.swap(this.root, () => checker);
      } else if (typeof want === "string") {
        const byOriginal = new Map<Material, Material>();
        const one = (m: Material) => byOriginal.get(m) ?? byOriginal.set(m, this.make(mapMaterial(m, want))).get(m) ?? m;
        this.swap(this.root, (m) => (Array.isArray(m) ? m.map(one) : one(m)));
      } else if (want) {
        for (const [part, colour] of want) {
          const material = this.make(new MeshStandardMaterial({ name: `part ${colour}`, color: colour, roughness: 0.7, metalness: 0 }));
          this.swap(part, () => material);
        }
      }
      this.swapped = want;
    }
    const materials = collectMaterials(this.root);
    materials.add(this.clayMaterial);
    for (const m of this.made) materials.add(m);
    for (const m of this.originals.values()) for (const x of Array.isArray(m) ? m : [m]) materials.add(x);
    for (const m of materials) if ("wireframe" in m) (m as MeshStandardMaterial).wireframe = wireframe;
  }

  /** Puts the original materials back and frees the materials it made. */
  dispose(): void {
    this.restore();
    this.clayMaterial.dispose();
    this.checker?.dispose();
    this.checker = null;
  }

  /** Swaps each mesh's material(s) under `under` for what `to` makes of them, keeping the originals. */
  private swap(under: Object3D, to: (original: Material | Material[]) => Material | Material[]): void {
    under.traverse((node) => {
      const mesh = node as Mesh;
      if (!mesh.isMesh) return;
      const original = this.originals.get(mesh) ?? mesh.material;
      this.originals.set(mesh, original);
      mesh.material = to(original);
    });
  }

  /** A material this class made (freed when the originals come back; their maps are the model's). */
  private make<M extends Material>(material: M): M {
    this.made.push(material);
    return material;
  }

  private restore(): void {
    for (const [mesh, material] of this.originals) mesh.material = material;
    this.originals.clear();
    for (const m of this.made.splice(0)) m.dispose();
    this.swapped = null;
  }
}
