// The S3 side of `npm run restore`: with X3D_STORAGE the archive holds no file bytes, only each
// stored file's key, size and ETag (files-manifest.jsonl); the restore checks that the bucket
// still has them.

/** `s3://bucket/some/prefix` as its bucket and prefix (lib/files/store/s3.ts parseS3Url). */
export function parseS3Url(url) {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!match) throw new Error(`X3D_STORAGE must be s3://<bucket>/<prefix>, not ${url}`);
  return { bucket: match[1], prefix: match[2].replace(/^\/+|\/+$/g, "") };
}

/** The keys of files-manifest.jsonl (one {key, size, etag} a line). */
export function manifestFiles(text) {
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/**
 * The listed files the bucket does not have as listed (absent, or of another size), HEAD-checked
 * a few at a time: [{key, why}].
 */
export async function missingObjects(files, storage, { forcePathStyle }) {
  const { HeadObjectCommand, S3Client } = await import("@aws-sdk/client-s3");
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const client = new S3Client({ forcePathStyle, requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" });
  const { bucket, prefix } = parseS3Url(storage);
  const missing = [];
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: prefix ? `${prefix}/${file.key}` : file.key }));
        if ((head.ContentLength ?? 0) !== file.size) missing.push({ key: file.key, why: `${head.ContentLength} bytes, not ${file.size}` });
      } catch (error) {
        if (error?.$metadata?.httpStatusCode === 404 || error?.name === "NotFound")
          missing.push({ key: file.key, why: "not in the bucket" });
        else throw new Error(`checking ${file.key} in ${storage} failed: ${error.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  client.destroy();
  return missing.sort((a, b) => a.key.localeCompare(b.key));
}
