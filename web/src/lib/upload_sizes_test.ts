import assert from "node:assert/strict";
import { uploadSizeStory } from "./upload_sizes.ts";

Deno.test("upload sizes: one story from the server's settings", () => {
  const story = uploadSizeStory({ maxUploadMb: 10, maxUncompressedMb: 500 });
  assert.equal(story.limit, "Maximum file size: 10MB");
  assert.equal(
    story.rows,
    "A 10MB CSV holds about 200,000 IP addresses; a compressed (.csv.gz, .zip) or Excel file of 10MB may hold up to 500MB of rows, about 10 million IP addresses.",
  );
  assert.equal(story.mostRows, "up to about 10 million IP addresses");
  const small = uploadSizeStory({ maxUploadMb: 1, maxUncompressedMb: 2.5 });
  assert.match(small.rows, /about 20,000 IP addresses; .* about 50,000 IP/);
  assert.equal(
    uploadSizeStory({ maxUploadMb: 3, maxUncompressedMb: 75 }).mostRows,
    "up to about 1.5 million IP addresses",
  );
});
