// Stands in for "server-only" under vitest, which runs outside React's server runtime.
export {};
