import { describe, expect, it } from "vitest";
import { jsonWithEtag } from "./task-etag";

const get = (headers: Record<string, string> = {}) => new Request("http://studio.test/api/tasks/t", { headers });

describe("jsonWithEtag", () => {
  it("answers the JSON with a validator the browser must revalidate", async () => {
    const res = jsonWithEtag(get(), { state: "processing" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ state: "processing" });
    expect(res.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-transform");
  });

  it("answers 304 without a body while the view is unchanged, and 200 once it changed", async () => {
    const etag = jsonWithEtag(get(), { state: "processing" }).headers.get("etag")!;
    const same = jsonWithEtag(get({ "If-None-Match": `W/"other", ${etag}` }), { state: "processing" });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    expect(same.headers.get("etag")).toBe(etag);
    const changed = jsonWithEtag(get({ "If-None-Match": etag }), { state: "success" });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  it("treats a weak form of the same tag as a match, as If-None-Match requires", () => {
    const etag = jsonWithEtag(get(), [1, 2]).headers.get("etag")!;
    expect(jsonWithEtag(get({ "If-None-Match": `W/${etag}` }), [1, 2]).status).toBe(304);
  });
});

describe("jsonWithEtag, headers of each answer", () => {
  it("labels the 200 answer as JSON and gives the same tag for the same value", () => {
    const res = jsonWithEtag(get(), { a: 1 });
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(jsonWithEtag(get(), { a: 1 }).headers.get("etag")).toBe(res.headers.get("etag"));
    expect(jsonWithEtag(get(), { a: 2 }).headers.get("etag")).not.toBe(res.headers.get("etag"));
  });

  it("keeps the cache rules on a 304 and sends no content type with it", () => {
    const res = jsonWithEtag(get({ "If-None-Match": "*" }), { a: 1 });
    expect(res.status).toBe(304);
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-transform");
    expect(res.headers.get("content-type")).toBeNull();
  });

  it("answers 200 for a tag that is not the current one", async () => {
    const res = jsonWithEtag(get({ "If-None-Match": '"stale"' }), { a: 1 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ a: 1 });
  });
});
