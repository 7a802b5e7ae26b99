/**
 * The viewer's wireframe, clay and part-colour modes. Clay swaps every mesh's material for
 * one plain grey material, part colours swap each part's meshes for a plain material of the
 * part's colour (over clay too); the originals come back when both are off. Wireframe applies
 * to whichever materials are showing, and to the put-aside originals so they come back alike.
 */
import { MeshStandardMaterial } from "three";
import type { Material, Mesh, Object3D } from "three";
import { collectMaterials } from "./dispose";

export interface DisplayMode {
  wireframe: boolean;
  clay: boolean;
  /** Each part (an object of the model) drawn in one plain colour (CSS colour), or null. */
  partColours?: ReadonlyMap<Object3D, string> | null;
}

export class DisplayModes {
  private readonly originals = new Map<Mesh, Material | Material[]>();
  private readonly clayMaterial = new MeshStandardMaterial({ name: "clay", color: 0xb4b4b4, roughness: 0.85, metalness: 0 });
  private readonly partMaterials: MeshStandardMaterial[] = [];
  private swapped: "clay" | ReadonlyMap<Object3D, string> | null = null;

  constructor(private readonly root: Object3D) {}

  get clayOn(): boolean {
    return this.swapped === "clay";
  }

  /** Shows the model in this mode. */
  apply({ wireframe, clay, partColours = null }: DisplayMode): void {
    const want = partColours ?? (clay ? "clay" : null);
    if (want !== this.swapped) {
      this.restore();
      if (want === "clay") this.swap(this.root, this.clayMaterial);
      else if (want) for (const [part, colour] of want) this.swap(part, this.partMaterial(colour));
      this.swapped = want;
    }
    const materials = collectMaterials(this.root);
    materials.add(this.clayMaterial);
    for (const m of this.partMaterials) materials.add(m);
    for (const m of this.originals.values()) for (const x of Array.isArray(m) ? m : [m]) materials.add(x);
    for (const m of materials) if ("wireframe" in m) (m as MeshStandardMaterial).wireframe = wireframe;
  }

  /** Puts the original materials back and frees the materials it made. */
  dispose(): void {
    this.restore();
    this.clayMaterial.dispose();
  }

  private swap(under: Object3D, material: Material): void {
    under.traverse((node) => {
      const mesh = node as Mesh;
      if (!mesh.isMesh) return;
      if (!this.originals.has(mesh)) this.originals.set(mesh, mesh.material);
      mesh.material = material;
    });
  }

  private partMaterial(colour: string): MeshStandardMaterial {
    const material = new MeshStandardMaterial({ name: `part ${colour}`, color: colour, roughness: 0.7, metalness: 0 });
    this.partMaterials.push(material);
    return material;
  }

  private restore(): void {
    for (const [mesh, material] of this.originals) mesh.material = material;
    this.originals.clear();
    for (const m of this.partMaterials.splice(0)) m.dispose();
    this.swapped = null;
  }
}
