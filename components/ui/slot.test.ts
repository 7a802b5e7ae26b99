import { describe, expect, it, vi } from "vitest";
import { composeRefs, mergeSlotProps } from "./slot";

describe("mergeSlotProps", () => {
  it("lets the child's own props win, and keeps the slot's where the child has none", () => {
    expect(mergeSlotProps({ type: "button", "aria-label": "Delete", id: "a" }, { id: "b", href: "/x" })).toEqual({
      type: "button",
      "aria-label": "Delete",
      id: "b",
      href: "/x",
    });
  });

  it("a child's undefined prop does not erase the slot's", () => {
    expect(mergeSlotProps({ "aria-describedby": "tip" }, { "aria-describedby": undefined })).toEqual({ "aria-describedby": "tip" });
  });

  it("calls both handlers, the child's first, and returns the child's result", () => {
    const order: string[] = [];
    const merged = mergeSlotProps({ onClick: () => order.push("slot") }, { onClick: () => (order.push("child"), "theirs") });
    expect((merged.onClick as (e: unknown) => unknown)({})).toBe("theirs");
    expect(order).toEqual(["child", "slot"]);
  });

  it("joins classes and merges styles, the child's style winning", () => {
    const merged = mergeSlotProps(
      { className: "btn", style: { color: "red", margin: 0 } },
      { className: "wide", style: { color: "blue" } },
    );
    expect(merged.className).toBe("btn wide");
    expect(merged.style).toEqual({ color: "blue", margin: 0 });
  });
});

describe("composeRefs", () => {
  it("sets object and callback refs, and clears both when detached", () => {
    const object = { current: null as string | null };
    const callback = vi.fn();
    const detach = composeRefs<string>(object, callback)("node");
    expect(object.current).toBe("node");
    expect(callback).toHaveBeenLastCalledWith("node");
    (detach as () => void)();
    expect(object.current).toBeNull();
    expect(callback).toHaveBeenLastCalledWith(null);
  });

  it("runs a callback ref's own cleanup instead of calling it with null", () => {
    const cleanup = vi.fn();
    const callback = vi.fn(() => cleanup);
    const detach = composeRefs<string>(callback)("node");
    (detach as () => void)();
    expect(cleanup).toHaveBeenCalledOnce();
    expect(callback).toHaveBeenCalledTimes(1);
  });
});
