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
    const res = await fetch(`${this.base}/open-api/v1/${route}`, {
      headers: { Authorization: `${scheme} ${await this.getToken()}` },
    });
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
