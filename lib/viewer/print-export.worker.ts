/** Writes a print file off the page's thread: a 2M-triangle 3MF takes seconds to write and zip. */
import { stlBinary, threeMf, toPrintFrame, type PrintPart } from "./print-export";

export interface ExportRequest {
  format: "stl" | "3mf";
  parts: PrintPart[];
  /** Millimetres per model unit. */
  scale: number;
}

addEventListener("message", (e: MessageEvent<ExportRequest>) => {
  const parts = toPrintFrame(e.data.parts, e.data.scale);
  const bytes = e.data.format === "stl" ? stlBinary(parts) : threeMf(parts);
  postMessage(bytes, { transfer: [bytes.buffer] });
});
