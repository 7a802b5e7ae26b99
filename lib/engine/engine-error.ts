import { ERRORS, type ErrorCode } from "@/lib/x3d/errors";

/** A refusal the service answers with its envelope: a catalogue code plus what exactly was wrong. */
export class EngineError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
  ) {
    super(detail ? `${ERRORS[code].msg}: ${detail}` : ERRORS[code].msg);
    this.name = "EngineError";
  }
}
