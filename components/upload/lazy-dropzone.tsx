"use client";

import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import type { DropzoneInputProps, DropzoneOptions, DropzoneRootProps, DropzoneState } from "react-dropzone";

/*
 * react-dropzone, loaded after the page: its code (about 6 kB compressed with file-selector) is
 * no part of any page's first load. Until it is here a zone works with what the platform gives:
 * a click or Enter opens the file picker and a dropped file is taken from the drop's own list.
 * It loads once the page has loaded and the browser is idle, or as soon as a pointer, a focus
 * or a dragged file comes near a zone; then the zone is drawn again with react-dropzone's
 * handlers (drag state, keyboard, file-selector's reading of what was dropped). The zone is
 * drawn again only while nobody is using it (no focus, pointer or drag on it, no file picker it
 * opened): a file chosen or dropped on the stand-in is never dropped by the swap.
 */

type DropzoneModule = typeof import("react-dropzone");

let loaded: DropzoneModule | null = null;
let loading: Promise<DropzoneModule> | null = null;
const listeners = new Set<() => void>();

/** Starts loading react-dropzone (once). */
function loadDropzone(): Promise<DropzoneModule> {
  loading ??= import("react-dropzone").then((module) => {
    loaded = module;
    for (const notify of [...listeners]) notify();
    return module;
  });
  return loading;
}

function subscribe(notify: () => void): () => void {
  listeners.add(notify);
  return () => listeners.delete(notify);
}

/** react-dropzone once loaded (never during the server's render or hydration), and loads it after the page. */
function useDropzoneModule(): DropzoneModule | null {
  const dropzone = useSyncExternalStore(
    subscribe,
    () => loaded,
    () => null,
  );
  useEffect(() => {
    if (loaded) return;
    const later = () =>
      typeof requestIdleCallback === "function"
        ? requestIdleCallback(() => void loadDropzone())
        : setTimeout(() => void loadDropzone(), 200);
    if (document.readyState === "complete") later();
    else window.addEventListener("load", later, { once: true });
    return () => window.removeEventListener("load", later);
  }, []);
  return dropzone;
}

/** What a zone draws itself with: react-dropzone's own state, or the stand-in's until it is here. */
export type DropzoneApi = Pick<DropzoneState, "getRootProps" | "getInputProps" | "isDragActive"> & {
  /** Empties the file input, so that choosing the same file again is a change. */
  clearInput(): void;
  /** react-dropzone's own handlers are in place (tests wait for it: `data-ready`). */
  live: boolean;
};

interface Props {
  options: Omit<DropzoneOptions, "onDrop"> & { onDrop: (accepted: File[]) => void };
  children: (api: DropzoneApi) => React.ReactNode;
}

type Use = "focus" | "hover" | "drag" | "picker";

/** A drop zone drawn by `children` from the API it is given: react-dropzone's once loaded and the zone is not in use, a stand-in before. */
export function LazyDropzone({ options, children }: Props) {
  const dropzone = useDropzoneModule();
  const uses = useRef(new Set<Use>());
  const [inUse, setInUse] = useState(false);
  const mark = useCallback((what: Use, on: boolean) => {
    if (on) uses.current.add(what);
    else uses.current.delete(what);
    setInUse(uses.current.size > 0);
  }, []);
  return dropzone && !inUse ? (
    <LiveZone useDropzone={dropzone.useDropzone} options={options} render={children} />
  ) : (
    <StandInZone options={options} render={children} mark={mark} />
  );
}

function LiveZone({
  useDropzone,
  options,
  render,
}: {
  useDropzone: DropzoneModule["useDropzone"];
  options: DropzoneOptions;
  render: Props["children"];
}) {
  const { getRootProps, getInputProps, isDragActive, inputRef } = useDropzone(options);
  const clearInput = () => clearFileInput(inputRef.current);
  // eslint-disable-next-line react-hooks/refs -- the props getters only hand the refs to React (as react-dropzone's own do); nothing reads them while rendering
  return render({ getRootProps, getInputProps, isDragActive, clearInput, live: true });
}

/** Empties a file input, so that choosing the same file again is a change. */
function clearFileInput(input: HTMLInputElement | null) {
  if (input) input.value = "";
}

/** Calls `ours` unless `theirs` (the caller's handler) ran and prevented the default. */
function both<E extends React.SyntheticEvent>(theirs: ((event: E) => void) | undefined, ours: (event: E) => void) {
  return (event: E) => {
    theirs?.(event);
    if (!event.defaultPrevented) ours(event);
  };
}

function StandInZone({
  options,
  render,
  mark,
}: {
  options: Props["options"];
  render: Props["children"];
  mark: (what: Use, on: boolean) => void;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  // A picker closed without a choice fires "cancel" on the input (no change).
  useEffect(() => {
    const input = inputRef.current;
    const cancelled = () => mark("picker", false);
    input?.addEventListener("cancel", cancelled);
    return () => input?.removeEventListener("cancel", cancelled);
  }, [mark]);
  const take = (files: FileList | null | undefined) => {
    const list = Array.from(files ?? []);
    if (list.length) options.onDrop(options.multiple === false ? list.slice(0, 1) : list);
  };
  const pick = () => {
    void loadDropzone();
    mark("picker", true);
    inputRef.current?.click();
  };
  const getRootProps = <T extends DropzoneRootProps>(
    { role, onClick, onKeyDown, onDragOver, onDrop, onFocus, onBlur, onDragLeave, ...rest }: T = {} as T,
  ): T =>
    ({
      ...rest,
      role: typeof role === "string" && role !== "" ? role : "presentation",
      tabIndex: 0,
      onPointerEnter: () => {
        mark("hover", true);
        void loadDropzone();
      },
      onPointerLeave: () => mark("hover", false),
      onFocus: (event: React.FocusEvent<HTMLElement>) => {
        onFocus?.(event);
        mark("focus", true);
        void loadDropzone();
      },
      onBlur: (event: React.FocusEvent<HTMLElement>) => {
        onBlur?.(event);
        mark("focus", false);
      },
      onDragEnter: () => {
        mark("drag", true);
        void loadDropzone();
      },
      onDragLeave: (event: React.DragEvent<HTMLElement>) => {
        onDragLeave?.(event);
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) mark("drag", false);
      },
      onClick: both(onClick, pick),
      onKeyDown: both(onKeyDown, (event: React.KeyboardEvent<HTMLElement>) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        pick();
      }),
      // Without these the browser would open a dropped file in place of the page.
      onDragOver: both(onDragOver, (event: React.DragEvent<HTMLElement>) => event.preventDefault()),
      onDrop: both(onDrop, (event: React.DragEvent<HTMLElement>) => {
        event.preventDefault();
        mark("drag", false);
        take(event.dataTransfer.files);
      }),
    }) as unknown as T;
  const getInputProps = <T extends DropzoneInputProps>({ onChange, ...rest }: T = {} as T): T =>
    ({
      type: "file",
      multiple: options.multiple ?? true,
      "aria-label": "file upload",
      style: { border: 0, display: "block", height: 0, margin: 0, opacity: 0, overflow: "hidden", padding: 0, width: 0 },
      tabIndex: -1,
      ref: inputRef,
      onClick: (event: React.MouseEvent<HTMLInputElement>) => event.stopPropagation(),
      onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
        onChange?.(event);
        take(event.currentTarget.files);
        event.currentTarget.value = "";
        mark("picker", false);
      },
      ...rest,
    }) as unknown as T;
  const clearInput = () => clearFileInput(inputRef.current);
  // eslint-disable-next-line react-hooks/refs -- the props getters only hand the refs to React (as react-dropzone's own do); nothing reads them while rendering
  return render({ getRootProps, getInputProps, isDragActive: false, clearInput, live: false });
}
