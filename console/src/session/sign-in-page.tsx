import { useEffect, useRef, useState } from 'preact/hooks';
import { api, API_BASE, must } from '../api/client';

/** Shown when the admin API answers 401: how this instance lets staff in. */
export function SignInPage(props: { expired: boolean }) {
  const [providers, setProviders] = useState<{ oidc: boolean; loginLink: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    api.GET('/auth/providers').then(must).then(setProviders, (e: Error) => setError(e.message));
  }, []);
  const returnTo = window.location.pathname.startsWith('/admin/') ? window.location.pathname + window.location.search : '/admin/';
  return (
    <main id="main" class="sign-in">
      <div class="card">
        <h1 tabIndex={-1} ref={heading}>verify-customer console</h1>
        <p class="muted">For the operator's staff: partners and their secrets, usage, the audit trail and webhooks.</p>
        {props.expired && <p role="status">Your session has ended. Sign in again to go on.</p>}
        {error && <p role="alert" class="error">{error}</p>}
        {providers?.oidc && (
          <a class="button primary" href={`${API_BASE}/auth/login?returnTo=${encodeURIComponent(returnTo)}`}>Sign in with your organisation's account</a>
        )}
        {providers && !providers.oidc && providers.loginLink && (
          <p>Open the one-time login link that <code>npm start</code> printed in its terminal. It works once: start the service again for a new one.</p>
        )}
        {providers && !providers.oidc && !providers.loginLink && (
          <p>No sign-in is configured on this instance: set <code>ADMIN_OIDC_ISSUER</code> (see docs/console.md), or call the admin API with a token from <code>ADMIN_TOKENS_FILE</code>.</p>
        )}
      </div>
    </main>
  );
}
