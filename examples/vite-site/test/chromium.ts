/**
 * Debian's Chromium, headless, with a fresh profile in `profileDir` (playwright's way to pass --user-data-dir),
 * and without the background connections this machine's closed network refuses.
 */
import { type BrowserContext, chromium } from 'playwright-core';

export function launchChromium(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
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
}
