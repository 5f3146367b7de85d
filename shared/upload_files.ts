// The file names an upload may have; the server also checks the bytes.

/** For the file picker's accept attribute and the error message. */
export const ACCEPTED_EXTENSIONS = [
  ".csv",
  ".tsv",
  ".txt",
  ".csv.gz",
  ".tsv.gz",
  ".zip",
  ".xlsx",
];
