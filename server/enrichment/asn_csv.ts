// The fast path for ip-location-db ASN CSVs: rows read straight from the
// file's bytes in the common shape (see simpleShape), anything else is left
// to papaparse by the caller (asn_table.ts).
import Papa from "papaparse";
import type { Builder } from "./asn_table.ts";

// The bundled CSVs (600,000 lines) are read straight from their bytes, with
// the rows papaparse would give: parsing them whole took some 400 MB at
// start. This needs the common shape; anything else is parsed as before.
const COMMA = 44;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const utf8 = new TextDecoder();

function lineEnd(bytes: Uint8Array, from: number): number {
  const end = bytes.indexOf(LF, from);
  return end < 0 ? bytes.length : end;
}

function bomLength(bytes: Uint8Array): number {
  return bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

/**
 * LF line ends, a comma delimiter (as papaparse would guess it), at least
 * four fields on every line, and quoted fields that close on their line.
 */
export function simpleShape(bytes: Uint8Array): boolean {
  if (bytes.length <= 65536 || bytes.indexOf(CR) >= 0) return false;
  const from = bomLength(bytes);
  const sample = utf8.decode(
    bytes.subarray(from, bytes.lastIndexOf(LF, 65536) + 1),
  );
  if (Papa.parse(sample, { preview: 100 }).meta.delimiter !== ",") {
    return false;
  }
  for (let line = from; line < bytes.length;) {
    const end = lineEnd(bytes, line);
    if (end > line) {
      const quote = bytes.indexOf(QUOTE, line);
      if (quote >= 0 && quote < end) {
        const row = quotedRow(utf8.decode(bytes.subarray(line, end)));
        if (!row || row.length < 4) return false;
      } else {
        let commas = 0;
        for (let i = line; i < end && commas < 3; i++) {
          if (bytes[i] === COMMA) commas++;
        }
        if (commas < 3) return false;
      }
    }
    line = end + 1;
  }
  return true;
}

/**
 * The fields of one line with quoted fields, when every quote opens a field
 * and closes it right before a comma or the line end (where papaparse and
 * RFC 4180 agree); null for any other use of quotes.
 */
function quotedRow(line: string): string[] | null {
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (line.charCodeAt(at) === QUOTE) {
      let value = "";
      let from = at + 1;
      for (;;) {
        const close = line.indexOf('"', from);
        if (close < 0) return null;
        value += line.slice(from, close);
        if (line.charCodeAt(close + 1) === QUOTE) {
          value += '"';
          from = close + 2;
          continue;
        }
        at = close + 1;
        break;
      }
      fields.push(value);
      if (at === line.length) return fields;
      if (line.charCodeAt(at) !== COMMA) return null;
      at++;
    } else {
      const comma = line.indexOf(",", at);
      const to = comma < 0 ? line.length : comma;
      const value = line.slice(at, to);
      if (value.includes('"')) return null;
      fields.push(value);
      if (comma < 0) return fields;
      at = comma + 1;
    }
  }
}

/** A field of ASCII digits as a number; NaN for anything else. */
function digits(bytes: Uint8Array, from: number, to: number): number {
  if (to <= from || to - from > 15) return NaN;
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = bytes[i] - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return n;
}

export function readSimple(
  bytes: Uint8Array,
  v4: Builder,
  intern: (asn: number, org: string) => number,
  add: (start: string, end: string, orgId: number) => void,
): void {
  let orgFrom = -1;
  let orgTo = -1;
  let orgAsn = NaN;
  let orgId = -1;
  for (let line = bomLength(bytes); line < bytes.length;) {
    const end = lineEnd(bytes, line);
    const quote = bytes.indexOf(QUOTE, line);
    if (end === line) {
      // an empty line: skipped
    } else if (quote >= 0 && quote < end) {
      const [start, last, asn, org] = quotedRow(
        utf8.decode(bytes.subarray(line, end)),
      )!;
      add(start, last, intern(Number(asn), org));
      orgFrom = -1;
    } else {
      const c1 = bytes.indexOf(COMMA, line);
      const c2 = bytes.indexOf(COMMA, c1 + 1);
      const c3 = bytes.indexOf(COMMA, c2 + 1);
      const c4 = bytes.indexOf(COMMA, c3 + 1);
      const to = c4 >= 0 && c4 < end ? c4 : end;
      let asn = digits(bytes, c2 + 1, c3);
      if (Number.isNaN(asn)) {
        asn = Number(utf8.decode(bytes.subarray(c2 + 1, c3)));
      }
      // Neighbouring ranges mostly belong to the same organisation.
      let same = asn === orgAsn && to - (c3 + 1) === orgTo - orgFrom;
      for (let i = 0; same && i < orgTo - orgFrom; i++) {
        same = bytes[c3 + 1 + i] === bytes[orgFrom + i];
      }
      if (!same) {
        orgId = intern(asn, utf8.decode(bytes.subarray(c3 + 1, to)));
        orgAsn = asn;
        orgFrom = c3 + 1;
        orgTo = to;
      }
      const start = digits(bytes, line, c1);
      const last = digits(bytes, c1 + 1, c2);
      if (!Number.isNaN(start) && !Number.isNaN(last)) {
        v4.start.push(start);
        v4.end.push(last);
        v4.org.push(orgId);
      } else {
        add(
          utf8.decode(bytes.subarray(line, c1)),
          utf8.decode(bytes.subarray(c1 + 1, c2)),
          orgId,
        );
      }
    }
    line = end + 1;
  }
}
