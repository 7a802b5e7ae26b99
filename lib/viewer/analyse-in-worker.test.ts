import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { analyseInWorker, sharedAnalysis } from "./analyse-in-worker";
import { analysisSteps, type AnalysisRequest, type ThinRequest } from "./analysis-steps";
import { analyseMesh, type MeshAnalysis, type MeshInput } from "./mesh-analysis";
import { meshIndexData } from "./mesh-index";
import { bumpySphere } from "./mesh-index.test-helpers";
import { modelIndex, pickModel } from "./model-index";
import { searchedThickness } from "./wall-figures";
import { wallThickness } from "./wall-thickness";

/** A worker that runs analysis-steps in this thread, copying messages as postMessage does. */
class FakeWorker {
  static started: FakeWorker[] = [];
  readonly received: (AnalysisRequest | ThinRequest)[] = [];
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: { message: string; preventDefault(): void }) => void) | null = null;
  terminated = false;
  private readonly step = analysisSteps((message, transfer) => {
    const copy = structuredClone(message, { transfer });
    setTimeout(() => !this.terminated && this.onmessage?.({ data: copy }));
  });
  constructor() {
    FakeWorker.started.push(this);
  }
  postMessage(message: AnalysisRequest | ThinRequest, transfer: Transferable[] = []) {
    // Transferred buffers leave the page, as they do with a real worker.
    const copy = structuredClone(message, { transfer });
    this.received.push(copy);
    setTimeout(() => {
      if (this.terminated) return;
      try {
        this.step(copy);
      } catch (e) {
        this.onerror?.({ message: (e as Error).message, preventDefault() {} });
      }
    });
  }
  terminate() {
    this.terminated = true;
  }
}

function analyse(input: MeshInput, shared: boolean, signal = new AbortController().signal) {
  return new Promise<{ analysis: MeshAnalysis; thickness: Float32Array; searched: number }>((resolve, reject) => {
    let analysis: MeshAnalysis | null = null;
    analyseInWorker(
      input,
      signal,
      {
        onAnalysis: (a) => (analysis = a),
        onThickness: (thickness, searched) =>
          analysis ? resolve({ analysis, thickness, searched }) : reject(new Error("walls before counts")),
        onError: (message) => reject(new Error(message)),
      },
      shared,
    );
  });
}

// 7,200 triangles: above the 5,000 that are analysed on the page.
const model = () => bumpySphere(60, 11);

describe("analyseInWorker", () => {
  beforeEach(() => {
    FakeWorker.started = [];
    vi.stubGlobal("Worker", FakeWorker);
  });
  afterEach(() => vi.unstubAllGlobals());

  for (const shared of [false, true]) {
    it(`${shared ? "two workers" : "one worker"}: the counts and every triangle's wall as on the page, the index handed to the pick`, async () => {
      const input = model();
      const { analysis, thickness, searched } = await analyse(input, shared);
      expect(analysis).toEqual(analyseMesh(input));
      expect(searched).toBe(searchedThickness(analysis));
      expect(thickness).toEqual(wallThickness(input, searched));
      expect(FakeWorker.started).toHaveLength(shared ? 2 : 1);
      // One index was built, and the pick gets it without another worker.
      expect(FakeWorker.started.flatMap((w) => w.received).filter((m) => "build" in m && m.build)).toHaveLength(1);
      await modelIndex(input);
      expect(FakeWorker.started).toHaveLength(shared ? 2 : 1);
      expect(FakeWorker.started.every((w) => w.terminated)).toBe(true);
    });
  }

  it("sends the index the pick already has instead of building it again", async () => {
    const input = model();
    await modelIndex(input);
    expect(FakeWorker.started).toHaveLength(1);
    const { thickness, searched } = await analyse(input, true);
    expect(thickness).toEqual(wallThickness(input, searched));
    const requests = FakeWorker.started.slice(1).flatMap((w) => w.received);
    expect(requests.some((m) => "build" in m && m.build)).toBe(false);
    expect(requests.filter((m) => "thin" in m && m.index)).toHaveLength(2);
  });

  it("stops its workers on the abort and reports nothing after it; the next pick builds the index anew", async () => {
    const input = model();
    const abort = new AbortController();
    const reported: string[] = [];
    analyseInWorker(input, abort.signal, {
      onAnalysis: () => reported.push("analysis"),
      onThickness: () => reported.push("thickness"),
      onError: () => reported.push("error"),
    });
    abort.abort();
    await new Promise((r) => setTimeout(r, 50));
    expect(reported).toEqual([]);
    expect(FakeWorker.started.every((w) => w.terminated)).toBe(true);
    await modelIndex(input);
    expect(FakeWorker.started).toHaveLength(2);
  });

  it("hands the walls out stretch by stretch, each place once, the index at most once a worker", async () => {
    // 33,800 triangles: stretches of a quarter of what is left, at least 4,096.
    const input = bumpySphere(130, 5);
    const pageCopy = { positions: input.positions.slice(), indices: input.indices.slice() };
    const { thickness, searched } = await analyse(input, true);
    expect(thickness).toEqual(wallThickness(input, searched));
    const [builder, counter] = FakeWorker.started;
    const stretches = (w: FakeWorker | undefined) => (w?.received ?? []).flatMap((m) => ("thin" in m ? [m] : []));
    const all = [...stretches(builder), ...stretches(counter)].map((m) => [m.thin.from, m.thin.to] as const).sort((a, b) => a[0] - b[0]);
    expect(all.map(([from, to]) => to - from)).toEqual([8450, 6338, 4753, 4096, 4096, 4096, 1971]);
    // Back to back from 0 to the last triangle: each place asked for once.
    all.forEach(([from, to], i) => {
      expect(from).toBe(i === 0 ? 0 : all[i - 1]?.[1]);
      expect(to).toBeGreaterThan(from);
    });
    expect(all.at(-1)?.[1]).toBe(33_800);
    // The builder has the index; the other worker gets it with its first stretch only: the
    // builder's second copy, passed on whole, while the page keeps its own for the pick.
    expect(stretches(builder).filter((m) => m.index)).toHaveLength(0);
    expect(stretches(counter).map((m) => Boolean(m.index))).toEqual(stretches(counter).map((_, i) => i === 0));
    expect(builder?.received[0]).toMatchObject({ build: true, keep: true, share: true });
    const sent = stretches(counter)[0]?.index;
    const handed = await modelIndex(input);
    expect(sent?.order).toEqual(meshIndexData(handed).order);
    // The page's index still answers the pick: a ray down the y axis meets the sphere's top.
    const hit = await pickModel(input, [0, 5, 0], [0, -1, 0]);
    expect(hit?.point[1]).toBeGreaterThan(0.9);
    expect(pageCopy.indices).toEqual(input.indices);
    // Every stretch searched as far as the index's box says (the counts' box: the same triangles).
    const asked = [...stretches(builder), ...stretches(counter)].map((m) => m.thin.searched);
    expect(new Set(asked)).toEqual(new Set([searchedThickness(analyseMesh(input))]));
  });

  it("shares the work between two workers from 200k triangles on two cores or more", () => {
    expect([sharedAnalysis(199_999, 8), sharedAnalysis(200_000, 2), sharedAnalysis(2_000_000, 1)]).toEqual([false, true, false]);
  });
});
