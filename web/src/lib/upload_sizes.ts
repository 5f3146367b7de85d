// The one story the app tells about upload sizes, from the server's
// settings (GET /api/config): the limit on what is sent, what a compressed
// or Excel file may hold, and roughly how many addresses each means.
import { formatCount } from "./format.ts";

/** Bytes of a CSV row like the example (address, id, timestamp): ~50. */
const ROWS_PER_MB = 20_000;

export interface UploadSizes {
  maxUploadMb: number;
  maxUncompressedMb: number;
}

/** "200,000"; "10 million" from a million up. */
function roughRows(mb: number): string {
  const rows = mb * ROWS_PER_MB;
  if (rows >= 1_000_000) {
    const millions = rows / 1_000_000;
    return `${
      Number.isInteger(millions) ? millions : millions.toFixed(1)
    } million`;
  }
  return formatCount(Math.round(rows));
}

/** The size sentences, in the order the upload card shows them. */
export function uploadSizeStory(
  { maxUploadMb, maxUncompressedMb }: UploadSizes,
) {
  return {
    /** "Maximum file size: 10MB" */
    limit: `Maximum file size: ${maxUploadMb}MB`,
    /** What the limit means in addresses, plain and compressed. */
    rows: `A ${maxUploadMb}MB CSV holds about ${
      roughRows(maxUploadMb)
    } IP addresses; a compressed (.csv.gz, .zip) or Excel file of ${maxUploadMb}MB may hold up to ${maxUncompressedMb}MB of rows, about ${
      roughRows(maxUncompressedMb)
    } IP addresses.`,
    /** The most addresses one file can bring, for the Bulk Processing text. */
    mostRows: `up to about ${roughRows(maxUncompressedMb)} IP addresses`,
  };
}
