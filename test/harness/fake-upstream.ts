// A stand-in for the live x3d service that misbehaves on demand, for the studio's tests of
// upstream faults: it issues tokens, takes submits (charging, as the service does), answers
// queries and the balance, and keeps the callbacks it would send so a test can deliver or drop
// them. Each fault applies to the next requests of one endpoint.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * ok: a proper answer. hang: the task is made (and charged), the answer never comes.
 * garbage: made, then an HTML 200. bad-gateway: made, then an HTML 502. system-error: the
 * service's own 10000000 envelope, nothing made. expire-token: a 401 for the token in use
 * once (the client should renew it and retry). unknown: queries answer 10030010.
 */
type Fault = "ok" | "hang" | "garbage" | "bad-gateway" | "system-error" | "expire-token" | "unknown";

interface FakeTask {
  id: string;
  state: "queueing" | "processing" | "success" | "failed";
  callbackUrl: string | null;
}

export interface FakeUpstream {
  url: string;
  balance: number;
  /** Cost charged per submit. */
  cost: number;
  tasks: Map<string, FakeTask>;
  /** Every submit request that reached the service, made or not. */
  submits: number;
  faults: { submit: Fault; query: Fault; token: Fault; balance: Fault };
  /** The callback the service would send for a task now (the query's envelope). */
  callbackFor(id: string): { url: string; body: unknown };
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
const ok = (data: unknown) => ({ code: 200, msg: "success", data });

export async function fakeUpstream(): Promise<FakeUpstream> {
  const tokens = new Set<string>();
  const hanging: http.ServerResponse[] = [];
  const fake: FakeUpstream = {
    url: "",
    balance: 1000,
    cost: 15,
    tasks: new Map(),
    submits: 0,
    faults: { submit: "ok", query: "ok", token: "ok", balance: "ok" },
    callbackFor(id) {
      const task = fake.tasks.get(id);
      if (!task?.callbackUrl) throw new Error(`no callback for ${id}`);
      const body =
        task.state === "failed"
          ? { code: 50010001, msg: "generation failed", data: null }
          : ok({ task_id: id, state: task.state, cover_url: "", url: "" });
      return { url: task.callbackUrl, body };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  /** A fault's answer after the work is done; true when it answered. */
  function misbehave(fault: Fault, res: http.ServerResponse): boolean {
    if (fault === "hang") return hanging.push(res) > 0;
    if (fault === "garbage") return !!res.writeHead(200, { "Content-Type": "text/html" }).end("<html><body>Welcome</body></html>");
    if (fault === "bad-gateway") return !!res.writeHead(502, { "Content-Type": "text/html" }).end("<html>502 Bad Gateway</html>");
    return false;
  }

  function authorized(req: http.IncomingMessage, res: http.ServerResponse, endpoint: keyof FakeUpstream["faults"]): boolean {
    const token = (req.headers.authorization ?? "").replace(/^(Bearer|Token) /, "");
    if (fake.faults[endpoint] === "expire-token" && tokens.has(token)) {
      tokens.delete(token); // this token has expired; a new one works
      fake.faults[endpoint] = "ok";
    }
    if (tokens.has(token)) return true;
    json(res, 401, { code: 401, msg: "Unauthorized", data: null });
    return false;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://fake");
        const route = url.pathname.replace(/^\/open-api\/v1\//, "");
        if (route === "auth/token") {
          if (fake.faults.token === "system-error") return json(res, 200, { code: 10000000, msg: "system error", data: null });
          const token = crypto.randomBytes(12).toString("hex");
          tokens.add(token);
          return json(res, 200, { ...ok({ accessToken: token, tokenType: "Bearer", nonce: "n" }), message: "success" });
        }
        if (route === "submit-task") {
          fake.submits++;
          if (!authorized(req, res, "submit")) return;
          if (fake.faults.submit === "system-error") return json(res, 500, { code: 10000000, msg: "system error", data: null });
          if (fake.balance < fake.cost) return json(res, 200, { code: 30010000, msg: "balance is not enough", data: null });
          const form = await new Response(Buffer.concat(chunks), {
            headers: { "Content-Type": req.headers["content-type"] ?? "" },
          }).formData();
          const id = `fake-${crypto.randomBytes(6).toString("hex")}`;
          const callback = form.get("callback_url");
          fake.tasks.set(id, { id, state: "queueing", callbackUrl: typeof callback === "string" ? callback : null });
          fake.balance -= fake.cost;
          if (misbehave(fake.faults.submit, res)) return;
          return json(res, 200, ok({ task_id: id }));
        }
        if (route === "query-task") {
          if (!authorized(req, res, "query")) return;
          const task = fake.tasks.get(url.searchParams.get("task_id") ?? "");
          if (fake.faults.query === "unknown" || !task) return json(res, 200, { code: 10030010, msg: "task not found", data: null });
          if (misbehave(fake.faults.query, res)) return;
          if (task.state === "failed") return json(res, 200, { code: 50010001, msg: "generation failed", data: null });
          return json(res, 200, ok({ task_id: task.id, state: task.state, cover_url: "", url: "" }));
        }
        if (route === "balance") {
          if (!authorized(req, res, "balance")) return;
          if (misbehave(fake.faults.balance, res)) return;
          return json(res, 200, ok({ totalBalance: fake.balance }));
        }
        json(res, 404, { code: 404, msg: "not found", data: null });
      })().catch((e: unknown) => res.writeHead(500).end(String(e)));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
