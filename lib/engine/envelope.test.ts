import { describe, expect, it, vi } from "vitest";
import { EngineError } from "./engine-error";
import { answer, fail, ok, unauthorized } from "./envelope";

describe("the service envelope", () => {
  it("success: integer code 200, data, msg success", async () => {
    const res = ok({ task_id: "t" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: 200, data: { task_id: "t" }, msg: "success" });
  });
  it("an EngineError becomes its code with empty data and the catalogue msg plus the detail", async () => {
    const res = await answer(async () => {
      throw new EngineError(10031002, 'face must be a whole number from 100000 to 5000000, got "7"');
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      code: 10031002,
      data: {},
      msg: 'Face not valid: face must be a whole number from 100000 to 5000000, got "7"',
    });
  });
  it("anything else becomes 10000000 system error, HTTP 500, without leaking the message", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    const res = await answer(async () => {
      throw new Error("database password is hunter2");
    });
    quiet.mockRestore();
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ code: 10000000, data: {}, msg: "system error" });
  });
  it("401 has the spec's exact body and HTTP status", async () => {
    const res = unauthorized();
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, msg: "Unauthorized", data: {} });
    expect((await fail(30010000).json()) as object).toEqual({ code: 30010000, data: {}, msg: "balance is not enough" });
  });
});
