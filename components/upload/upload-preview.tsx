import { formatBytes } from "@/lib/files/format-bytes";
import { TYPE_LABELS, type UploadInfo } from "@/lib/upload/check";

/** "GLB model, 1.2 MB": a model's type and size. */
export const modelSummary = (upload: UploadInfo) => `${TYPE_LABELS[upload.type]} model, ${formatBytes(upload.size)}`;

/** What an uploaded file looks like in its zone: a thumbnail for images, name and size for models. */
export function UploadPreview({ upload, compact = false }: { upload: UploadInfo; compact?: boolean }) {
  if (upload.kind === "image") {
    return (
      // eslint-disable-next-line @next/next/no-img-element -- a private, per-user file: nothing for the image optimizer to do
      <img
        src={`/api/uploads/${upload.id}`}
        alt={upload.filename}
        draggable={false}
        className={`${compact ? "h-24" : "h-40"} w-full rounded object-contain`}
      />
    );
  }
  return (
    <p className="text-sm">
      <span className="font-medium break-all">{upload.filename}</span>{" "}
      <span className="block text-muted-foreground">{modelSummary(upload)}</span>
    </p>
  );
}
