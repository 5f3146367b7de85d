// Turns a failed zod parse into the one line a caller reads in { message }.
import type { Context } from "hono";
import type { ZodError, ZodIssue } from "zod";
import { isJsonType, NOT_JSON_BODY } from "./json_body.ts";

/** "path: message" of the first issue, the path joined with dots. */
export function firstIssueMessage(error: ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue.message}`;
}

/** "ips[3]"-style path of an issue, with the separator after it. */
function issueLocation(path: (string | number)[]): string {
  if (path.length === 0) return "";
  const text = path.map((p) => typeof p === "number" ? `[${p}]` : `.${p}`)
    .join("").replace(/^\./, "");
  return `${text}: `;
}

/**
 * One readable line for a failed parse of a union body: the issue of the
 * branch whose type matched at each level (it got further), not zod's
 * "Invalid input" for the union as a whole.
 */
function unionAwareMessage(error: ZodError): string {
  let issue: ZodIssue = error.issues[0];
  while (issue.code === "invalid_union") {
    const depth = issue.path.length;
    const branch = issue.unionErrors.find((e) =>
      !e.issues.some((i) =>
        i.code === "invalid_type" && i.path.length === depth
      )
    );
    if (!branch) break;
    issue = branch.issues[0];
  }
  return `${issueLocation(issue.path)}${issue.message}`;
}

/**
 * Why a JSON body was refused, in words: not sent as JSON; not the shape it
 * must be (`fits` says no; `shape` names what it must be); or the issue of
 * the union branch it came closest to, rather than zod's union words.
 */
export function bodyRefusal(
  c: Context,
  result: { error: ZodError },
  fits: (body: unknown) => boolean,
  shape: string,
): string {
  if (!isJsonType(c.req.header("content-type"))) return NOT_JSON_BODY;
  // @hono/zod-validator passes the value it checked as data.
  const body = (result as { data?: unknown }).data;
  return fits(body)
    ? unionAwareMessage(result.error)
    : `The body must be ${shape}`;
}
