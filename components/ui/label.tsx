import { cn } from "./cn";

/** A field's name, above or beside it. */
export function Label({ className, ...props }: React.ComponentProps<"label">) {
  return <label data-slot="label" className={cn("text-sm leading-none font-medium select-none", className)} {...props} />;
}
