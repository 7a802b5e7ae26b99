"use client";

import { DepthTaskForm } from "@/components/forms/depth-task-form";
import { ImageTaskForm } from "@/components/forms/image-task-form";
import { SegmentationTaskForm } from "@/components/forms/segmentation-task-form";
import { SplitTaskForm } from "@/components/forms/split-task-form";
import { TextureTaskForm } from "@/components/forms/texture-task-form";
import type { CreateAction } from "@/components/forms/use-create-action";
import type { FormStart, MeshResultOption } from "@/lib/tasks/create-form-types";
import type { CostTable } from "@/lib/x3d/costs";

interface Props {
  start: FormStart;
  action: CreateAction;
  costs: CostTable;
  /** Earlier results a mesh form offers (texture, split, segmentation). */
  results: readonly MeshResultOption[];
}

/** The create form of the start's kind, with its initial values (remount it to fill it anew). */
export function KindForm({ start, action, costs, results }: Props) {
  switch (start.kind) {
    case "image-to-3d":
      return <ImageTaskForm action={action} costs={costs} initial={start.initial} />;
    case "texture":
      return <TextureTaskForm action={action} costs={costs} results={results} initial={start.initial} />;
    case "split":
      return <SplitTaskForm action={action} costs={costs} results={results} initial={start.initial} />;
    case "depth":
      return <DepthTaskForm action={action} costs={costs} initial={start.initial} />;
    case "segmentation":
      return <SegmentationTaskForm action={action} costs={costs} results={results} initial={start.initial} />;
  }
}
