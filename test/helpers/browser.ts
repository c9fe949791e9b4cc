import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium); playwright-core never downloads a browser. */
export const CHROMIUM = process.env.PQID_CHROMIUM ?? '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
/** Browser tests skip without Chromium locally, but never under CI. */
export const skipBrowser = !haveChromium && !process.env.CI;
export const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

// Headless as root on a machine whose network is closed: no sandbox, and no background
// connections (each would be refused, and some at every start).
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
