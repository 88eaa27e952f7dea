import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, Locator, Page, chromium } from 'playwright-core';

/*
 * The console's browser tests drive Debian's Chromium through playwright-core (no browser is
 * ever downloaded). A missing Chromium fails the run and says how to install it: these tests
 * never skip. `.ci/run` installs it with the other Debian packages.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the run keeps its screenshots (gitignored): every page at both sizes, for a person to look at. */
export const SHOTS_DIR = join(__dirname, '..', '..', 'test-results', 'console');

export const SIZES = { wide: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the console's browser tests drive Debian's Chromium.\n`
      + 'Install it with: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH), then run the tests again.');
  }
  // playwright starts each browser on a fresh profile of its own in a temporary folder.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
      // No name resolves but the loopback's: nothing leaves the machine, and a stray request fails at once.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
}

/**
 * A context of its own per person (its own cookies). While the console is shown (a path under
 * /admin/; the IdP's own pages are not ours), `problems` collects every page error, console
 * error (a CSP violation is one) and request to anywhere else: each test expects none.
 */
export async function newPerson(browser: Browser): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: SIZES.wide, locale: 'en-GB', timezoneId: 'UTC' });
  const page = await context.newPage();
  const problems: string[] = [];
  const onConsole = () => new URL(page.url()).pathname.startsWith('/admin/');
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    // A refused call the test makes on purpose (401, 403, 503) is logged by Chromium as an error too.
    if (onConsole() && msg.type() === 'error' && !/status of (401|403|503)/.test(msg.text())) problems.push(`console error: ${msg.text()}`);
  });
  page.on('request', (req) => {
    const url = new URL(req.url());
    // Sign-in navigates to the IdP on purpose; what a console page loads must be its own.
    if (onConsole() && !req.isNavigationRequest() && url.origin !== new URL(page.url()).origin && url.protocol !== 'blob:') problems.push(`outside request: ${req.url()}`);
  });
  return { context, page, problems };
}

/**
 * Signs in through the test IdP as `login`: the console's sign-in button, the IdP's own login
 * and consent forms (oidc-provider's development interactions), back to the console.
 */
export async function signIn(page: Page, consoleUrl: string, login: string): Promise<void> {
  await page.goto(`${consoleUrl}/admin/`);
  await page.getByRole('link', { name: "Sign in with your organisation's account" }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
  // Then the IdP's consent form (once per person and client), or straight back to the console.
  const nav = page.getByRole('navigation', { name: 'Console' });
  const consent = page.getByRole('button', { name: 'Continue' });
  await nav.or(consent).first().waitFor();
  if (await consent.isVisible()) await consent.click();
  await nav.waitFor();
}

/** The page as it is now, at 1280×800 and at 390×844 (full height), under test-results/console/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const before = page.viewportSize() ?? SIZES.wide;
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    // A chart redraws on resize: wait for the layout to settle at the new width.
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
    await page.screenshot({ path: join(SHOTS_DIR, `${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
}

/** Whether the element has the keyboard focus (the test's own code has no DOM types: the check runs in the page). */
export async function hasFocus(element: Locator): Promise<boolean> {
  return element.evaluate((el: { ownerDocument: { activeElement: unknown } }) => el === el.ownerDocument.activeElement);
}
