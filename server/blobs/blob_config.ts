// Chooses the BlobStore from the environment: S3-compatible storage when any
// S3_* setting is present (then all required ones must be), otherwise the
// local directory DATA_DIR/uploads.
import type { BlobStore } from "./blob_store.ts";
import { LocalBlobStore } from "./local_blobs.ts";
import { S3BlobStore, type S3Settings } from "./s3_blobs.ts";

export type BlobConfig =
  | { kind: "local"; dir: string }
  | ({ kind: "s3" } & S3Settings);

const S3_VARIABLES = [
  "S3_ENDPOINT",
  "S3_BUCKET",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
] as const;

/** Required when S3 is chosen; S3_REGION defaults to us-east-1. */
const S3_REQUIRED = S3_VARIABLES.filter((name) => name !== "S3_REGION");

export class BlobConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlobConfigError";
  }
}

export function blobConfigFromEnv(
  env: Record<string, string | undefined>,
  dataDir: string,
): BlobConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  if (!S3_VARIABLES.some((name) => value(name))) {
    return { kind: "local", dir: `${dataDir.replace(/\/+$/, "")}/uploads` };
  }
  const missing = S3_REQUIRED.filter((name) => !value(name));
  if (missing.length > 0) {
    const given = S3_VARIABLES.filter((name) => value(name));
    throw new BlobConfigError(
      `S3 storage needs ${missing.join(", ")} (${given.join(", ")} ${
        given.length === 1 ? "is" : "are"
      } set); unset every S3_* variable to keep uploads in the data directory`,
    );
  }
  const endpoint = value("S3_ENDPOINT")!;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new BlobConfigError(
      `S3_ENDPOINT "${endpoint}" is not a URL (e.g. https://s3.eu-central-1.amazonaws.com)`,
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new BlobConfigError(`S3_ENDPOINT must be http:// or https://`);
  }
  if (url.search || url.hash) {
    throw new BlobConfigError(`S3_ENDPOINT must not have a query or fragment`);
  }
  const bucket = value("S3_BUCKET")!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new BlobConfigError(
      `S3_BUCKET "${bucket}" is not a bucket name (3-63 of a-z, 0-9, ".", "-")`,
    );
  }
  return {
    kind: "s3",
    endpoint: url.href.replace(/\/+$/, ""),
    bucket,
    region: value("S3_REGION") ?? "us-east-1",
    accessKeyId: value("S3_ACCESS_KEY_ID")!,
    secretAccessKey: value("S3_SECRET_ACCESS_KEY")!,
  };
}

export function openBlobStore(config: BlobConfig): BlobStore {
  if (config.kind === "local") return new LocalBlobStore(config.dir);
  const { kind: _, ...settings } = config;
  return new S3BlobStore(settings);
}
