import { createElement as h } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "./tabs";

/**
 * The markup the server sends, which the browser's accessibility tree and hydration start from
 * (the keys and clicks are e2e/tabs.spec.ts's): each tab names its panel and each panel its tab.
 */

type Attrs = Record<string, string>;

/** The opening tags with `role` in `html`, their attributes by name (a bare attribute reads ""). */
function withRole(html: string, role: string): Attrs[] {
  return [...html.matchAll(/<(?:div|button)\b([^>]*)>/g)]
    .map((m) => Object.fromEntries([...(m[1] ?? "").matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((a) => [a[1], a[2] ?? ""])) as Attrs)
    .filter((a) => a.role === role);
}

const VALUES = ["print", "details", "share"];

function tabs(props: { value?: string; defaultValue?: string; forceMount?: boolean; disabled?: string }) {
  return h(
    Tabs,
    { value: props.value, defaultValue: props.defaultValue, onValueChange: () => undefined },
    h(
      TabsList,
      { "aria-label": "Panels" },
      VALUES.map((v) => h(TabsTrigger, { key: v, value: v, disabled: v === props.disabled }, v)),
    ),
    VALUES.map((v) => h(TabsContent, { key: v, value: v, forceMount: props.forceMount }, `panel ${v}`)),
  );
}

describe("Tabs", () => {
  it("links each tab and its panel both ways, one tab chosen and the only tab stop", () => {
    const html = renderToStaticMarkup(tabs({ value: "details", forceMount: true }));
    const [list] = withRole(html, "tablist");
    expect(list).toMatchObject({ "aria-orientation": "horizontal", "data-slot": "tabs-list", "aria-label": "Panels" });
    const triggers = withRole(html, "tab");
    const panels = withRole(html, "tabpanel");
    expect(triggers.map((t) => [t.type, t["aria-selected"], t.tabindex, t["data-state"]])).toEqual([
      ["button", "false", "-1", "inactive"],
      ["button", "true", "0", "active"],
      ["button", "false", "-1", "inactive"],
    ]);
    expect(panels).toHaveLength(3);
    for (const [i, trigger] of triggers.entries()) {
      const panel = panels[i];
      expect(trigger["aria-controls"]).toBe(panel?.id);
      expect(panel?.["aria-labelledby"]).toBe(trigger.id);
      expect(panel?.tabindex).toBe("0");
      expect(panel?.["data-state"]).toBe(trigger["data-state"]);
    }
    // The ids are all different: one element each.
    expect(new Set([...triggers, ...panels].map((e) => e.id)).size).toBe(6);
    // Kept panels are hidden by the caller's CSS (data-state), never by the attribute.
    expect(panels.some((p) => "hidden" in p)).toBe(false);
  });

  it("renders only the chosen panel without forceMount, starting at defaultValue when uncontrolled", () => {
    const html = renderToStaticMarkup(tabs({ defaultValue: "share" }));
    const panels = withRole(html, "tabpanel");
    expect(panels).toHaveLength(1);
    expect(html).toContain("panel share");
    expect(html).not.toContain("panel print");
    const chosen = withRole(html, "tab").find((t) => t["aria-selected"] === "true");
    expect(chosen?.id).toBe(panels[0]?.["aria-labelledby"]);
    expect(chosen?.["aria-controls"]).toBe(panels[0]?.id);
  });

  it("disables a disabled tab", () => {
    const html = renderToStaticMarkup(tabs({ value: "print", disabled: "share" }));
    expect(withRole(html, "tab").map((t) => "disabled" in t)).toEqual([false, false, true]);
  });

  it("gives two tab sets on one page different ids", () => {
    const html = renderToStaticMarkup(h("main", null, tabs({ value: "print" }), tabs({ value: "print" })));
    const ids = withRole(html, "tab").map((t) => t.id);
    expect(ids).toHaveLength(6);
    expect(new Set(ids).size).toBe(6);
  });
});
