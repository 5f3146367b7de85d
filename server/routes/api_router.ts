// The router every /api resource is declared on: routes are declared once
// with createRoute, validated from that declaration, and the OpenAPI
// document is generated from the same declarations.
import { OpenAPIHono } from "@hono/zod-openapi";
import type { Hook } from "@hono/zod-openapi";
import type { Env } from "hono";
import { firstIssueMessage } from "./validation_message.ts";

/** A failed validation answers 400 { message: "field: what is wrong" }. */
// deno-lint-ignore no-explicit-any
const answerValidationError: Hook<any, Env, any, any> = (result, c) => {
  if (result.success) return;
  return c.json({ message: firstIssueMessage(result.error) }, 400);
};

export function apiRouter(): OpenAPIHono {
  return new OpenAPIHono({ defaultHook: answerValidationError });
}
