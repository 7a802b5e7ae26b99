import { describe, expect, it, vi } from "vitest";
import { TaskChangeBus, type TaskChange } from "./bus";

const change = (userId: string, taskId: string, state: TaskChange["state"] = "processing"): TaskChange => ({
  userId,
  taskId,
  state,
  settled: state === "failed" || state === "deleted",
});

describe("TaskChangeBus", () => {
  it("hands each change to its user's subscribers only, in order", () => {
    const bus = new TaskChangeBus();
    const ann: TaskChange[] = [];
    const bob: TaskChange[] = [];
    bus.subscribe("ann", (c) => ann.push(c));
    bus.subscribe("bob", (c) => bob.push(c));
    expect(bus.deliver(change("ann", "t1", "queueing"))).toBe(1);
    expect(bus.deliver(change("ann", "t1", "processing"))).toBe(1);
    expect(bus.deliver(change("bob", "t2", "failed"))).toBe(1);
    expect(bus.deliver(change("carol", "t3"))).toBe(0);
    expect(ann.map((c) => `${c.taskId}:${c.state}`)).toEqual(["t1:queueing", "t1:processing"]);
    expect(bob).toEqual([{ userId: "bob", taskId: "t2", state: "failed", settled: true }]);
  });

  it("delivers to every subscriber of a user (several tabs), each once", () => {
    const bus = new TaskChangeBus();
    const seen: string[] = [];
    bus.subscribe("ann", () => seen.push("tab 1"));
    bus.subscribe("ann", () => seen.push("tab 2"));
    expect(bus.deliver(change("ann", "t1"))).toBe(2);
    expect(seen).toEqual(["tab 1", "tab 2"]);
    expect(bus.size).toBe(2);
  });

  it("stops delivering after unsubscribe; the same function subscribed twice is unsubscribed once per call", () => {
    const bus = new TaskChangeBus();
    const listener = vi.fn();
    const first = bus.subscribe("ann", listener);
    const second = bus.subscribe("ann", listener);
    bus.deliver(change("ann", "t1"));
    expect(listener).toHaveBeenCalledTimes(2);
    first();
    first(); // twice: no effect on the other subscription
    bus.deliver(change("ann", "t1"));
    expect(listener).toHaveBeenCalledTimes(3);
    second();
    expect(bus.deliver(change("ann", "t1"))).toBe(0);
    expect(listener).toHaveBeenCalledTimes(3);
    expect(bus.size).toBe(0);
  });

  it("a listener that throws does not keep the change from the others", () => {
    const bus = new TaskChangeBus();
    const after = vi.fn();
    bus.subscribe("ann", () => {
      throw new Error("broken tab");
    });
    bus.subscribe("ann", after);
    expect(bus.deliver(change("ann", "t1"))).toBe(2);
    expect(after).toHaveBeenCalledWith(change("ann", "t1"));
  });

  it("a listener that unsubscribes while a change is delivered does not stop the rest of the round", () => {
    const bus = new TaskChangeBus();
    const seen: string[] = [];
    const stop = bus.subscribe("ann", () => {
      seen.push("first");
      stop();
    });
    bus.subscribe("ann", () => seen.push("second"));
    bus.deliver(change("ann", "t1"));
    bus.deliver(change("ann", "t1"));
    expect(seen).toEqual(["first", "second", "second"]);
  });
});
