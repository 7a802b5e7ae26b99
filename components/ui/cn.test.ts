import { describe, expect, it } from "vitest";
import { cn } from "./cn";

describe("cn", () => {
  it("keeps the later class of a property the caller overrides", () => {
    expect(cn("h-9 px-4 py-2", "h-10 px-2")).toBe("py-2 h-10 px-2");
    expect(cn("rounded-md", "rounded-full")).toBe("rounded-full");
    expect(cn("bg-primary text-primary-foreground", "bg-destructive")).toBe("text-primary-foreground bg-destructive");
  });

  it("tells a text size from a text colour, and keeps both", () => {
    expect(cn("text-sm text-muted-foreground", "text-caption")).toBe("text-muted-foreground text-caption");
    expect(cn("text-sm text-muted-foreground", "text-foreground")).toBe("text-sm text-foreground");
  });

  it("lets a side override its axis and an axis its sides, per variant", () => {
    expect(cn("px-4", "pl-2")).toBe("px-4 pl-2");
    expect(cn("pl-2 pr-3", "px-4")).toBe("px-4");
    expect(cn("size-9", "w-full")).toBe("size-9 w-full");
    expect(cn("hidden md:flex", "flex")).toBe("md:flex flex");
    expect(cn("hover:bg-accent", "bg-card")).toBe("hover:bg-accent bg-card");
  });

  it("tells border width from border colour", () => {
    expect(cn("border border-input", "border-primary")).toBe("border border-primary");
    expect(cn("border-2", "border")).toBe("border");
  });

  it("keeps classes it has no group for, and drops falsy inputs", () => {
    expect(cn("animate-spin", false, undefined, "ring-2")).toBe("animate-spin ring-2");
  });
});
