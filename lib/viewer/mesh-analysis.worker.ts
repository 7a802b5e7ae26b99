/** Analyses a mesh off the page's thread: the steps of analysis-steps.ts, one message at a time. */
import { analysisSteps, type AnalysisRequest, type ThinRequest } from "./analysis-steps";

const step = analysisSteps((message, transfer) => postMessage(message, { transfer }));
addEventListener("message", (e: MessageEvent<AnalysisRequest | ThinRequest>) => step(e.data));
