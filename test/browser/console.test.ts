import { Browser, Page } from 'playwright-core';
import { ConsoleFleet, Credentials, STAFF, camaraSimSwap, legacyKyc, startConsoleFleet, tokenStatus } from '../support/console-fleet';
import { hasFocus, launchChromium, newPerson, screenshot, signIn } from '../support/console-browser';
import { until } from '../support/until';

/*
 * The operator's console in a real browser (CONTRACT §12, docs/console.md), driven as staff
 * drive it: by role and label. One fleet (two instances, one PostgreSQL, the IdP) and one
 * Chromium for the whole file; the steps build on each other, in order, as a partner manager's
 * day does: onboard a bank, rotate its secret, revoke the old one, switch it off.
 */
describe('the console in a browser', () => {
  let fleet: ConsoleFleet;
  let browser: Browser;
  let admin: Page;
  let adminProblems: string[];
  const name = `bank-${Date.now().toString(36)}`;
  let first: Credentials;
  let second: Credentials;
  /**
   * The steps build on each other: each says which step it needs and records its own, so that
   * after a failure the later ones fail at once, naming it, rather than each waiting out its timeout.
   */
  const done = new Set<string>();
  const needs = (step: string) => {
    if (!done.has(step)) throw new Error(`needs the step "${step}", which did not pass`);
  };

  beforeAll(async () => {
    browser = await launchChromium();
    fleet = await startConsoleFleet();
    ({ page: admin, problems: adminProblems } = await newPerson(browser));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await fleet?.close();
  });
  afterEach(() => expect(adminProblems).toEqual([]));

  const secretShown = async (page: Page) => page.getByLabel(/^(New secret|Secret)$/).inputValue();

  it('when a partner-admin signs in through the IdP, then the overview shows the APIs, the upstreams and the stores', async () => {
    await admin.goto(`${fleet.a.console}/admin/`);
    await admin.getByRole('heading', { level: 1, name: 'verify-customer console' }).waitFor();
    await screenshot(admin, 'sign-in');
    await signIn(admin, fleet.a.console, STAFF.admin.sub);
    await expect(admin.getByRole('heading', { level: 1, name: 'Overview' }).isVisible()).resolves.toBe(true);
    await admin.getByRole('heading', { name: 'Upstream breakers' }).waitFor();
    await admin.getByRole('heading', { name: 'Stores' }).waitFor();
    // A partner-admin is not a compliance officer: no audit search.
    await expect(admin.getByRole('link', { name: 'Audit' }).count()).resolves.toBe(0);
    done.add('signed-in');
  });

  it('when the partner-admin creates a partner, then its secret is shown once and answers legacy KYC and CAMARA SIM Swap (200)', async () => {
    needs('signed-in');
    await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Partners' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Partners' }).waitFor();
    await admin.getByRole('table', { name: /^Partners/ }).getByRole('row').nth(1).waitFor();
    await screenshot(admin, 'partners');
    // By keyboard: Enter opens the dialog, Escape closes it, focus is back on the button that opened it.
    const newPartner = admin.getByRole('button', { name: 'New partner' });
    await newPartner.focus();
    await admin.keyboard.press('Enter');
    const dialog = admin.getByRole('dialog', { name: 'New partner' });
    await until(() => hasFocus(dialog.getByLabel('Name')), 'focus in the opened dialog', 5000);
    await admin.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await until(() => hasFocus(newPartner), 'focus back on the button that opened the dialog', 5000);
    await newPartner.click();
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('checkbox', { name: /SIM swap/ }).check();
    await dialog.getByLabel('Purpose').fill('dpv:FraudPreventionAndDetection');
    await screenshot(admin, 'partner-create');
    await dialog.getByRole('button', { name: 'Create partner' }).click();
    const created = admin.getByRole('dialog', { name: `Partner ${name} created` });
    await created.waitFor();
    first = { apiKey: (await created.locator('dd.mono').textContent()) ?? '', secret: await secretShown(admin) };
    expect(first.secret.length).toBeGreaterThanOrEqual(16);
    await screenshot(admin, 'partner-created');
    await created.getByRole('button', { name: 'Done' }).click();
    await admin.getByRole('heading', { level: 1, name }).waitFor();
    // Shown once: the partner's page, read again, holds no secret.
    await admin.reload();
    await admin.getByRole('heading', { name: 'Secrets' }).waitFor();
    expect(await admin.content()).not.toContain(first.secret);

    await until(async () => (await legacyKyc(fleet.a.svc.url, first)) === 200, 'the new partner answered on instance A', 5000);
    expect(await legacyKyc(fleet.b.svc.url, first)).toBe(200);
    expect(await camaraSimSwap(fleet.a.svc.url, first)).toBe(200);
    done.add('created');
  });

  it('when its secret is rotated, then the new one is shown once and both old and new work during the grace', async () => {
    needs('created');
    await admin.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = admin.getByRole('dialog', { name: `Rotate the secret of ${name}` });
    await dialog.getByLabel('Keep the current secret valid for').selectOption({ label: '1 hour' });
    await dialog.getByRole('button', { name: 'Rotate secret' }).click();
    await admin.getByRole('dialog', { name: `New secret for ${name}` }).waitFor();
    second = { apiKey: first.apiKey, secret: await secretShown(admin) };
    expect(second.secret).not.toBe(first.secret);
    await admin.getByRole('button', { name: 'Done' }).click();
    await admin.getByText('in grace').waitFor();
    await screenshot(admin, 'partner-detail');

    for (const url of [fleet.a.svc.url, fleet.b.svc.url]) {
      await until(async () => (await legacyKyc(url, second)) === 200, 'the new secret signs', 5000);
      expect(await legacyKyc(url, first)).toBe(200);
      expect(await tokenStatus(url, first)).toBe(200);
      expect(await tokenStatus(url, second)).toBe(200);
    }
    done.add('rotated');
  });

  it('when the old secret is revoked after a confirmation naming what happens, then it is refused everywhere and the new one still works', async () => {
    needs('rotated');
    const rows = admin.getByRole('table', { name: `Secrets of ${name}` }).getByRole('row');
    const oldRow = rows.filter({ hasText: 'in grace' });
    await oldRow.getByRole('button', { name: /^Revoke secret/ }).click();
    const confirm = admin.getByRole('dialog', { name: /^Revoke secret/ });
    await expect(confirm.textContent()).resolves.toMatch(/refused on every instance within 2 seconds/);
    await confirm.getByRole('button', { name: 'Revoke secret' }).click();
    await admin.getByRole('status').filter({ hasText: /revoked/ }).waitFor();
    for (const url of [fleet.a.svc.url, fleet.b.svc.url]) {
      await until(async () => (await legacyKyc(url, first)) !== 200, 'the revoked secret is refused', 2000);
      expect(await tokenStatus(url, first)).not.toBe(200);
      expect(await legacyKyc(url, second)).toBe(200);
    }
    done.add('revoked');
  });

  it('when the partner is disabled on one instance, then the other refuses it within 2 s', async () => {
    needs('revoked');
    expect(await legacyKyc(fleet.b.svc.url, second)).toBe(200);
    await admin.getByRole('button', { name: 'Disable partner' }).click();
    const confirm = admin.getByRole('dialog', { name: `Disable ${name}?` });
    await confirm.getByRole('button', { name: 'Disable partner' }).click();
    await admin.getByRole('status').filter({ hasText: 'Partner disabled.' }).waitFor();
    const disabledAt = Date.now();
    await until(async () => (await legacyKyc(fleet.b.svc.url, second)) !== 200, 'instance B refuses the disabled partner', 2000);
    expect(Date.now() - disabledAt).toBeLessThan(2000);
    expect(await tokenStatus(fleet.b.svc.url, second)).not.toBe(200);
    await expect(admin.getByRole('button', { name: 'Enable partner' }).isVisible()).resolves.toBe(true);
    done.add('disabled');
  });

  it('when the usage page is opened, then the partner\'s calls are in the plot and the totals, and a CSV downloads', async () => {
    needs('created');
    await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Overview' }).click();
    await admin.getByRole('figure', { name: /Requests per API/ }).locator('canvas').waitFor();
    await screenshot(admin, 'overview');
    await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Usage' }).click();
    await admin.getByLabel('Per', { exact: true }).selectOption('hour');
    await admin.getByLabel('Partner', { exact: true }).selectOption(name);
    await admin.getByRole('button', { name: 'Show' }).click();
    await admin.getByRole('figure', { name: /Requests per partner and API, per hour/ }).locator('canvas').waitFor();
    const totals = admin.getByRole('table', { name: 'Totals for the period' });
    const kycRow = totals.getByRole('row').filter({ hasText: name }).filter({ hasText: 'KYC' }).first();
    await until(async () => Number(await kycRow.getByRole('cell').nth(2).textContent().catch(() => '0')) >= 4, 'the KYC calls counted', 5000);
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^usage-.*-hour-.*\.csv$/);
    await screenshot(admin, 'usage');
  });

  it('when the change log is opened, then every change names who made it and no secret appears', async () => {
    needs('disabled');
    await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Changes' }).click();
    // After a navigation the new page's heading has the focus: a screen reader announces it.
    await until(() => hasFocus(admin.getByRole('heading', { level: 1, name: 'Changes' })), 'focus on the new page\'s heading', 5000);
    const table = admin.getByRole('table', { name: 'Registry changes, newest first' });
    await table.getByRole('row').filter({ hasText: name }).first().waitFor();
    expect(await table.getByRole('row').filter({ hasText: name }).count()).toBeGreaterThanOrEqual(4);
    await expect(table.textContent()).resolves.toContain(STAFF.admin.email);
    const text = await admin.content();
    expect(text).not.toContain(first.secret);
    expect(text).not.toContain(second.secret);
    await screenshot(admin, 'changes');
    await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await admin.getByLabel('Partner', { exact: true }).selectOption(name);
    await admin.getByRole('table', { name: `Live subscriptions of ${name} (0)` }).waitFor();
    await screenshot(admin, 'webhooks');
  });

  it('when a compliance officer searches the audit trail, then the partner\'s lookups are listed', async () => {
    needs('created');
    const { context, page, problems } = await newPerson(browser);
    try {
      await signIn(page, fleet.b.console, STAFF.compliance.sub);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit' }).click();
      await page.getByLabel('Partner', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Search' }).click();
      const table = page.getByRole('table', { name: /record/ });
      await table.getByRole('row').filter({ hasText: 'legacy KYC' }).first().waitFor();
      expect(await table.getByRole('row').filter({ hasText: name }).count()).toBeGreaterThanOrEqual(4);
      await screenshot(page, 'audit');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('when a viewer signs in, then no control that changes anything is drawn and the API answers a write 403', async () => {
    needs('created');
    const { context, page, problems } = await newPerson(browser);
    try {
      await signIn(page, fleet.a.console, STAFF.viewer.sub);
      await expect(page.getByRole('link', { name: 'Audit' }).count()).resolves.toBe(0);
      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Partners' }).click();
      await page.getByRole('link', { name }).click();
      await page.getByRole('heading', { name: 'Secrets' }).waitFor();
      for (const control of ['New partner', 'Edit', 'Rotate secret', 'Disable partner', 'Enable partner', /^Revoke/]) {
        expect({ control: String(control), count: await page.getByRole('button', { name: control }).count() }).toEqual({ control: String(control), count: 0 });
      }
      await screenshot(page, 'partner-viewer');
      // The API itself refuses the viewer, with a valid session and CSRF token.
      const status = await page.evaluate(async (partner) => {
        const session = await (await fetch('/admin/api/v1/session')).json() as { csrfToken: string };
        const res = await fetch(`/admin/api/v1/partners/${partner}`, {
          method: 'PATCH', headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken }, body: JSON.stringify({ enabled: true }),
        });
        return res.status;
      }, name);
      expect(status).toBe(403);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
