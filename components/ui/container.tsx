import { cn } from "./cn";

/** A reading-width page (lists, settings, documents); workspaces and viewers use the full width instead. */
export function Container({ className, ...props }: React.ComponentProps<"div">) {
  return <div className={cn("mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8", className)} {...props} />;
}
