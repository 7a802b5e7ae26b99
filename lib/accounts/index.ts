/**
 * Accounts: sign-in (Auth.js), who is signed in, roles, users, passwords, sessions and their
 * devices, the sign-in throttle. The one way in for app/ and components/: only what they use is
 * exported here. Client components take types only (`import type`): everything behind this file
 * runs on the server. lib/ modules outside this folder import the module they need instead,
 * never this file, which loads Auth.js (it loads only inside Next.js, not in lib's tests).
 */
import "server-only";

export { githubEnabled, handlers, signIn, signOut } from "./authjs";
export { changePassword, type ChangePasswordState, type PasswordField } from "./change-password";
export { requestAddress } from "./client-address";
export { currentAdmin, currentSessionHandle, currentUser, type SessionUser } from "./current-user";
export { deviceKind, deviceName } from "./device";
export { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from "./password-rules";
export { isAdmin } from "./roles";
export { safeNext } from "./safe-next";
export { listSessions, revokeAllSessions, revokeUserSession } from "./sessions";
export { createUser, findUserById, recordSignUp, setDisabled, signInWait, signUpWait } from "./users";
