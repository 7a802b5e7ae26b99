import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * The text of `file`, which `make()` fills the first time. Several servers share a DATA_DIR
 * and start together: the file is written under a temporary name and hard-linked into
 * place, which fails if another process got there first, so it appears whole or not at
 * all. (Created with O_EXCL and then written, a reader could find it empty in between,
 * and a crash in between left it empty for good.)
 */
export function readOrCreateFile(file: string, make: () => string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(temp, make(), { mode: 0o600 });
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    // EEXIST: another process won, and its file is whole. Anything else: a file system
    // without hard links, where an exclusive create (whole but for that instant) is the best there is.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      try {
        fs.copyFileSync(temp, file, fs.constants.COPYFILE_EXCL);
      } catch (copyError) {
        if ((copyError as NodeJS.ErrnoException).code !== "EEXIST") throw copyError;
      }
    }
  } finally {
    fs.rmSync(temp, { force: true });
  }
  return fs.readFileSync(file, "utf8");
}
