import "server-only";
import NextAuth, { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { cookies, headers } from "next/headers";
import GitHub from "next-auth/providers/github";
import { z } from "zod";
import { serverEnv } from "@/lib/env";
import { authSecret } from "./auth-secret";
import { requestAddress } from "./client-address";
import { sameSiteRedirect } from "./safe-next";
import { revokeSession, SESSION_MAX_AGE_S, sessionHandle, startSession, tokenSessionActive } from "./sessions";
import { checkCredentials, userForGithub } from "./users";
import { log } from "@/lib/log";

/** A correct password for a disabled account: the sign-in form says so (app/(auth)/actions.ts). */
class AccountDisabled extends CredentialsSignin {
  code = "disabled";
}

declare module "next-auth" {
  interface Session {
    /** This browser's session, by its handle (lib/accounts/sessions.ts sessionHandle): the account page marks it. */
    sessionHandle?: string;
  }
}

/** The User-Agent of the request signing in (a server action or Auth.js's route), kept to name the session's device. */
async function signInUserAgent(): Promise<string | null> {
  try {
    return (await headers()).get("user-agent");
  } catch {
    return null; // outside a request
  }
}

/** Auth.js's session cookie, possibly chunked (`.0`, `.1`) and `__Secure-` prefixed behind HTTPS. */
const isSessionCookie = (name: string) => /^(__Secure-)?authjs\.session-token(\.\d+)?$/.test(name);

/**
 * This request's Auth.js session cookie(s) as one string, "" when there is none: the key
 * current-user.ts remembers auth()'s answer under. Here, beside Auth.js, because the cookie's
 * name is Auth.js's and this setup is the one module of lib that reads the request.
 */
export async function sessionCookieKey(): Promise<string> {
  return (await cookies())
    .getAll()
    .filter((c) => isSessionCookie(c.name))
    .map((c) => `${c.name}=${c.value}`)
    .join(";");
}

const credentials = z.object({ email: z.email(), password: z.string().min(1) });

export const githubEnabled = () => !!(serverEnv().AUTH_GITHUB_ID && serverEnv().AUTH_GITHUB_SECRET);

export const { handlers, auth, signIn, signOut } = NextAuth(() => ({
  secret: authSecret(),
  trustHost: true,
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
  pages: { signIn: "/sign-in" },
  // A wrong password is an expected outcome, answered in the form: not an error for the log.
  logger: {
    error(error) {
      if ((error as Error & { type?: string }).type !== "CredentialsSignin") log.error({ err: error }, "[auth] error");
    },
    warn(code) {
      log.warn(`[auth] ${code}`);
    },
    debug() {},
  },
  events: {
    // Signing out revokes the session, so a copy of the cookie stops working at once too.
    async signOut(message) {
      const sid = "token" in message ? message.token?.sid : undefined;
      if (typeof sid === "string") await revokeSession(sid);
    },
  },
  providers: [
    Credentials({
      credentials: { email: {}, password: {} },
      // Also reached by a POST to /api/auth/callback/credentials, past the sign-in page: the
      // slow-down lives here, keyed by the address stamped on the request (client-address.ts).
      async authorize(raw, request) {
        const parsed = credentials.safeParse(raw);
        if (!parsed.success) return null;
        const result = await checkCredentials(parsed.data.email, parsed.data.password, requestAddress(request.headers));
        // A refusal, slowed down or not, is a plain CredentialsSignin; the sign-in action asks the throttle how long to wait.
        if (!result.ok && result.disabled) throw new AccountDisabled();
        if (!result.ok) return null;
        return { id: result.user.id, email: result.user.email, name: result.user.name };
      },
    }),
    ...(githubEnabled() ? [GitHub({ clientId: serverEnv().AUTH_GITHUB_ID, clientSecret: serverEnv().AUTH_GITHUB_SECRET })] : []),
  ],
  callbacks: {
    // Runs at sign-in (with `user`) and on every auth() after: a sign-in starts a session row,
    // every later read needs that row unrevoked (lib/accounts/sessions.ts); null signs the cookie out.
    async jwt({ token, user, account, profile }) {
      if (account?.provider === "github" && profile) {
        const own = await userForGithub(String(profile.id), profile.email, profile.name as string | undefined);
        if (own.disabledAt) return null;
        token.sub = own.id;
        token.email = own.email;
        token.sid = await startSession(own.id, await signInUserAgent());
      } else if (user?.id) {
        token.sub = user.id;
        token.sid = await startSession(user.id, await signInUserAgent());
      } else if (!(await tokenSessionActive(token))) {
        return null;
      }
      return token;
    },
    // Every redirect Auth.js makes (redirectTo, its endpoints' callbackUrl) stays on this site.
    redirect({ url, baseUrl }) {
      return sameSiteRedirect(url, baseUrl);
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      if (typeof token.sid === "string") session.sessionHandle = sessionHandle(token.sid);
      return session;
    },
  },
}));
