// An S3-compatible server on loopback for tests: npm:s3rver (installed with
// the project's npm packages) run in this process, storing into a temp dir,
// with one empty bucket. Its credentials are s3rver's fixed S3RVER/S3RVER.
import S3rver from "s3rver";

export interface TestS3 {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The S3_* environment a server process would be given. */
  env: Record<string, string>;
  /** Stops serving (an outage); resume() serves the same objects again. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export async function startS3(bucket = "test-blobs"): Promise<TestS3> {
  const directory = await Deno.makeTempDir({ prefix: "s3-test-" });
  const serve = (port: number) =>
    new S3rver({
      address: "127.0.0.1",
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket, configs: [] }],
    });
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
    async pause() {
      await server.close();
    },
    async resume() {
      server = serve(port);
      await server.run();
    },
    async stop() {
      await server.close();
      await Deno.remove(directory, { recursive: true });
    },
  };
}
