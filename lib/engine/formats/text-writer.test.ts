import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { crc32, fmt } from "./common";
import { TextWriter, literal } from "./text-writer";
import { ZipEntryWriter, zipEntries, zipEntry } from "./zip-deflate";

const decode = (chunks: Uint8Array[]): string => new TextDecoder().decode(Buffer.concat(chunks));

describe("TextWriter", () => {
  it("prints numbers exactly like fmt(), integers, literals and UTF-8 across tiny chunks", () => {
    const values = [
      0,
      -0,
      1,
      -1,
      0.5,
      1e-7,
      -1e-7,
      5e-7,
      -5e-7,
      1e-6,
      123456.789012345,
      -98765.4321,
      NaN,
      Infinity,
      -Infinity,
      1e12,
      2e16,
      0.1,
      0.3,
      999999.9999996,
    ];
    let seed = 7;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let i = 0; i < 20000; i++) values.push((rand() - 0.5) * 10 ** (rand() * 12 - 6));
    for (let i = 0; i < 1000; i++) values.push(Math.fround(rand() * 200 - 100));
    const w = new TextWriter(undefined, 16);
    for (const v of values) w.num(v).ch(10);
    w.int(0)
      .ch(10)
      .int(-42)
      .ch(10)
      .int(2 ** 31)
      .ch(10)
      .int(1234567890123)
      .ch(10);
    w.intRepeat(1234, 47, 3).ch(32).intRepeat(7, 47, 1).ch(10);
    w.bytes(literal('<vertex x="')).str("héllo €, 名前").ch(10);
    const expected = values.map(fmt).join("\n") + '\n0\n-42\n2147483648\n1234567890123\n1234/1234/1234 7\n<vertex x="héllo €, 名前\n';
    const chunks = w.finish();
    expect(chunks.length).toBeGreaterThan(100);
    expect(decode(chunks)).toBe(expected);
    expect(w.length).toBe(Buffer.byteLength(expected));
  });

  it("hands full chunks to the sink and reuses its buffer", () => {
    const seen: string[] = [];
    const w = new TextWriter((c) => seen.push(new TextDecoder().decode(c)), 8);
    for (let i = 0; i < 100; i++) w.int(i).ch(32);
    expect(w.finish()).toEqual([]);
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.join("")).toBe(Array.from({ length: 100 }, (_, i) => `${i} `).join(""));
  });
});

describe("zip-deflate", () => {
  it("writes entries deflated chunk by chunk and stored, readable by fflate with matching CRCs", () => {
    const text = Array.from({ length: 50000 }, (_, i) => `f ${i}/${i}/${i} ${i + 1}/${i + 1}/${i + 1}\n`).join("");
    const big = new ZipEntryWriter("model.obj", true);
    const bytes = new TextEncoder().encode(text);
    for (let o = 0; o < bytes.length; o += 65537) big.write(bytes.subarray(o, o + 65537));
    big.close();
    const png = new Uint8Array(1000).map((_, i) => (i * 31) & 255);
    const zip = zipEntries([
      big,
      zipEntry("model.mtl", "newmtl a\n", true),
      zipEntry("texture_0.png", png, false),
      zipEntry("empty.txt", "", true),
    ]);
    expect(big.compressedSize).toBeLessThan(bytes.length / 3);
    const files = unzipSync(zip);
    expect(Object.keys(files)).toEqual(["model.obj", "model.mtl", "texture_0.png", "empty.txt"]);
    expect(new TextDecoder().decode(files["model.obj"])).toBe(text);
    expect(new TextDecoder().decode(files["model.mtl"])).toBe("newmtl a\n");
    expect(Array.from(files["texture_0.png"]!)).toEqual(Array.from(png));
    expect(files["empty.txt"]).toHaveLength(0);
    // CRC of the whole text, chained over the chunks, in the first local header.
    expect(new DataView(zip.buffer, zip.byteOffset).getUint32(14, true)).toBe(crc32(bytes));
    // The PNG is stored (method 0): its bytes appear verbatim in the archive.
    expect(Buffer.from(zip).indexOf(Buffer.from(png))).toBeGreaterThan(0);
  });
});
