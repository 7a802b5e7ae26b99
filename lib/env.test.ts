import { describe, expect, it } from "vitest";
import { parseServerEnv } from "./env";

const PG = "postgres://x3d:x3d@db:5432/x3d";

describe("parseServerEnv: X3D_ROLE", () => {
  it("is all unless set, and needs nothing more then", () => {
    expect(parseServerEnv({}).X3D_ROLE).toBe("all");
    expect(parseServerEnv({ X3D_ROLE: "all" }).X3D_ROLE).toBe("all");
  });

  it("refuses a role it does not know, naming the three", () => {
    expect(() => parseServerEnv({ X3D_ROLE: "workers", DATABASE_URL: PG })).toThrow("X3D_ROLE: must be all, web or worker");
  });

  it("web and worker need DATABASE_URL: the embedded database is one process's", () => {
    expect(() => parseServerEnv({ X3D_ROLE: "web" })).toThrow(/X3D_ROLE: X3D_ROLE=web needs DATABASE_URL/);
    expect(() => parseServerEnv({ X3D_ROLE: "worker", X3D_WEB_URL: "http://web:3000" })).toThrow(
      /X3D_ROLE: X3D_ROLE=worker needs DATABASE_URL/,
    );
    expect(parseServerEnv({ X3D_ROLE: "web", DATABASE_URL: PG }).X3D_ROLE).toBe("web");
  });

  it("a worker needs to know where the web servers are, unless it talks to a live service", () => {
    expect(() => parseServerEnv({ X3D_ROLE: "worker", DATABASE_URL: PG })).toThrow(
      /X3D_WEB_URL: a worker needs X3D_WEB_URL \(or APP_URL\)/,
    );
    expect(parseServerEnv({ X3D_ROLE: "worker", DATABASE_URL: PG, X3D_WEB_URL: "http://web:3000" }).X3D_WEB_URL).toBe("http://web:3000");
    expect(parseServerEnv({ X3D_ROLE: "worker", DATABASE_URL: PG, APP_URL: "https://studio.example.com" }).X3D_ROLE).toBe("worker");
    const live = { X3D_ROLE: "worker", DATABASE_URL: PG, X3D_BASE_URL: "https://api.example.com", X3D_ENGINE: "off" };
    expect(parseServerEnv(live).X3D_ROLE).toBe("worker");
    expect(() => parseServerEnv({ X3D_ROLE: "worker", DATABASE_URL: PG, X3D_WEB_URL: "web:3000" })).toThrow(
      "X3D_WEB_URL: must be an http:// or https:// URL",
    );
  });

  it("names every bad variable at once", () => {
    expect(() => parseServerEnv({ X3D_ROLE: "web", PORT: "-1" })).toThrow(/PORT:[^]*X3D_ROLE: X3D_ROLE=web needs DATABASE_URL/);
  });
});
