import Link from "next/link";

const MESH_INPUTS = ["glb", "stl", "obj"];

interface Props {
  taskId: string;
  format: string | null;
  hasCover: boolean;
}

/** "Use this result": start a split, a texture or a depth task from it (the forms read `?from=`). */
export function ResultActions({ taskId, format, hasCover }: Props) {
  const from = encodeURIComponent(taskId);
  const actions = [
    // Split and segmentation take GLB, STL or OBJ; texturing takes GLB only.
    format && MESH_INPUTS.includes(format) ? { href: `/new/split?from=${from}`, label: "Split it" } : null,
    format === "glb" ? { href: `/new/texture?from=${from}`, label: "Texture it" } : null,
    hasCover ? { href: `/new/depth?from=${from}`, label: "Depth from its cover" } : null,
  ].filter((a) => a !== null);
  if (actions.length === 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-sm text-muted-foreground">Use this result:</span>
      {actions.map((a) => (
        <Link key={a.href} href={a.href} className="rounded-md border border-border px-3 py-1.5 text-sm hover:border-primary">
          {a.label}
        </Link>
      ))}
    </div>
  );
}
