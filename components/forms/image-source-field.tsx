"use client";

import { ImageUp } from "lucide-react";
import { useState } from "react";
import { useUploads } from "@/components/upload/use-uploads";
import type { ImagePrefill } from "@/lib/tasks/create/form-props";
import { taskFileUrl } from "@/lib/tasks/model/file-urls";
import { ChoiceField, type Choice } from "./choice-field";
import { FieldError, UrlField } from "./fields";
import { IMAGE_HINT } from "./hints";
import { UploadedFileField } from "./uploaded-file-field";

interface Props {
  initial?: ImagePrefill | undefined;
  errors: Record<string, string>;
  clearError: (...names: string[]) => void;
}

type Source = ImagePrefill["source"];

/** The depth task's image: an upload (`image`), a URL (`image_url`), or an earlier result's cover (`image_task`). */
export function ImageSourceField({ initial, errors, clearError }: Props) {
  const [source, setSource] = useState<Source>(initial?.source ?? "upload");
  const cover = initial?.source === "task" ? initial.task : undefined;
  const sources: Choice<Source>[] = [
    { value: "upload", label: "Upload" },
    { value: "url", label: "URL" },
    ...(cover ? [{ value: "task" as const, label: "Earlier result" }] : []),
  ];
  const upload = useUploads({ image: initial?.source === "upload" ? initial.upload : undefined }, "image");
  const [url, setUrl] = useState(initial?.source === "url" ? initial.url : "");
  return (
    <div className="space-y-3">
      <ChoiceField
        label="Image"
        name="image_source"
        value={source}
        options={sources}
        onChange={(value) => {
          setSource(value);
          clearError("image", "image_url");
        }}
      />
      {source === "task" && cover ? (
        <div className="space-y-1.5 rounded-lg border border-border p-3">
          <input type="hidden" name="image_task" value={cover.id} />
          {/* eslint-disable-next-line @next/next/no-img-element -- the owner's stored cover, served privately */}
          <img
            src={taskFileUrl({ owner: cover.id }, "cover")}
            alt="The earlier result's image"
            className="h-40 w-full rounded bg-viewer object-contain"
          />
          <p className="text-caption text-muted-foreground">From your task of {cover.created}.</p>
          <FieldError message={errors.image} />
        </div>
      ) : source === "upload" ? (
        <UploadedFileField
          name="image"
          uploads={upload}
          slot="image"
          label="Image"
          hint={IMAGE_HINT}
          error={errors.image}
          icon={<ImageUp />}
          testId="image-drop"
          clearError={clearError}
        />
      ) : (
        <UrlField
          label="Image URL"
          name="image_url"
          value={url}
          onChange={(value) => {
            setUrl(value);
            clearError("image_url", "image");
          }}
          placeholder="https://example.com/photo.png"
          hint="An http:// or https:// link to a PNG, JPEG or WebP image."
          error={errors.image_url ?? errors.image}
        />
      )}
    </div>
  );
}
