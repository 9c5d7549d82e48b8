/** A built site served as a static host serves it, and what a page in Chromium reports as going wrong. */
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import type { Page } from 'playwright-core';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.xml': 'application/xml',
};

/** Serves `root` on a loopback port: `/es/docs/intro` → `es/docs/intro/index.html` (or `….html`). */
export function serveStatic(root: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url!, 'http://site').pathname);
    const file = [path, `${path}/index.html`, `${path}.html`]
      .map((candidate) => join(root, ...candidate.split('/')))
      .find(
        (candidate) => candidate.startsWith(root) && existsSync(candidate) && statSync(candidate).isFile(),
      );
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    readFile(file).then((body) => {
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    });
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({
        origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise((closed) => server.close(() => closed())),
      }),
    ),
  );
}

/** The page's errors as they happen: uncaught exceptions, console errors, and failed requests to `origin`. */
export function collectErrors(page: Page, origin: string): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('response', (response) => {
    if (response.url().startsWith(origin) && response.status() >= 400)
      errors.push(`${response.status()} ${response.url()}`);
  });
  return errors;
}
