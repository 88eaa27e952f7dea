// The operator's identity provider for the admin API's tests: the real, certified `oidc-provider`
// package, run as its own Node process (it is ESM with Koa beneath: Jest's module system cannot
// load it). It listens on a free port of 127.0.0.1 and prints `test-idp listening <issuer>`.
//
// IDP_CONFIG (JSON): { users: [{ sub, email, roles }], clients: [client metadata], resource }.
// Sign-in uses the package's own development login and consent forms (any password; only the
// listed users exist). Access tokens for `resource` are JWTs carrying `roles` and `email`; other
// access tokens are opaque (for userinfo), as a real IdP's are.
import http from 'node:http';
import Provider from 'oidc-provider';

const config = JSON.parse(process.env.IDP_CONFIG ?? '{}');
const users = new Map(config.users.map((u) => [u.sub, u]));
const resource = config.resource;
// Clients that get JWT access tokens for the resource (the admin API's Bearer callers) by default.
const resourceClients = new Set(config.resourceClients ?? []);

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: config.clients,
  async findAccount(_ctx, id) {
    const user = users.get(id);
    if (!user) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, email: user.email, email_verified: true, roles: user.roles }) };
  },
  claims: { openid: ['sub', 'roles'], email: ['email', 'email_verified'], profile: [] },
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  cookies: { keys: ['test-idp-cookie-key'] },
  features: {
    devInteractions: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: (ctx, client) => (resourceClients.has(client.clientId) ? resource : undefined),
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator) => {
        if (indicator !== resource) throw new Error('unknown resource');
        return { scope: 'admin', audience: resource, accessTokenFormat: 'jwt', accessTokenTTL: 600, jwt: { sign: { alg: 'RS256' } } };
      },
    },
  },
  async extraTokenClaims(_ctx, token) {
    const user = users.get(token.accountId);
    return user ? { roles: user.roles, email: user.email } : undefined;
  },
  ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
});
provider.on('server_error', (_ctx, err) => process.stderr.write(`test-idp server_error: ${err.message}\n`));
server.on('request', provider.callback());
process.stdout.write(`test-idp listening ${issuer}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
