// The studio as a signed-in user sees it over HTTP: accounts planted in the database (the
// sign-up form is a server action), signed in through Auth.js's own endpoint, and studio
// tasks planted as the create actions record them, pointing at real tasks of the embedded
// service, so the studio's refresh copies real files.
import crypto from "node:crypto";
import type { Query } from "./db";
import type { TestServer } from "./server";
import { signIn as signInForCookie } from "./studio";

/** The stored form lib/accounts/password-hash.ts writes (scrypt$N$r$p$salt$hash). */
function scryptHash(password: string): string {
  const salt = crypto.randomBytes(16);
  const hash = crypto.scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1 });
  return ["scrypt", 16384, 8, 1, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

const PASSWORD = "kiln-umber-vellum-42";

/** Inserts an account that signs in with PASSWORD; returns its id. */
export async function plantAccount(q: Query, email: string): Promise<string> {
  const id = crypto.randomUUID();
  await q("insert into users (id, email, password_hash) values ($1, $2, $3)", [id, email, scryptHash(PASSWORD)]);
  return id;
}

export interface PlantedTask {
  id: string;
  userId: string;
  kind?: string;
  serviceTaskId: string | null;
  state: string;
  inputs?: Record<string, unknown>;
}

/** Inserts a studio task with a callback secret; returns the secret (its callback is /api/callbacks/<id>/<secret>). */
export async function plantTask(q: Query, task: PlantedTask): Promise<string> {
  const secret = crypto.randomBytes(16).toString("hex");
  await q(
    `insert into studio_tasks (id, user_id, kind, service_task_id, options, inputs, state, cost, state_times, callback_secret_hash)
     values ($1, $2, $3, $4, '{"model":"x3dv1.5"}', $5, $6, 5, $7, $8)`,
    [
      task.id,
      task.userId,
      task.kind ?? "image-to-3d",
      task.serviceTaskId,
      JSON.stringify(task.inputs ?? {}),
      task.state,
      JSON.stringify({ [task.state]: new Date().toISOString() }),
      crypto.createHash("sha256").update(secret).digest("hex"),
    ],
  );
  return secret;
}

/** A signed-in browser: its cookie, and fetch with it and the studio's own Origin. */
export interface Session {
  fetch: (path: string, init?: RequestInit) => Promise<Response>;
}

/** Signs in through /api/auth/callback/credentials (harness/studio.ts); throws when no session cookie came back. */
export async function signIn(server: TestServer, email: string, password = PASSWORD): Promise<Session> {
  const session = await signInForCookie(server.url, email, password);
  if (!session) throw new Error(`signing in as ${email} failed`);
  return {
    fetch: (path, init = {}) =>
      fetch(`${server.url}${path}`, {
        redirect: "manual",
        ...init,
        headers: { cookie: session, origin: new URL(server.url).origin, ...(init.headers as Record<string, string> | undefined) },
      }),
  };
}
