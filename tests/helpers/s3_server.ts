// An S3-compatible server on loopback for tests: npm:s3rver (installed with
// the project's npm packages) run in this process, storing into a temp dir,
// with one empty bucket. Its credentials are s3rver's fixed S3RVER/S3RVER.
import S3rver from "s3rver";

/** A Koa middleware, as much of it as this file uses. */
type Middleware = (
  ctx: { method: string; status: number; type: string; body: unknown },
  next: () => Promise<void>,
) => Promise<void>;

export interface TestS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* environment a server process would be given. */
  env: Record<string, string>;
  /**
   * While on, refuses writes as MinIO does when its disk is full (HTTP 507,
   * XMinioStorageFull). s3rver itself, on a disk that fills, reports a
   * truncated object as stored and then crashes its process.
   */
  setFull(on: boolean): void;
  /** Stops serving (an outage); resume() serves the same objects again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** `storeIn`: where it stores (a temp dir of its own by default). */
export async function startS3(
  bucket = "test-blobs",
  storeIn?: string,
): Promise<TestS3> {
  const directory = storeIn ??
    await Deno.makeTempDir({ prefix: "s3-test-" });
  let full = false;
  const serve = (port: number) => {
    const server = new S3rver({
      address: "127.0.0.1",
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    // s3rver is a Koa app: this runs before its routes.
    (server as unknown as { middleware: Middleware[] }).middleware.unshift(
      async (ctx, next) => {
        if (!full || (ctx.method !== "PUT" && ctx.method !== "POST")) {
          return await next();
        }
        ctx.status = 507;
        ctx.type = "application/xml";
        ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Error>' +
          "<Code>XMinioStorageFull</Code><Message>Storage backend has " +
          "reached its minimum free drive threshold. Please delete a few " +
          "objects to proceed.</Message></Error>";
      },
    );
    return server;
  };
  let server = serve(0);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = {
    endpoint,
    bucket,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  };
  return {
    ...settings,
    env: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: settings.region,
      S3_ACCESS_KEY_ID: settings.accessKeyId,
      S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
    },
    setFull(on: boolean) {
      full = on;
    },
    async pause() {
      await server.close();
    },
    async resume() {
      server = serve(port);
      await server.run();
    },
    async stop() {
      await server.close();
      if (!storeIn) await Deno.remove(directory, { recursive: true });
    },
  };
}
