// Turns a failed zod parse into the one line a caller reads in { message }.
import type { Context } from "hono";
import type { ZodError, ZodIssue } from "zod";

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
export function unionAwareMessage(error: ZodError): string {
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

/** The value a validator checked (@hono/zod-validator passes it as data). */
export function checkedValue(result: object): unknown {
  return (result as { data?: unknown }).data;
}

/** Whether a request declared a JSON body in its Content-Type. */
export function declaresJsonBody(c: Context): boolean {
  const type = c.req.header("content-type") ?? "";
  return /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(type);
}
