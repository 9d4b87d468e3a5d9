// Headless Debian Chromium through playwright-core, for tests that use the pages as a person does; screenshots
// go to test-artifacts/browser/ (git-ignored), and axe-core judges the accessibility of a page.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { projectRoot } from './process.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const artifactsDir = join(projectRoot, 'test-artifacts', 'browser');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true });
}

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
}
declare const window: { axe: { run(context: unknown, options: object): Promise<AxeResult> } }, document: unknown;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeProblem {
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * The accessibility violations axe-core finds in the page (or the framed page) as it is now that the pages must
 * not have: the serious and critical ones, and `landmark-unique` (two landmarks of one kind and one name, which a
 * screen reader's list of landmarks cannot tell apart; axe rates it moderate). The page's own CSP
 * (script-src 'self') stays on: axe is evaluated through the DevTools protocol, not added as a script tag.
 */
export async function seriousAxeViolations(page: Page | Frame): Promise<AxeProblem[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.rule === 'landmark-unique');
}
