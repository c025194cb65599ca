import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium, never a downloaded browser; CI installs it with apt-get. */
export const CHROMIUM = process.env.EVALFLOW_CHROMIUM ?? '/usr/bin/chromium';

/** Where browser tests leave screenshots and pages for a person to look at (gitignored). */
export const TEST_OUTPUT = resolve('test-output');

export async function outputDir(name: string): Promise<string> {
  const dir = join(TEST_OUTPUT, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** What a page did that a test must see: console errors, uncaught exceptions, dialogs, and requests that left the machine. */
export interface PageWatch {
  errors: string[];
  dialogs: string[];
  offMachine: string[];
}

/**
 * A page whose every request is intercepted: file:, data: and http://127.0.0.1 pass, anything
 * else is aborted and recorded; console errors, page errors and dialogs are recorded too.
 */
export async function watchedPage(browser: Browser): Promise<{ page: Page; watch: PageWatch }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const watch: PageWatch = { errors: [], dialogs: [], offMachine: [] };
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'file:' || url.protocol === 'data:' || (url.protocol === 'http:' && url.hostname === '127.0.0.1')) return route.continue();
    watch.offMachine.push(url.href);
    return route.abort();
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!(url.protocol === 'file:' || url.protocol === 'data:' || url.hostname === '127.0.0.1') && !watch.offMachine.includes(url.href)) watch.offMachine.push(url.href);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') watch.errors.push(message.text());
  });
  page.on('pageerror', (error) => watch.errors.push(error.message));
  page.on('dialog', async (dialog) => {
    watch.dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  return { page, watch };
}
