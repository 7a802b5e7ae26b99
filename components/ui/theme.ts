/** The artist's theme choice: follow the system, or one of the two themes. */
export type ThemeChoice = "system" | "light" | "dark";

/** The cookie that keeps the choice, so the server renders <html> with it (no flash of the other theme). */
export const THEME_COOKIE = "x3d-theme";

/** Reads a stored choice; anything else is "system". */
export function parseTheme(value: string | undefined): ThemeChoice {
  return value === "light" || value === "dark" ? value : "system";
}

/** The class <html> carries for a choice ("system" leaves it to prefers-color-scheme). */
export function themeClass(choice: ThemeChoice): string | undefined {
  return choice === "system" ? undefined : choice;
}
