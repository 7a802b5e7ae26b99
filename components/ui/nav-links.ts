import { Boxes, ImageUp, Layers, LayoutGrid, PaintBucket, Scissors } from "lucide-react";

/** The studio's places: the gallery (every result), then one workspace per kind of task. */
export const NAV_LINKS = [
  { href: "/", label: "Gallery", icon: LayoutGrid },
  { href: "/new/image", label: "Image to 3D", icon: ImageUp },
  { href: "/new/texture", label: "Texture", icon: PaintBucket },
  { href: "/new/split", label: "Split", icon: Scissors },
  { href: "/new/depth", label: "Depth & relief", icon: Layers },
  { href: "/new/segmentation", label: "Segmentation", icon: Boxes },
] as const;

/** Whether a place is the page shown (the gallery only at "/"). */
export const isCurrent = (pathname: string, href: string) =>
  href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
