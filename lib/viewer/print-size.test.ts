import { describe, expect, it } from "vitest";
import { analyseMesh } from "./mesh-analysis";
import { cubeSoup, soupMesh } from "./mesh-analysis.test-helpers";
import { DEFAULT_HEIGHT_MM, formatDimensions, formatFigure, mmPerUnit, printReport } from "./print-size";
import { printSizing } from "./task-sizing";

describe("print size", () => {
  it("a relief is sized by its stored width, anything else by the chosen height", () => {
    expect(printSizing("depth", { width: 120, height_relief: 1.3 })).toEqual({ kind: "relief", widthMm: 120 });
    expect(printSizing("image-to-3d", { width: 120 })).toEqual({ kind: "height" });
    expect(printSizing("depth", {})).toEqual({ kind: "height" });
    expect(mmPerUnit({ kind: "relief", widthMm: 120 }, [120, 2.3, 80], DEFAULT_HEIGHT_MM)).toBe(1);
    expect(mmPerUnit({ kind: "height" }, [0.5, 2, 1], 100)).toBe(50);
  });

  it("reads width × depth × height with the viewer's Y up", () => {
    expect(formatDimensions([120, 2.3, 80], 1)).toBe("120.0 × 80.0 × 2.3 mm");
  });

  it("a unit cube at 100 mm is watertight, 1,000 cm³ and 600 cm²", () => {
    const a = analyseMesh(soupMesh(cubeSoup()));
    const report = printReport(a, mmPerUnit({ kind: "height" }, [1, 1, 1], 100));
    expect(report).toMatchObject({ watertight: true, boundaryEdges: 0, nonManifoldEdges: 0, shells: 1 });
    expect(report.volumeCm3).toBeCloseTo(1000, 6);
    expect(report.areaCm2).toBeCloseTo(600, 6);
    expect(formatFigure(report.volumeCm3)).toBe("1,000.0");
  });
});
