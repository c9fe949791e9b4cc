/**
 * One IdP page as a person sees it, at a phone's width (390×844) and a desktop's (1280×800): it
 * must fit the width without sideways scrolling and pass axe-core with no serious or critical
 * violation; the screenshots and the axe results go to test/artifacts/screenshots/
 * (<name>-phone.png, <name>-desktop.png, <name>-<width>.axe.json).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { describeViolations, seriousViolations } from './axe.ts';
import { ARTIFACTS } from './browser.ts';

export const SCREENSHOTS = join(ARTIFACTS, 'screenshots');

export const WIDTHS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const;

export async function checkPage(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const [width, size] of Object.entries(WIDTHS)) {
    await page.setViewportSize(size);
    const label = `${name}-${width}`;
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow, `${label}: wider than the viewport`).toBeLessThanOrEqual(0);
    expect(describeViolations(await seriousViolations(page, join('screenshots', label))), label).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, `${label}.png`), fullPage: true });
  }
}
