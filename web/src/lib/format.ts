// Formatting of numbers, dates and durations as the screens show them.

const MONTHS = [
  "Jan",
  "Feb",
  "Mar",
  "Apr",
  "May",
  "Jun",
  "Jul",
  "Aug",
  "Sep",
  "Oct",
  "Nov",
  "Dec",
];

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Two digits: 7 -> "07". */
const pad = (value: number) => String(value).padStart(2, "0");

/** "MMM d, yyyy h:mm a" in local time, or "N/A". */
export function formatDate(value: string | null | undefined): string {
  const date = parseDate(value);
  if (!date) return "N/A";
  const hours = date.getHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${
    MONTHS[date.getMonth()]
  } ${date.getDate()}, ${date.getFullYear()} ${hour12}:${
    pad(date.getMinutes())
  } ${hours < 12 ? "AM" : "PM"}`;
}

/** Time of day "hh:mm:ss" (24 h, local time), or "N/A". */
export function formatTimeOfDay(value: string | null | undefined): string {
  const date = parseDate(value);
  if (!date) return "N/A";
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${
    pad(date.getSeconds())
  }`;
}

/** Seconds as "mm:ss" (minutes grow past 59 rather than wrap). */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
}

/** Whole seconds between two instants, never negative. */
export function secondsBetween(
  start: string | null | undefined,
  end: number | string | null | undefined,
): number {
  const from = parseDate(start);
  const to = typeof end === "number" ? new Date(end) : parseDate(end);
  if (!from || !to) return 0;
  return Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));
}

/** Whole-number percentage of done out of total, 0 when total is 0. */
export function percentOf(done: number, total: number): number {
  if (!total || total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((done / total) * 100)));
}

/** Seconds a job runs before its pace says anything about the rest. */
export const ESTIMATE_AFTER_SECONDS = 3;

/**
 * Estimated seconds left, rounded up: elapsed divided by the fraction done,
 * minus elapsed. Null ("Calculating...") until some IPs are processed and
 * ESTIMATE_AFTER_SECONDS have passed (whole seconds of a first moment say
 * nothing: 0 s at 1% read as 00:00 left).
 */
export function estimateRemaining(
  elapsedSeconds: number,
  processed: number,
  total: number,
): number | null {
  if (processed <= 0 || total <= 0) return null;
  if (processed < total && elapsedSeconds < ESTIMATE_AFTER_SECONDS) {
    return null;
  }
  const fraction = Math.min(1, processed / total);
  return Math.max(0, Math.ceil(elapsedSeconds / fraction - elapsedSeconds));
}

/** "city, country" from whichever parts exist; "-" when neither. */
export function formatLocation(
  city: string | null | undefined,
  country: string | null | undefined,
): string {
  const parts = [city, country].filter((part): part is string => !!part);
  return parts.length ? parts.join(", ") : "-";
}

/** A value for a table cell: a dash when empty. */
export function orDash(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === ""
    ? "-"
    : String(value);
}

/** 12345 -> "12,345". */
export function formatCount(value: number | null | undefined): string {
  return (value ?? 0).toLocaleString("en-US");
}

/** 1258291 -> "1.2 MB", 5120 -> "5 KB" (1024-based, as MAX_UPLOAD_MB). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
