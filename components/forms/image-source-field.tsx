"use client";

import { useState } from "react";
import { FileDropZone } from "@/components/upload/file-drop-zone";
import { uploadedId, useUploads } from "@/components/upload/use-uploads";
import type { ImagePrefill } from "@/lib/tasks/create-form-types";
import { Field, FieldError, inputClass } from "./fields";
import { IMAGE_HINT } from "./hints";

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
  const sources: [Source, string][] = [
    ["upload", "Upload an image"],
    ["url", "Image URL"],
    ...(cover ? [["task", "The earlier result's image"] as [Source, string]] : []),
  ];
  const upload = useUploads({ image: initial?.source === "upload" ? initial.upload : undefined }, "image");
  const [url, setUrl] = useState(initial?.source === "url" ? initial.url : "");
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm">Image</legend>
      <input type="hidden" name="image_source" value={source} />
      <div role="radiogroup" aria-label="Image source" className="flex gap-2 text-sm">
        {sources.map(([value, label]) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={source === value}
            onClick={() => {
              setSource(value);
              clearError("image", "image_url");
            }}
            className={`rounded-md border px-3 py-1.5 ${source === value ? "border-sky-500 text-sky-300" : "border-neutral-700 text-neutral-400"}`}
          >
            {label}
          </button>
        ))}
      </div>
      {source === "task" && cover ? (
        <div className="space-y-1">
          <input type="hidden" name="image_task" value={cover.id} />
          {/* eslint-disable-next-line @next/next/no-img-element -- the owner's stored cover, served privately */}
          <img src={`/api/files/${encodeURIComponent(cover.id)}/cover`} alt="The earlier result's image" className="h-40 rounded object-contain" />
          <p className="text-xs text-neutral-500">From your task of {cover.created}.</p>
          <FieldError message={errors.image} />
        </div>
      ) : source === "upload" ? (
        <>
          <input type="hidden" name="image" value={uploadedId(upload.slots.image) ?? ""} />
          <FileDropZone
            label="Image"
            hint={IMAGE_HINT}
            state={upload.slots.image}
            onFile={(file) => {
              upload.start("image", file);
              clearError("image");
            }}
            onClear={() => upload.clear("image")}
            error={errors.image}
            testId="image-drop"
          />
        </>
      ) : (
        <Field label="Image URL" hint="An http:// or https:// link to a PNG, JPEG or WebP image." error={errors.image_url ?? errors.image}>
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              name="image_url"
              type="url"
              value={url}
              placeholder="https://example.com/photo.png"
              aria-invalid={!!(errors.image_url ?? errors.image)}
              onChange={(e) => {
                setUrl(e.target.value);
                clearError("image_url", "image");
              }}
              className={inputClass}
            />
          )}
        </Field>
      )}
    </fieldset>
  );
}
