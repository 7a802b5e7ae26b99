import { Color, DirectionalLight, GridHelper, Group, HemisphereLight, Mesh, MeshBasicMaterial, SphereGeometry } from "three";

/**
 * The three.js classes the viewer's scenes render as JSX elements (<mesh>, <gridHelper>, …),
 * by the name react-three-fiber looks them up under (the element's name in PascalCase).
 * ThreeCanvas registers these alone, where R3F's <Canvas> registers the whole THREE namespace
 * and so keeps every class of three.js in the page's JavaScript. An element missing here throws
 * "is not part of the THREE namespace" when drawn: three-catalogue.test.ts reads the scenes'
 * JSX for it. <primitive> (drei's OrbitControls is one) needs no entry.
 */
export const VIEWER_THREE_CLASSES = {
  Color,
  DirectionalLight,
  GridHelper,
  Group,
  HemisphereLight,
  Mesh,
  MeshBasicMaterial,
  SphereGeometry,
};
