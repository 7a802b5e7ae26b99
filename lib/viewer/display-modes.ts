/**
 * The viewer's wireframe and clay modes. Clay swaps every mesh's material for one plain
 * grey material and puts the originals back when switched off; wireframe applies to
 * whichever materials are showing, and to the put-aside originals so they come back alike.
 */
import { MeshStandardMaterial } from "three";
import type { Material, Mesh, Object3D } from "three";
import { collectMaterials } from "./dispose";

export interface DisplayMode {
  wireframe: boolean;
  clay: boolean;
}

export class DisplayModes {
  private readonly originals = new Map<Mesh, Material | Material[]>();
  private readonly clayMaterial = new MeshStandardMaterial({ name: "clay", color: 0xb4b4b4, roughness: 0.85, metalness: 0 });

  constructor(private readonly root: Object3D) {}

  get clayOn(): boolean {
    return this.originals.size > 0;
  }

  /** Shows the model in this mode. */
  apply({ wireframe, clay }: DisplayMode): void {
    if (clay && !this.clayOn) {
      this.root.traverse((node) => {
        const mesh = node as Mesh;
        if (!mesh.isMesh) return;
        this.originals.set(mesh, mesh.material);
        mesh.material = this.clayMaterial;
      });
    } else if (!clay && this.clayOn) {
      this.restore();
    }
    const materials = collectMaterials(this.root);
    materials.add(this.clayMaterial);
    for (const m of this.originals.values()) for (const x of Array.isArray(m) ? m : [m]) materials.add(x);
    for (const m of materials) if ("wireframe" in m) (m as MeshStandardMaterial).wireframe = wireframe;
  }

  /** Puts the original materials back and frees the clay material. */
  dispose(): void {
    this.restore();
    this.clayMaterial.dispose();
  }

  private restore(): void {
    for (const [mesh, material] of this.originals) mesh.material = material;
    this.originals.clear();
  }
}
