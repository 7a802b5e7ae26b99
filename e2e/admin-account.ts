/** The browser tests' admin (ADMIN_EMAILS of both test servers); every other account is an artist. */
export const ADMIN_EMAIL = "admin@e2e.example.com";
