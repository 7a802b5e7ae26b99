// What the owner's task page and a share page are told about a task (pure: rows built here).
import { describe, expect, it } from "vitest";
import type { StudioTask } from "@/lib/db/schema";
import { ERRORS } from "@/lib/x3d/errors";
import { parseHistoryFilter } from "../read/queries";
import { CHECKING_NOTICE, sharedTaskView, taskView, UNCONFIRMED_MESSAGE } from "./task-view";
import { isShareable, newShareToken, sharePath } from "../read/shared-task";

const CREATED = new Date("2031-05-06T07:08:09Z");
const row = (values: Partial<StudioTask> = {}): StudioTask => ({
  id: "t 1",
  userId: "u",
  kind: "image-to-3d",
  serviceTaskId: "svc",
  options: {},
  inputs: {},
  state: "processing",
  cost: 30,
  errorCode: null,
  unknownAnswers: 0,
  resultFile: null,
  coverFile: null,
  displayFile: null,
  previewFile: null,
  displayState: null,
  callbackSecretHash: null,
  stateTimes: { created: "2031-05-06T07:08:09.000Z" },
  refreshedAt: null,
  createdAt: CREATED,
  updatedAt: CREATED,
  ...values,
});

describe("taskView", () => {
  it("shows a running task with nothing stored and no problem", () => {
    const view = taskView(row());
    expect(view).toEqual({
      id: "t 1",
      kind: "image-to-3d",
      state: "processing",
      settled: false,
      stateTimes: { created: "2031-05-06T07:08:09.000Z" },
      createdAt: "2031-05-06T07:08:09.000Z",
      options: {},
      cost: 30,
      errorCode: null,
      errorMessage: null,
      refunded: false,
      result: { stored: false, format: null, url: null, downloadUrl: null },
      display: { pending: false, url: null, previewUrl: null },
      cover: { stored: false, url: null },
    });
    expect("problem" in view).toBe(false);
  });

  it("links a finished task's stored files through the owner's file route", () => {
    const view = taskView(
      row({
        state: "success",
        resultFile: "results/t/result.glb",
        coverFile: "results/t/cover.webp",
        displayState: "ready",
        displayFile: "results/t/display.glb",
        previewFile: "results/t/preview.glb",
      }),
    );
    expect(view.settled).toBe(true);
    expect(view.result).toEqual({
      stored: true,
      format: "glb",
      url: "/api/files/t%201/result",
      downloadUrl: "/api/files/t%201/result?download=1",
    });
    expect(view.cover).toEqual({ stored: true, url: "/api/files/t%201/cover" });
    expect(view.display).toEqual({ pending: false, url: "/api/files/t%201/display", previewUrl: "/api/files/t%201/preview" });
  });

  it("says the display copy is pending until it is derived, and shows the original when it failed", () => {
    const stored = { state: "success" as const, resultFile: "results/t/result.glb" };
    expect(taskView(row(stored)).display).toEqual({ pending: true, url: null, previewUrl: null });
    expect(taskView(row(stored)).settled).toBe(false);
    expect(taskView(row({ ...stored, displayState: "failed", displayFile: "results/t/display.glb" })).display).toEqual({
      pending: false,
      url: null,
      previewUrl: null,
    });
    expect(taskView(row({ ...stored, displayState: "ready", displayFile: "results/t/display.glb" })).display).toEqual({
      pending: false,
      url: "/api/files/t%201/display",
      previewUrl: null,
    });
    expect(taskView(row({ ...stored, displayState: "ready", displayFile: null })).display.url).toBeNull();
    expect(taskView(row({ state: "success", displayState: null })).display.pending).toBe(false);
  });

  it("gives a failed task the catalogue's sentence and counts it refunded", () => {
    const view = taskView(row({ state: "failed", errorCode: 50010001 }));
    expect(view).toMatchObject({ settled: true, errorCode: 50010001, errorMessage: ERRORS[50010001].user, refunded: true });
    // A code on a task still running is explained too.
    expect(taskView(row({ errorCode: 10030010 })).errorMessage).toBe(ERRORS[10030010].user);
    expect(taskView(row({ errorCode: 10030010 })).refunded).toBe(false);
  });

  it("counts a task failed by the service's callback as refunded, though it never got an id", () => {
    const view = taskView(row({ state: "failed", serviceTaskId: null, errorCode: 50010001 }));
    expect(view).toMatchObject({ errorMessage: ERRORS[50010001].user, refunded: true });
  });

  it("says the display copy is pending only for a finished task", () => {
    expect(taskView(row({ state: "processing", resultFile: "results/t/result.glb" })).display.pending).toBe(false);
  });

  it("says a task the service never confirmed may not have been refunded", () => {
    const never = taskView(row({ state: "failed", serviceTaskId: null }));
    expect(never).toMatchObject({ errorMessage: UNCONFIRMED_MESSAGE, refunded: false });
    expect(taskView(row({ state: "failed", serviceTaskId: "svc" }))).toMatchObject({ errorMessage: null, refunded: true });
    expect(taskView(row({ state: "checking", serviceTaskId: null }))).toMatchObject({ errorMessage: null, problem: CHECKING_NOTICE });
  });

  it("shows a passing problem over the checking notice", () => {
    expect(taskView(row(), "The service could not be reached.").problem).toBe("The service could not be reached.");
    expect(taskView(row({ state: "checking", serviceTaskId: null }), "Busy.").problem).toBe("Busy.");
  });

  it("never shows the callback URL, but shows the owner their source URLs", () => {
    const options = { callback_url: "http://s/cb/secret", mesh_url: "https://o.test/m.glb", image_url: "https://o.test/p.png", face: 5 };
    expect(taskView(row({ options })).options).toEqual({ mesh_url: "https://o.test/m.glb", image_url: "https://o.test/p.png", face: 5 });
  });
});

describe("sharedTaskView", () => {
  it("links files through the share route and leaves out URLs of any kind", () => {
    const task = row({
      state: "success",
      resultFile: "results/t/result.obj",
      coverFile: "results/t/cover.webp",
      displayState: "ready",
      displayFile: "results/t/display.glb",
      options: { callback_url: "x", mesh_url: "y", face: 5, url_style: "kept" },
    });
    expect(sharedTaskView(task, "tok/en")).toEqual({
      kind: "image-to-3d",
      createdAt: "2031-05-06T07:08:09.000Z",
      options: { face: 5, url_style: "kept" },
      result: { format: "obj", url: "/api/share/tok%2Fen/files/result", downloadUrl: "/api/share/tok%2Fen/files/result?download=1" },
      display: { pending: false, url: "/api/share/tok%2Fen/files/display", previewUrl: null },
      cover: { url: "/api/share/tok%2Fen/files/cover" },
    });
    expect(sharedTaskView(row({ state: "success", resultFile: "r.glb" }), "k").cover).toEqual({ url: null });
  });
});

describe("share helpers", () => {
  it("share only finished tasks with a stored result", () => {
    expect(isShareable({ state: "success", resultFile: "r.glb" })).toBe(true);
    expect(isShareable({ state: "success", resultFile: null })).toBe(false);
    expect(isShareable({ state: "failed", resultFile: "r.glb" })).toBe(false);
  });

  it("mint unguessable 43-character tokens and link them under /share", () => {
    const a = newShareToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newShareToken()).not.toBe(a);
    expect(sharePath(a)).toBe(`/share/${a}`);
  });
});

describe("parseHistoryFilter", () => {
  it("takes known kinds and states, and pages from 1 to 10,000", () => {
    expect(parseHistoryFilter({ kind: "texture", state: "failed", page: "3" })).toEqual({ kind: "texture", state: "failed", page: 3 });
    expect(parseHistoryFilter({ kind: ["depth", "split"], page: ["2", "5"] })).toEqual({ kind: "depth", state: undefined, page: 2 });
    expect(parseHistoryFilter({ page: "10000" }).page).toBe(10_000);
    expect(parseHistoryFilter({ page: "10001" }).page).toBe(1);
    expect(parseHistoryFilter({ page: "0" }).page).toBe(1);
    expect(parseHistoryFilter({ page: "2.5" }).page).toBe(1);
    expect(parseHistoryFilter({ state: "checking" }).state).toBeUndefined();
  });
});
