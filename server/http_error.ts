// Errors that become JSON { message } answers with a 4xx status, with the
// short title the web app shows above the message where there is one
// ("File too large", "Configuration error").
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    message: string,
    readonly title?: string,
  ) {
    super(status, { message });
  }
}

export const badRequest = (message: string, title?: string) =>
  new ApiError(400, message, title);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);

/** Parses a job id from the path: a positive whole number. */
export function parseJobId(raw: string): number {
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) {
    throw badRequest(`Job id must be a positive whole number, got "${raw}"`);
  }
  return Number(raw);
}

/** Parses an optional whole-number query parameter within bounds. */
export function intParam(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^-?\d{1,15}$/.test(raw)) {
    throw badRequest(`${name} must be a whole number, got "${raw}"`);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw badRequest(`${name} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}
