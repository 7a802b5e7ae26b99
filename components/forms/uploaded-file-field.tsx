"use client";

import { FileDropZone } from "@/components/upload/file-drop-zone";
import { uploadedId, type UploadState } from "@/components/upload/use-uploads";

/** The part of `useUploads` one field needs: its places, and starting or clearing one. */
interface Uploads<K extends string> {
  slots: Record<K, UploadState>;
  start: (key: K, file: File) => void;
  clear: (key: K) => void;
}

interface Props<K extends string> {
  /** The form field that carries the uploaded file's id (empty until the upload is done). */
  name: string;
  uploads: Uploads<K>;
  /** Which of the uploads' places this field shows. */
  slot: K;
  label: string;
  hint: string;
  /** The drop zone's icon for what it takes. */
  icon?: React.ReactNode;
  error?: string | undefined;
  testId: string;
  /** Called with `name` when a new file is picked, so the field's old error goes. */
  clearError: (...names: string[]) => void;
}

/**
 * One file of a create form: a drop zone bound to a place of `useUploads`, and a hidden input
 * that submits the uploaded file's id. The uploads live with the caller, so a file survives
 * while the field is hidden (e.g. while another source is chosen).
 */
export function UploadedFileField<K extends string>({ name, uploads, slot, label, hint, icon, error, testId, clearError }: Props<K>) {
  const state = uploads.slots[slot];
  return (
    <>
      <input type="hidden" name={name} value={uploadedId(state) ?? ""} />
      <FileDropZone
        label={label}
        hint={hint}
        icon={icon}
        state={state}
        onFile={(file) => {
          uploads.start(slot, file);
          clearError(name);
        }}
        onClear={() => uploads.clear(slot)}
        error={error}
        testId={testId}
      />
    </>
  );
}
