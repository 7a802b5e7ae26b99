// How the create forms are told what went wrong: field sentences, the general message, and
// whether a failed create may still have made the task at the service.
import { describe, expect, it } from "vitest";

// next-auth does not load outside Next.js; nothing here reads the session.

const { X3dError } = await import("@/lib/x3d/client");
const { ERRORS } = await import("@/lib/x3d/errors");
const { mayExistAtService, problemsState, serviceErrorState } = await import("./create-task");

describe("problemsState", () => {
  it("puts a sentence by its field when the form shows the field, else in the message", () => {
    expect(problemsState({ face: "Too few.", mesh: "No mesh." }, ["face"])).toEqual({
      status: "error",
      fields: { face: "Too few." },
      message: "No mesh.",
    });
  });

  it("says each hidden sentence once, in order, and carries the service's code", () => {
    expect(problemsState({ a: "One.", b: "Two.", c: "One." }, [], 10031002)).toEqual({
      status: "error",
      fields: {},
      message: "One. Two.",
      code: 10031002,
    });
  });

  it("has no message and no code when every field is shown and none was given", () => {
    const state = problemsState({ face: "Too few." }, ["face", "model"]);
    expect(state).toEqual({ status: "error", fields: { face: "Too few." } });
    expect("message" in state).toBe(false);
    expect("code" in state).toBe(false);
    expect(problemsState({}, [], 0)).toEqual({ status: "error", fields: {}, code: 0 });
  });
});

describe("serviceErrorState", () => {
  const serviceError = (code: number) => new X3dError({ code, msg: "m", kind: "service", httpStatus: 200 });

  it("places the catalogue's sentence by the field the code concerns", () => {
    expect(serviceErrorState(serviceError(10031002), ["face"])).toEqual({
      status: "error",
      fields: { face: ERRORS[10031002].user },
      code: 10031002,
    });
  });

  it("moves it to the message when the form does not show that field", () => {
    expect(serviceErrorState(serviceError(10031002), ["mesh"])).toEqual({
      status: "error",
      fields: {},
      message: ERRORS[10031002].user,
      code: 10031002,
    });
  });

  it("uses the message for codes that concern no field, even on a form with a 'form' field", () => {
    expect(serviceErrorState(serviceError(10030011), ["form"])).toEqual({
      status: "error",
      fields: { form: ERRORS[10030011].user },
      code: 10030011,
    });
    expect(serviceErrorState(serviceError(10030011), [])).toMatchObject({ fields: {}, message: ERRORS[10030011].user });
  });

  it("answers anything else with a sentence of its own, not the error's text", () => {
    expect(serviceErrorState(new Error("socket hang up"), ["form"])).toEqual({
      status: "error",
      fields: {},
      message: "Something went wrong on our side while creating the task. Try again.",
    });
  });
});

describe("mayExistAtService", () => {
  const error = (kind: "service" | "network" | "response" | "input", init: { httpStatus?: number; mayHaveReached?: boolean } = {}) =>
    new X3dError({ code: 1, msg: "m", kind, ...init });

  it("is true for a connection or an answer lost after the request was sent", () => {
    expect(mayExistAtService(error("network", { mayHaveReached: true }))).toBe(true);
    expect(mayExistAtService(error("response"))).toBe(true);
    expect(mayExistAtService(error("response", { httpStatus: 500 }))).toBe(true);
    expect(mayExistAtService(error("response", { httpStatus: 408 }))).toBe(true);
    expect(mayExistAtService(error("response", { httpStatus: 399 }))).toBe(true);
  });

  it("is false when the request never left, the service said no, or HTTP refused it", () => {
    expect(mayExistAtService(error("network", { mayHaveReached: false }))).toBe(false);
    expect(mayExistAtService(error("service"))).toBe(false);
    expect(mayExistAtService(error("input"))).toBe(false);
    expect(mayExistAtService(error("input", { mayHaveReached: true }))).toBe(false);
    expect(mayExistAtService(error("response", { httpStatus: 400 }))).toBe(false);
    expect(mayExistAtService(error("response", { httpStatus: 404 }))).toBe(false);
    expect(mayExistAtService(error("response", { httpStatus: 499 }))).toBe(false);
    expect(mayExistAtService(new Error("timeout"))).toBe(false);
  });
});
