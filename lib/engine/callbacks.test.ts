import { describe, expect, it } from "vitest";
import { deliveryTarget } from "./callbacks";

const app = { publicOrigin: "http://localhost:3000", webOrigin: "http://web:3000" };

describe("deliveryTarget", () => {
  it("on a worker, sends a callback addressed to the app itself to the web servers, path and query kept", () => {
    expect(deliveryTarget("http://localhost:3000/api/callbacks/t1/s3cr3t?x=1", app)).toEqual({
      url: "http://web:3000/api/callbacks/t1/s3cr3t?x=1",
      trustedOrigin: "http://web:3000",
    });
    expect(deliveryTarget("https://studio.example.com/api/callbacks/t1/s", { ...app, publicOrigin: "https://studio.example.com" })).toEqual(
      { url: "http://web:3000/api/callbacks/t1/s", trustedOrigin: "http://web:3000" },
    );
  });

  it("leaves every other callback as its client gave it, without trust", () => {
    for (const url of [
      "https://hooks.example.com/x3d",
      "http://localhost:3001/api/callbacks/t1/s",
      "https://localhost:3000/api/callbacks/t1/s",
    ])
      expect(deliveryTarget(url, app)).toEqual({ url });
    expect(deliveryTarget("not a url", app)).toEqual({ url: "not a url" });
  });

  it("elsewhere than on a worker changes nothing", () => {
    expect(deliveryTarget("http://localhost:3000/api/callbacks/t1/s", { ...app, webOrigin: null })).toEqual({
      url: "http://localhost:3000/api/callbacks/t1/s",
    });
  });
});
