import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, must, SESSION_ENDED, setCsrfToken } from './api/client';
import { Link, useLocation } from './router';
import { hasRole, Session, SessionContext } from './session/session';
import { SignInPage } from './session/sign-in-page';
import { OverviewPage } from './pages/overview/overview-page';
import { PartnersPage } from './pages/partners/partners-page';
import { PartnerPage } from './pages/partners/partner-page';
import { UsagePage } from './pages/usage/usage-page';
import { AuditPage } from './pages/audit/audit-page';
import { WebhooksPage } from './pages/webhooks/webhooks-page';
import { ChangesPage } from './pages/changes/changes-page';
import { NotFoundPage } from './pages/not-found-page';

interface NavItem { path: string; label: string; compliance?: boolean }

const NAV: NavItem[] = [
  { path: '/', label: 'Overview' },
  { path: '/partners', label: 'Partners' },
  { path: '/usage', label: 'Usage' },
  { path: '/audit', label: 'Audit', compliance: true },
  { path: '/webhooks', label: 'Webhooks' },
  { path: '/changes', label: 'Changes' },
];

function page(path: string, session: Session) {
  if (path === '/') return <OverviewPage />;
  if (path === '/partners') return <PartnersPage />;
  const partner = /^\/partners\/([^/]+)$/.exec(path);
  if (partner) return <PartnerPage name={decodeURIComponent(partner[1])} />;
  if (path === '/usage') return <UsagePage />;
  if (path === '/audit' && hasRole(session, 'compliance')) return <AuditPage />;
  if (path === '/webhooks') return <WebhooksPage />;
  if (path === '/changes') return <ChangesPage />;
  return <NotFoundPage />;
}

function isCurrent(item: NavItem, path: string): boolean {
  return item.path === '/' ? path === '/' : path === item.path || path.startsWith(`${item.path}/`);
}

export function App() {
  const [session, setSession] = useState<Session | null | 'signed-out' | 'expired'>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { path } = useLocation();
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(path);

  useEffect(() => {
    api.GET('/session').then(must).then(
      (s) => {
        setCsrfToken(s.csrfToken ?? null);
        setSession(s);
      },
      (e: unknown) => (e instanceof ApiError && e.status === 401 ? setSession('signed-out') : setFailure((e as Error).message)),
    );
  }, []);

  useEffect(() => {
    const ended = () => setSession('expired');
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, []);

  // After a navigation (not the first page), focus the new page's heading so that a screen
  // reader announces it and Tab starts from the top of the new content.
  useEffect(() => {
    if (path === firstPath.current) return;
    firstPath.current = '';
    const h1 = main.current?.querySelector('h1');
    (h1 ?? main.current)?.focus();
    window.scrollTo(0, 0);
  }, [path]);

  if (failure) return <main id="main" class="sign-in"><div class="card"><h1>Console unavailable</h1><p role="alert" class="note error">{failure}</p></div></main>;
  if (session === null) return <main id="main" class="sign-in"><p class="muted" aria-live="polite">Loading…</p></main>;
  if (session === 'signed-out' || session === 'expired') return <SignInPage expired={session === 'expired'} />;

  const signOut = async () => {
    await api.POST('/auth/logout', {});
    setCsrfToken(null);
    setSession('signed-out');
  };

  return (
    <SessionContext.Provider value={session}>
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="topbar">
        <span class="brand">verify-customer <span class="muted">console</span></span>
        <div class="who">
          <span>{session.subject}</span>
          <span class="roles">{session.roles.join(' · ')}</span>
          {(session.method === 'oidc-session' || session.method === 'link-session') && (
            <button type="button" class="link-button" onClick={() => void signOut()}>Sign out</button>
          )}
        </div>
      </header>
      <nav class="sidenav" aria-label="Console">
        <ul>
          {NAV.filter((n) => !n.compliance || hasRole(session, 'compliance')).map((n) => (
            <li key={n.path}><Link to={n.path} current={isCurrent(n, path)}>{n.label}</Link></li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1}>
        {page(path, session)}
      </main>
    </SessionContext.Provider>
  );
}
