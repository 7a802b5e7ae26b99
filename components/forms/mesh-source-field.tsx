"use client";

import { Box } from "lucide-react";
import { useState } from "react";
import { LazySelect } from "@/components/ui/lazy-select";
import { useUploads } from "@/components/upload/use-uploads";
import type { MeshKind } from "@/lib/files/sniff";
import type { MeshPrefill, MeshResultOption } from "@/lib/tasks/create/form-props";
import { typeList } from "@/lib/upload/check";
import { ChoiceField, type Choice } from "./choice-field";
import { Field, FieldError, UrlField } from "./fields";
import { UploadedFileField } from "./uploaded-file-field";

const KIND_LABELS: Record<MeshResultOption["kind"], string> = {
  "image-to-3d": "Image to 3D",
  texture: "Texture",
  split: "Split",
  depth: "Relief",
  segmentation: "Segmentation",
};

type Source = "upload" | "url" | "task";

const SOURCES: Choice<Source>[] = [
  { value: "upload", label: "Upload" },
  { value: "url", label: "URL" },
  { value: "task", label: "Earlier result" },
];

interface Props {
  types: readonly MeshKind[];
  hint: string;
  /** The user's earlier results of an accepted type, newest first. */
  results: readonly MeshResultOption[];
  initial?: MeshPrefill | undefined;
  errors: Record<string, string>;
  clearError: (...names: string[]) => void;
}

/** Where the task's model comes from: an upload, a URL, or one of the user's earlier results (a list, so a select). */
export function MeshSourceField({ types, hint, results, initial, errors, clearError }: Props) {
  const [source, setSource] = useState<Source>(initial?.source ?? "upload");
  const upload = useUploads({ mesh: initial?.source === "upload" ? initial.upload : undefined }, "mesh", types);
  const [url, setUrl] = useState(initial?.source === "url" ? initial.url : "");
  const preset = initial?.source === "task" ? initial.task : undefined;
  const choices = preset && !results.some((r) => r.id === preset.id) ? [preset, ...results] : results;
  const [task, setTask] = useState(preset?.id ?? choices[0]?.id ?? "");
  const pick = (s: Source) => {
    setSource(s);
    clearError("mesh", "mesh_url");
  };

  return (
    <div className="space-y-3">
      <ChoiceField label="3D model" name="mesh_source" value={source} options={SOURCES} onChange={pick} />
      {source === "upload" && (
        <UploadedFileField
          name="mesh"
          uploads={upload}
          slot="mesh"
          label="Model"
          hint={hint}
          error={errors.mesh}
          icon={<Box />}
          testId="mesh-drop"
          clearError={clearError}
        />
      )}
      {source === "url" && (
        <UrlField
          label="Model URL"
          name="mesh_url"
          value={url}
          onChange={(value) => {
            setUrl(value);
            clearError("mesh_url", "mesh");
          }}
          placeholder={`https://example.com/model.${types[0] ?? "glb"}`}
          hint={`An http:// or https:// link to a ${typeList(types)} file the service can fetch.`}
          error={errors.mesh_url ?? errors.mesh}
        />
      )}
      {source === "task" &&
        (choices.length === 0 ? (
          <p className="rounded-md border border-dashed border-border px-3 py-4 text-sm text-muted-foreground">
            None of your earlier results is a {typeList(types)} model yet.
            <FieldError message={errors.mesh} />
          </p>
        ) : (
          <Field label="Result" hint={`${choices.length} of your results can be used here.`} error={errors.mesh}>
            {({ id, describedBy }) => (
              <>
                <input type="hidden" name="mesh_task" value={task} />
                <LazySelect
                  id={id}
                  aria-describedby={describedBy}
                  aria-invalid={!!errors.mesh}
                  value={task}
                  onValueChange={(value) => {
                    setTask(value);
                    clearError("mesh");
                  }}
                  options={choices.map((r) => ({ value: r.id, label: `${KIND_LABELS[r.kind]} · ${r.type.toUpperCase()} · ${r.created}` }))}
                />
              </>
            )}
          </Field>
        ))}
    </div>
  );
}
