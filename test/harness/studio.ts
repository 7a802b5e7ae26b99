// The studio as a browser drives it, over plain HTTP: sign-up and task creation through their
// server actions (called as React's client calls them), sign-in through Auth.js's endpoint,
// uploads and polls through the route handlers, with the session cookie.
import fs from "node:fs";
import path from "node:path";
import { FIXTURES } from "./api";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The id the build gave a server action, by its exported name. */
function actionId(name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string }>;
  };
  const found = Object.entries(manifest.node).find(([, action]) => action.exportedName === name);
  if (!found) throw new Error(`no server action ${name} in the build`);
  return found[0];
}

const sessionCookie = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0] ?? "")
    .find((c) => /^(__Secure-)?authjs\.session-token=./.test(c));

/**
 * Calls a `(previousState, formData)` server action as useActionState's client does: the form's
 * fields as part 1 (React's reply encoding, "_1_<name>"), the arguments as part 0, last.
 */
async function callAction(base: string, page: string, name: string, fields: Record<string, string>, cookie?: string): Promise<Response> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(`_1_${key}`, value);
  form.append("0", JSON.stringify([{ status: "idle" }, "$K1"]));
  const origin = new URL(base).origin;
  return fetch(`${base}${page}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Next-Action": actionId(name), Accept: "text/x-component", Origin: origin, ...(cookie ? { cookie } : {}) },
    body: form,
  });
}

/** Makes an account through the sign-up form's action; its session cookie ("name=value"). */
export async function signUp(base: string, email: string, password: string): Promise<string> {
  const res = await callAction(base, "/sign-up", "signUpAction", { email, password, name: "Ops Tester" });
  const text = await res.text();
  const cookie = sessionCookie(res);
  if (!cookie) throw new Error(`sign-up gave no session (HTTP ${res.status}): ${text.slice(0, 300)}`);
  return cookie;
}

/** Signs in through /api/auth/callback/credentials; the session cookie, or undefined when refused. */
export async function signIn(base: string, email: string, password: string): Promise<string | undefined> {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: new URL(base).origin },
    body: new URLSearchParams({ email, password, csrfToken }),
  });
  await res.arrayBuffer();
  return sessionCookie(res);
}

/** Uploads a fixture image through POST /api/uploads; its upload id and size. */
export async function uploadImage(base: string, cookie: string, name = "chair.png"): Promise<{ id: string; size: number }> {
  const form = new FormData();
  form.append("file", new Blob([fs.readFileSync(path.join(FIXTURES, name))], { type: "image/png" }), name);
  const res = await fetch(`${base}/api/uploads?kind=image`, {
    method: "POST",
    headers: { cookie, origin: new URL(base).origin },
    body: form,
  });
  const body = (await res.json()) as { id: string; size: number };
  if (res.status !== 201) throw new Error(`upload: HTTP ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** The create form of each studio task kind: its workspace page and its server action. */
const CREATE_ACTIONS = {
  image: "createImageTaskAction",
  texture: "createTextureTaskAction",
  split: "createSplitTaskAction",
  depth: "createDepthTaskAction",
  segmentation: "createSegmentationTaskAction",
} as const;

/** Creates a task of `kind` through its form's action (/new/<kind>); the studio task id it answered (the page stays). */
export async function createTask(
  base: string,
  cookie: string,
  kind: keyof typeof CREATE_ACTIONS,
  fields: Record<string, string>,
): Promise<string> {
  const res = await callAction(base, `/new/${kind}`, CREATE_ACTIONS[kind], fields, cookie);
  const text = await res.text();
  // The answer is React's flight format: the action's value, {"status":"created","id":...,"task":{...}}, is one of its rows.
  const id = /"status":"created","id":"([^"]+)"/.exec(text)?.[1];
  if (!id) throw new Error(`creating the ${kind} task did not answer its id (HTTP ${res.status}): ${text.slice(0, 300)}`);
  return id;
}

/** Creates an image-to-3D task through the form's action; the studio task id it answered (the page stays). */
export async function createImageTask(base: string, cookie: string, uploadId: string, options: Record<string, string>): Promise<string> {
  return createTask(base, cookie, "image", { images: uploadId, ...options });
}

/** Calls a form's `(previousState, formData)` server action on `page` (an admin's, say); React's answer as text. */
export async function formAction(
  base: string,
  cookie: string,
  page: string,
  name: string,
  fields: Record<string, string>,
): Promise<string> {
  const res = await callAction(base, page, name, fields, cookie);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return text;
}

/** Shares one of the user's finished tasks through the task page's action; the share link's path (/share/<token>). */
export async function shareTask(base: string, cookie: string, taskId: string): Promise<string> {
  // An action of plain arguments: React sends them as a JSON array.
  const res = await fetch(`${base}/tasks/${taskId}`, {
    method: "POST",
    headers: { "Next-Action": actionId("createShareAction"), Accept: "text/x-component", Origin: new URL(base).origin, cookie },
    body: JSON.stringify([taskId]),
  });
  const text = await res.text();
  const link = /"status":"ok","path":"(\/share\/[^"]+)"/.exec(text)?.[1];
  if (!link) throw new Error(`sharing ${taskId} gave no link (HTTP ${res.status}): ${text.slice(0, 300)}`);
  return link;
}
