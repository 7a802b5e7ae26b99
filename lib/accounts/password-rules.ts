import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/**
 * What a new password must be: long enough, and not easy to guess as zxcvbn estimates it
 * (common passwords, names, words, keyboard runs, dates, l33t spellings of them, and the
 * user's own e-mail or name), rather than a home-made list.
 */
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;
/** zxcvbn's score from 0 to 4; 3 is at least 10^8 guesses ("safely unguessable" online). */
const MIN_PASSWORD_SCORE = 3;

let estimator: Promise<ZxcvbnFactory> | undefined;

/** The dictionaries are a few MB: loaded on the first check, not with every page. */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    });
  })();
  estimator.catch(() => (estimator = undefined));
  return estimator;
}

/**
 * Why `password` may not be used, naming the rule; null when it may. `personal` is what a
 * guesser knows about the user (e-mail, name): a password built on it is refused too.
 */
export async function passwordProblem(password: string, personal: readonly string[] = []): Promise<string | null> {
  const length = Array.from(password).length;
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const inputs = personal.flatMap((p) => [p, ...p.split(/[@.\s_+-]+/)]).filter((p) => p.length >= 3);
  const result = (await loadEstimator()).check(password, inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const why = result.feedback.warning ? ` ${result.feedback.warning}` : "";
  return `This password is too easy to guess.${why} Use one that is not common and not built on your name or e-mail, e.g. a few unrelated words.`;
}
