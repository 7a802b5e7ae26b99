/** Shapes the create-task pages hand their forms (earlier results, prefilled inputs). Types only. */
import type { StudioTaskKind } from "@/lib/db/schema";
import type { MeshKind } from "@/lib/files/sniff";
import type { UploadInfo } from "@/lib/upload/check";
import type { DepthOptions } from "@/lib/x3d/forms/depth";
import type { ImageOptions } from "@/lib/x3d/forms/image";
import type { SplitOptions } from "@/lib/x3d/forms/split";
import type { ViewSlots } from "@/lib/x3d/forms/views";
import type { SegmentationTaskValues } from "./parse-form";

/** An earlier result a form offers as its mesh. */
export interface MeshResultOption {
  id: string;
  kind: StudioTaskKind;
  type: MeshKind;
  /** "2025-03-12 14:03 UTC": formatted on the server so server and browser render the same text. */
  created: string;
}

/** The mesh a form starts with. */
export type MeshPrefill =
  { source: "upload"; upload: UploadInfo } | { source: "url"; url: string } | { source: "task"; task: MeshResultOption };

/** An earlier task whose cover image a depth form takes. */
export interface CoverOption {
  id: string;
  kind: StudioTaskKind;
  created: string;
}

/** The image a form starts with (depth: also an earlier task's cover). */
export type ImagePrefill =
  { source: "upload"; upload: UploadInfo } | { source: "url"; url: string } | { source: "task"; task: CoverOption };

/** What `?again=` or `?from=` gives a form: stored options and inputs still available. */
export interface Prefill {
  options?: Record<string, unknown>;
  image?: ImagePrefill;
  views?: ViewSlots<UploadInfo>;
  mesh?: MeshPrefill;
  /** Said above the form when something could not be re-used. */
  notice?: string;
}

/** Each create form's starting values, by the kind of task it makes (what its `initial` prop takes). */
interface FormInitials {
  "image-to-3d": { options: ImageOptions; image?: UploadInfo | undefined; views?: ViewSlots<UploadInfo> | undefined };
  texture: { options: ImageOptions; image?: UploadInfo | undefined; mesh?: MeshPrefill | undefined };
  split: { options: SplitOptions; mesh?: MeshPrefill | undefined };
  depth: { options: DepthOptions; image?: ImagePrefill | undefined };
  segmentation: { options: SegmentationTaskValues["options"]; mesh?: MeshPrefill | undefined };
}

/** A create form's start: its kind, its initial values, and what could not be re-used. */
export type FormStart = {
  [K in StudioTaskKind]: { kind: K; initial: FormInitials[K]; notice?: string | undefined };
}[StudioTaskKind];
