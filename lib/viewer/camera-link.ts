import type { Camera, Vector3 } from "three";

/** What a linked view exposes: its camera, its orbit controls' target, and how to ask its canvas for a frame. */
export interface LinkedView {
  camera: Camera;
  target: Vector3;
  invalidate(): void;
}

/**
 * Cameras that move together (the compare page's two viewers): when one view's controls
 * change, the others take its camera pose and target and draw one frame. Nothing goes
 * through React, so orbiting re-renders no component.
 */
export class CameraLink {
  private readonly views = new Set<LinkedView>();

  /** Joins a view; the returned function leaves. */
  add(view: LinkedView): () => void {
    this.views.add(view);
    return () => this.views.delete(view);
  }

  /** `from` moved: copies its pose to every other view that is not already there. */
  moved(from: LinkedView): void {
    for (const view of this.views) {
      if (view === from) continue;
      // Already there (e.g. the echo of our own copy): no frame, no loop.
      if (view.camera.position.equals(from.camera.position) && view.target.equals(from.target)) continue;
      view.camera.position.copy(from.camera.position);
      view.camera.quaternion.copy(from.camera.quaternion);
      view.target.copy(from.target);
      view.camera.updateMatrixWorld();
      view.invalidate();
    }
  }
}
