import { describe, expect, it } from "vitest";
import { relativeTime } from "./relative-time";

const made = "2025-03-10T12:00:00.000Z";
const after = (seconds: number) => Date.parse(made) + seconds * 1000;

describe("relativeTime", () => {
  it("says now under a minute, and for a time ahead of the clock", () => {
    expect(relativeTime(made, after(0), "en")).toBe("now");
    expect(relativeTime(made, after(59), "en")).toBe("now");
    expect(relativeTime(made, after(-300), "en")).toBe("now");
  });

  it("counts whole units of the largest unit spanned, floored", () => {
    expect(relativeTime(made, after(60), "en")).toBe("1 minute ago");
    expect(relativeTime(made, after(59 * 60 + 59), "en")).toBe("59 minutes ago");
    expect(relativeTime(made, after(3600), "en")).toBe("1 hour ago");
    expect(relativeTime(made, after(36 * 3600), "en")).toBe("1 day ago");
    expect(relativeTime(made, after(13 * 86400), "en")).toBe("1 week ago");
    expect(relativeTime(made, after(45 * 86400), "en")).toBe("1 month ago");
    expect(relativeTime(made, after(800 * 86400), "en")).toBe("2 years ago");
  });

  it("speaks the reader's language", () => {
    expect(relativeTime(made, after(2 * 3600), "fr")).toBe("il y a 2 heures");
  });
});
