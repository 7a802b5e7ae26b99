export type AuthFormState = { status: "idle" } | { status: "error"; email: string; message?: string; fields?: Record<string, string> };
