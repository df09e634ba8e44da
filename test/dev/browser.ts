import { existsSync } from 'node:fs';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { it } from 'vitest';
import type { DevServer } from '../../src/dev/server.js';
import { SETTLE_MS, waitFor } from './helpers.js';

/*
 * Browser tests drive Debian's Chromium through playwright-core; nothing is ever downloaded.
 * Without Chromium they are skipped with a banner, except in CI, where that is a failure.
 */

export { SETTLE_MS };

export const CHROMIUM_PATH = process.env['PIPELINE_TOOL_CHROMIUM'] ?? '/usr/bin/chromium';

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];

/** True when the browser tests can run; registers a failing test in CI when they cannot. */
export function requireChromium(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env['CI'] === 'true') {
    it('has Chromium to run the browser tests', () => {
      throw new Error(`Chromium was not found at ${CHROMIUM_PATH}. CI must install it (apt-get install chromium); .ci/run does.`);
    });
    return false;
  }
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n!!  SKIPPING the dev-server browser tests: no Chromium at ${CHROMIUM_PATH}.\n!!  Install it (apt-get install chromium) or set PIPELINE_TOOL_CHROMIUM.\n!!  Under CI=true this is a failure.\n${line}\n`,
  );
  return false;
}

/** A headless Chromium with a fresh, empty profile (playwright makes a temporary one per launch). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: LAUNCH_ARGS, headless: true, timeout: 60_000 });
}

/** The tool's frame in the host page, once its page says `status`. */
export async function findToolFrame(page: Page, server: DevServer, status: string, timeout = SETTLE_MS): Promise<Frame> {
  return waitFor(
    async () => {
      for (const frame of page.frames()) {
        if (!frame.url().startsWith(server.toolOrigin) || frame.isDetached()) continue;
        const text = await frame.evaluate(() => document.getElementById('status')?.textContent).catch(() => undefined);
        if (text === status) return frame;
      }
      return undefined;
    },
    timeout,
    `the tool frame to say "${status}"`,
  );
}
