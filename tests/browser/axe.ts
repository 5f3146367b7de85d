// axe-core in the page under test: WCAG 2.1 A and AA rules, no violation.
// The source is evaluated through the DevTools protocol, which the app's
// Content-Security-Policy (no inline script) does not block.

import assert from "node:assert/strict";
import type { Page } from "playwright-core";

const ROOT = new URL("../../", import.meta.url).pathname;
const AXE_SOURCE = `${ROOT}node_modules/axe-core/axe.min.js`;
const WCAG_21_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

let source: Promise<string> | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/**
 * Resolves once no finite animation runs (an endless one, such as a progress
 * bar's, is left running). axe measures colours as they are painted, and a
 * notification sliding in is still faint: its title fails contrast until the
 * entrance ends. Chromium advances animations only between tasks, so a long
 * axe run started mid-entrance measures it faint throughout.
 */
export async function animationsEnded(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol like axe itself: waitForFunction
  // would eval in the page, which the Content-Security-Policy forbids.
  await page.evaluate(`(async () => {
    for (;;) {
      const running = document.getAnimations().filter((a) =>
        a.playState === "running" &&
        a.effect?.getComputedTiming().endTime !== Infinity
      );
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => {})));
    }
  })()`);
}

/** The WCAG 2.1 A/AA violations on the page once its animations ended. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await animationsEnded(page);
  source ??= Deno.readTextFile(AXE_SOURCE);
  if (!(await page.evaluate("typeof globalThis.axe === 'object'"))) {
    await page.evaluate(`${await source}\n;0`);
  }
  const result = await page.evaluate<{ violations: AxeViolation[] }>(
    `axe.run(document, { runOnly: { type: "tag", values: ${
      JSON.stringify(WCAG_21_A_AA)
    } } })`,
  );
  return result.violations;
}

/** Fails with each violation's rule, help and nodes when there is any. */
export async function assertNoAxeViolations(
  page: Page,
  what: string,
): Promise<void> {
  const violations = await axeViolations(page);
  assert.deepEqual(
    violations.map((v) =>
      `${v.id} (${v.impact}): ${v.help}: ${
        v.nodes.map((n) => n.target.join(" ")).join(", ")
      }`
    ),
    [],
    `axe-core on ${what}`,
  );
}
