import { webmType } from "@/lib/viewer/turntable";

/** Records `seconds` of what `canvas` draws as a WebM (MediaRecorder over the canvas's stream). */
export async function recordCanvas(canvas: HTMLCanvasElement, seconds: number): Promise<Blob> {
  const type = typeof MediaRecorder === "undefined" ? null : webmType((t) => MediaRecorder.isTypeSupported(t));
  if (!type) throw new Error("this browser cannot record WebM video");
  const stream = canvas.captureStream(30);
  try {
    const recorder = new MediaRecorder(stream, { mimeType: type, videoBitsPerSecond: 4_000_000 });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    const stopped = new Promise<void>((resolve, reject) => {
      recorder.onstop = () => resolve();
      recorder.onerror = () => reject(new Error("the recording failed"));
    });
    recorder.start(1000);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    recorder.stop();
    await stopped;
    if (chunks.length === 0) throw new Error("the recording is empty");
    return new Blob(chunks, { type: "video/webm" });
  } finally {
    for (const track of stream.getTracks()) track.stop();
  }
}
