import "server-only";
import { issueToken, parseBasic } from "../auth";
import { engine } from "../boot";
import { answer, fail, ok } from "../envelope";
import { engineOff } from "./common";

/** POST auth/token: Basic credentials in, a 24 h token out. The body is ignored (clients send none or `{}`). */
export async function handleToken(request: Request): Promise<Response> {
  const off = engineOff();
  if (off) return off;
  return answer(async () => {
    await engine();
    const pair = parseBasic(request.headers.get("authorization"));
    const token = pair && (await issueToken(pair.id, pair.secret));
    if (!token) return fail(40010000, undefined, { message: "client credentials are invalid" });
    const { accessToken, nonce } = token;
    return ok({ accessToken, tokenType: "Bearer", nonce }, { message: "success" });
  });
}
