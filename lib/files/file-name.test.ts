import { describe, expect, it } from "vitest";
import { cleanFileName, MAX_FILE_NAME, visibleFileName } from "./file-name";

const BIDI = ["\u200e", "\u200f", "\u061c", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"];

describe("file names from users", () => {
  it("lose right-to-left overrides and every other bidi control, so they read in their real order", () => {
    expect(cleanFileName("invoice\u202egpj.exe", "upload.png")).toBe("invoicegpj.exe");
    for (const c of BIDI) expect(cleanFileName(`chair${c}.glb`, "upload.glb"), `U+${c.charCodeAt(0).toString(16)}`).toBe("chair.glb");
  });

  it("lose C0 and C1 controls, DEL and characters that draw nothing", () => {
    expect(cleanFileName("a\u0000b\u0007c\td\ne\u007ff\u0085g\u009fh.png", "x")).toBe("abcdefgh.png");
    expect(cleanFileName("\ufeffzero\u200bwidth\u2060joined\u2028.png", "x")).toBe("zerowidthjoined.png");
  });

  it("keep letters of every script, emoji sequences and their joiners", () => {
    expect(cleanFileName("стул é 椅子 كرسي.glb", "x")).toBe("стул é 椅子 كرسي.glb");
    expect(cleanFileName("\u{1f469}\u200d\u{1f4bb} می\u200cخواهم.png", "x")).toBe("\u{1f469}\u200d\u{1f4bb} می\u200cخواهم.png");
  });

  it("keep the last path part, trimmed, at most MAX_FILE_NAME characters from the end; the fallback when nothing is left", () => {
    expect(cleanFileName("C:\\Users\\me\\chair.glb", "x")).toBe("chair.glb");
    expect(cleanFileName("../../etc/passwd", "x")).toBe("passwd");
    expect(cleanFileName(`${"\u{1f600}".repeat(300)}.png`, "x")).toBe(`${"\u{1f600}".repeat(MAX_FILE_NAME - 4)}.png`);
    expect(cleanFileName("\u202e\u200f  ", "upload.png")).toBe("upload.png");
    expect(cleanFileName("folder/", "upload.stl")).toBe("upload.stl");
  });

  it("shows names stored before this rule without their controls, and never half a surrogate pair", () => {
    expect(visibleFileName("report\u202efdp.exe")).toBe("reportfdp.exe");
    const shown = visibleFileName("bad\ud800name.png");
    expect(shown).toBe("bad\ufffdname.png");
    expect(() => encodeURIComponent(shown)).not.toThrow();
  });
});
