// Raw HTTP calls against a test server, as a live-service client makes them: the service
// tests check the wire format itself, so they do not use lib/x3d's client.
import fs from "node:fs";
import path from "node:path";
import { CLIENT_ID, CLIENT_SECRET } from "./server";

export const FIXTURES = path.resolve(import.meta.dirname, "../fixtures");

export interface Envelope<T = Record<string, unknown>> {
  code: number;
  data: T;
  msg: string;
  message?: string;
}

export function fixture(name: string): Blob {
  return new Blob([fs.readFileSync(path.join(FIXTURES, name))], { type: "image/png" });
}

export const basic = (id = CLIENT_ID, secret = CLIENT_SECRET) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

/**
 * Submits an image-to-3D task whose multipart body arrives slowly: the image in 8 pieces with
 * `pauseMs` before each part, so the upload spans several staging sweeps. The service's answer.
 */
export async function slowSubmit(base: string, token: string, pauseMs: number): Promise<Envelope<{ task_id: string }>> {
  const boundary = "slowupload0123456789";
  const image = fs.readFileSync(path.join(FIXTURES, "chair.png"));
  const parts = [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="chair.png"\r\nContent-Type: image/png\r\n\r\n`),
    ...Array.from({ length: 8 }, (_, i) => image.subarray((i * image.length) / 8, ((i + 1) * image.length) / 8)),
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nx3dv1.5\r\n--${boundary}\r\nContent-Disposition: form-data; name="resolution"\r\n\r\n512\r\n--${boundary}--\r\n`,
    ),
  ];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = parts.shift();
      if (!next) return controller.close();
      await new Promise((r) => setTimeout(r, pauseMs));
      controller.enqueue(new Uint8Array(next));
    },
  });
  const res = await fetch(`${base}/open-api/v1/submit-task`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: "half",
  } as RequestInit);
  return (await res.json()) as Envelope<{ task_id: string }>;
}

export class Api {
  private token?: string;
  constructor(readonly base: string) {}

  /** Uses a token obtained elsewhere (from another server of the same service, say). */
  withToken(token: string): this {
    this.token = token;
    return this;
  }

  async getToken(): Promise<string> {
    if (this.token) return this.token;
    const res = await fetch(`${this.base}/open-api/v1/auth/token`, {
      method: "POST",
      headers: { Authorization: basic(), "Content-Type": "application/json" },
    });
    const body = (await res.json()) as Envelope<{ accessToken: string }>;
    if (body.code !== 200) throw new Error(`token: ${JSON.stringify(body)}`);
    this.token = body.data.accessToken;
    return this.token;
  }

  /** POSTs a multipart form; values are strings or [Blob, filename]. */
  async post(route: string, fields: Record<string, string | [Blob, string] | [Blob, string][]>, scheme = "Bearer"): Promise<Envelope> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      const list = Array.isArray(value) && Array.isArray(value[0]) ? (value as [Blob, string][]) : [value];
      for (const v of list) {
        if (typeof v === "string") form.append(name, v);
        else form.append(name, (v as [Blob, string])[0], (v as [Blob, string])[1]);
      }
    }
    const res = await fetch(`${this.base}/open-api/v1/${route}`, {
      method: "POST",
      headers: { Authorization: `${scheme} ${await this.getToken()}` },
      body: form,
    });
    return (await res.json()) as Envelope;
  }

  async get(route: string, scheme = "Bearer"): Promise<Envelope> {
    const send = async () =>
      fetch(`${this.base}/open-api/v1/${route}`, {
        headers: { Authorization: `${scheme} ${await this.getToken()}` },
      });
    let res: Response;
    try {
      res = await send();
    } catch (error) {
      // A kept-alive connection the server closed as it was reused (after a refused upload whose
      // body it did not read, the server closes the connection): a GET is sent again, once.
      if ((error as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw error;
      res = await send();
    }
    return (await res.json()) as Envelope;
  }

  async balance(): Promise<number> {
    const body = await this.get("balance");
    return (body.data as { totalBalance: number }).totalBalance;
  }

  /** Polls a query endpoint until the task ends; returns the last envelope. */
  async waitFor(queryRoute: string, taskId: string, scheme = "Bearer", timeoutMs = 60_000): Promise<Envelope<Record<string, string>>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const body = (await this.get(`${queryRoute}?task_id=${encodeURIComponent(taskId)}`, scheme)) as Envelope<Record<string, string>>;
      if (body.code !== 200 || body.data.state === "success" || body.data.state === "failed") return body;
      if (Date.now() > deadline) throw new Error(`task ${taskId} still ${body.data.state}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
