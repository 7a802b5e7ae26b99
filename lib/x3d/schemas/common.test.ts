import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  addCodedIssue,
  CallbackUrlSchema,
  CreateResultSchema,
  extensionOf,
  fileSchema,
  httpUrl,
  issueCode,
  knownSize,
  TaskIdSchema,
  TaskResultSchema,
  urlSchema,
} from "./common";

describe("file names and sizes", () => {
  it("reads the lower-case extension of the last path segment, if it has one", () => {
    expect(extensionOf("model.GLB")).toBe("glb");
    expect(extensionOf("/a.b/c/scan.final.Obj")).toBe("obj");
    expect(extensionOf("/a.b/c/README")).toBeUndefined();
    expect(extensionOf(".hidden")).toBeUndefined();
    expect(extensionOf("x.")).toBe("");
    expect(extensionOf("")).toBeUndefined();
  });

  it("knows the size of bytes and Blobs, not of streams", () => {
    expect(knownSize(new Uint8Array(7))).toBe(7);
    expect(knownSize(new Blob(["abcd"]))).toBe(4);
    expect(knownSize(() => new Blob(["abcd"]))).toBeUndefined();
  });
});

describe("a file part", () => {
  // Built in each test, so that each counts as covering fileSchema.
  const schema = () => fileSchema({ extensions: ["png", "jpg"], maxBytes: 2 * 1024 * 1024, emptyCode: 10031010, tooBigCode: 10031001 });
  const issues = (file: unknown) =>
    schema()
      .safeParse(file)
      .error?.issues.map((i) => ({ path: i.path, message: i.message, code: issueCode(i, {}) }));

  it("takes a named file of an allowed type within the limit, at the limit too", () => {
    expect(schema().safeParse({ name: "a.PNG", data: new Uint8Array(2 * 1024 * 1024) }).success).toBe(true);
    expect(schema().safeParse({ name: "no-extension", type: "image/png", data: () => new Blob([]) }).success).toBe(true);
  });

  it("refuses an empty file with its empty code", () => {
    expect(issues({ name: "a.png", data: new Uint8Array(0) })).toEqual([{ path: ["data"], message: "a.png is empty", code: 10031010 }]);
  });

  it("refuses a file over the limit with its size code, naming the limit in MB", () => {
    expect(issues({ name: "a.png", data: new Uint8Array(2 * 1024 * 1024 + 1) })).toEqual([
      { path: ["data"], message: "a.png is larger than 2 MB", code: 10031001 },
    ]);
  });

  it("reports its problems as custom issues", () => {
    const codes = (file: unknown) =>
      schema()
        .safeParse(file)
        .error?.issues.map((i) => i.code);
    expect(codes({ name: "a.gif", data: new Uint8Array(0) })).toEqual(["custom", "custom"]);
  });

  it("refuses a name whose extension is not allowed, listing the allowed ones", () => {
    expect(issues({ name: "a.gif", data: new Uint8Array(1) })).toEqual([
      { path: ["name"], message: "a.gif: only png, jpg files are accepted", code: 10000000 },
    ]);
  });

  it("refuses data that is not bytes, a Blob or a function", () => {
    expect(issues({ name: "a.png", data: "bytes" })).toEqual([
      { path: ["data"], message: "file data must be a Blob, a Uint8Array or a function returning a stream or Blob", code: 10000000 },
    ]);
    expect(schema().safeParse({ name: "", data: new Uint8Array(1) }).success).toBe(false);
  });
});

describe("URLs", () => {
  it("takes http and https URLs only, with the message given", () => {
    expect(httpUrl().safeParse("http://127.0.0.1:3000/x").success).toBe(true);
    expect(httpUrl().safeParse("https://cdn.example/x").success).toBe(true);
    expect(httpUrl().safeParse("ftp://cdn.example/x").error?.issues[0]?.message).toBe("must be an http or https URL");
    for (const other of ["xhttp://cdn.example/x", "httpx://cdn.example/x", "shttps://cdn.example/x"]) {
      expect(httpUrl().safeParse(other).success, other).toBe(false);
    }
    expect(CallbackUrlSchema.safeParse("file:///etc/passwd").error?.issues[0]?.message).toBe("callback_url must be an http or https URL");
  });

  it("takes a URL whose path has an allowed extension or none, and codes one that has another", () => {
    const schema = urlSchema(["glb", "obj"], 10030005);
    expect(schema.safeParse("https://cdn.example/m.GLB?sig=a.png").success).toBe(true);
    expect(schema.safeParse("https://cdn.example/download/123").success).toBe(true);
    const refused = schema.safeParse("https://cdn.example/m.png?x=1.glb").error?.issues[0];
    expect(refused?.message).toBe("the URL must point to a glb, obj file");
    expect(refused && issueCode(refused, {})).toBe(10030005);
  });
});

describe("the catalogue code of an issue", () => {
  const issueOf = (schema: z.ZodType, value: unknown) => {
    const issue = schema.safeParse(value).error?.issues[0];
    if (!issue) throw new Error("expected an issue");
    return issue;
  };

  it("is the issue's own code, else its field's, else the fallback", () => {
    const coded = z.object({ a: z.string() }).superRefine((_, ctx) => addCodedIssue(ctx, 10031021, "a", "front view required"));
    const own = issueOf(coded, { a: "x" });
    expect(own).toMatchObject({ path: ["a"], message: "front view required" });
    expect(issueCode(own, { a: 10031014 })).toBe(10031021);
    const plain = issueOf(z.object({ a: z.string() }), { a: 1 });
    expect(issueCode(plain, { a: 10031014 })).toBe(10031014);
    expect(issueCode(plain, { b: 10031014 })).toBe(10000000);
    expect(issueCode(plain, {}, 10030009)).toBe(10030009);
    expect(issueCode(issueOf(z.array(z.string()), [1]), { "0": 10031014 })).toBe(10000000);
    const customWithoutCode = issueOf(
      z.object({ a: z.string() }).refine(() => false, { path: ["a"], message: "no" }),
      { a: "x" },
    );
    expect(issueCode(customWithoutCode, { a: 10031013 })).toBe(10031013);
  });
});

describe("ids and results", () => {
  it("trims a task id and refuses an empty one", () => {
    expect(TaskIdSchema.parse("  abc ")).toBe("abc");
    expect(TaskIdSchema.safeParse("   ").error?.issues[0]?.message).toBe("task_id is required");
  });

  it("wants the result url of a successful task, on the url field", () => {
    const issues = TaskResultSchema.safeParse({ task_id: "t", state: "success", url: "" }).error?.issues;
    expect(issues?.map((i) => [i.code, i.path, i.message])).toEqual([["custom", ["url"], "a successful task must carry its result url"]]);
  });

  it("reads a create result with or without a state", () => {
    expect(CreateResultSchema.parse({ task_id: "t" })).toEqual({ task_id: "t" });
    expect(CreateResultSchema.parse({ task_id: "t", state: "queueing" })).toEqual({ task_id: "t", state: "queueing" });
    expect(CreateResultSchema.safeParse({ task_id: "" }).success).toBe(false);
  });
});
