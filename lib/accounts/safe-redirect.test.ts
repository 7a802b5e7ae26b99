// Auth.js's redirect callback (lib/accounts/authjs.ts → sameSiteRedirect): one test per kind of
// target it refuses, each beside the nearest one it keeps.
import { describe, expect, it } from "vitest";
import { sameSiteRedirect } from "./safe-next";

const BASE = "https://studio.example";

describe("sameSiteRedirect", () => {
  it("keeps an absolute URL on the studio's origin, with its query and fragment", () => {
    expect(sameSiteRedirect("https://studio.example/tasks/t1?view=parts#top", BASE)).toBe("https://studio.example/tasks/t1?view=parts#top");
    expect(sameSiteRedirect("https://studio.example", BASE)).toBe("https://studio.example/");
  });

  it("sends another site, port or scheme, or a non-http URL, to the studio's home", () => {
    for (const url of [
      "https://evil.example/tasks",
      "https://studio.example.evil.test/tasks",
      "https://studio.example:8443/tasks",
      "http://studio.example/tasks",
      "javascript:alert(1)",
      "data:text/html,hi",
    ])
      expect(sameSiteRedirect(url, BASE), url).toBe("https://studio.example/");
  });

  it("keeps a path on this site, and refuses what safeNext refuses, relative or inside a same-origin URL", () => {
    expect(sameSiteRedirect("/new/image?from=t1", BASE)).toBe("https://studio.example/new/image?from=t1");
    for (const url of ["//evil.example/x", "/\\\\evil.example", "/%2F%2Fevil.example", "https://studio.example//evil.example/x", "tasks"])
      expect(sameSiteRedirect(url, BASE), url).toBe("https://studio.example/");
  });
});
