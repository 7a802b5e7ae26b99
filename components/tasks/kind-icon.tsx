import { Box, type LucideIcon, type LucideProps } from "lucide-react";
import { NAV_LINKS } from "@/components/ui/nav-links";
import { TASK_KINDS, type StudioTaskKind } from "@/lib/tasks/model/task-types";
import { KIND_FORMS } from "./task-labels";

// Each kind's icon is the one its workspace has in the header, so a card and its place look alike.
const ICONS = Object.fromEntries(
  TASK_KINDS.map((kind) => [kind, NAV_LINKS.find((link) => link.href === KIND_FORMS[kind])?.icon ?? Box]),
) as Record<StudioTaskKind, LucideIcon>;

/** A kind of task's icon (decorative: the kind's name is always beside it or in its label). */
export function KindIcon({ kind, ...props }: { kind: StudioTaskKind } & LucideProps) {
  const Icon = ICONS[kind];
  return <Icon aria-hidden {...props} />;
}
