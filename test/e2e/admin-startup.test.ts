import { ServiceProcess, startServiceProcess } from '../support/service-process';

/*
 * `npm start` on embedded defaults (CONTRACT §12): the built service prints the console's
 * address and a one-time login link (loopback only) before the `verify-customer listening`
 * line, which stays the last thing it says.
 */

describe('npm start shows the console', () => {
  let svc: ServiceProcess;
  beforeAll(async () => { svc = await startServiceProcess({}); });
  afterAll(() => { svc?.proc.kill('SIGTERM'); return svc?.exited; });

  it('when the service starts on embedded defaults, then the console address and the login link come before the listening line, which is last', async () => {
    const lines = svc.output().split('\n').filter((l) => l.trim() !== '');
    const consoleAt = lines.findIndex((l) => /^verify-customer console: http:\/\/127\.0\.0\.1:\d+\/admin\/$/.test(l));
    const linkAt = lines.findIndex((l) => /^One-time login link \(works once, from this machine\): http:\/\/127\.0\.0\.1:\d+\/admin\/api\/v1\/auth\/link\?token=[A-Za-z0-9_-]{32}$/.test(l));
    const listeningAt = lines.findIndex((l) => l.includes('"msg":"verify-customer listening"'));
    expect([consoleAt >= 0, linkAt > consoleAt, listeningAt > linkAt, listeningAt]).toEqual([true, true, true, lines.length - 1]);
    const link = /(http:\S+)$/.exec(lines[linkAt])?.[1] ?? '';
    const res = await fetch(link, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('vc_admin_session='))).toBe(true);
    // The token is printed on stdout for the person at the terminal, never in a log line.
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(lines.filter((l) => l.startsWith('{') && l.includes(token))).toEqual([]);
  });
});
