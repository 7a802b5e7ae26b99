// Callback receivers on loopback for the service tests.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Hit {
  at: number;
  body: { code: number; data: Record<string, string>; msg: string };
}

const open: http.Server[] = [];

/** A receiver answering `status`, or never ("hang"), or after `delayMs` ({ status, delayMs }). */
export async function receiver(answer: number | "hang" | { status: number; delayMs: number }): Promise<{ url: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c: Buffer) => (data += c.toString()));
    req.on("end", () => {
      hits.push({ at: Date.now(), body: (data ? JSON.parse(data) : {}) as Hit["body"] });
      if (answer === "hang") return;
      if (typeof answer === "number") res.writeHead(answer).end();
      else setTimeout(() => res.writeHead(answer.status).end(), answer.delayMs);
    });
  });
  open.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, hits };
}

/** Closes every receiver this file opened (hanging requests included). */
export function closeReceivers(): void {
  for (const server of open.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
}
