// cn (components/ui/cn.ts) with the studio's own type scale: a size and a colour are two properties.
import { describe, expect, it } from "vitest";
import { cn } from "@/components/ui/cn";
import { badgeVariants } from "@/components/ui/badge";

describe("cn", () => {
  it("keeps a type-scale size beside a text colour, and lets a later size or colour win", () => {
    expect(cn("text-caption", "text-success")).toBe("text-caption text-success");
    expect(cn("text-caption text-muted-foreground", "text-body")).toBe("text-muted-foreground text-body");
    expect(cn("text-sm", "text-title")).toBe("text-title");
    expect(cn("text-primary", "text-success")).toBe("text-success");
  });

  it("leaves a Badge of any tone at the caption size", () => {
    for (const tone of ["neutral", "info", "success", "warning", "danger", "outline"] as const) {
      expect(cn(badgeVariants({ tone })).split(" ")).toContain("text-caption");
    }
  });
});
