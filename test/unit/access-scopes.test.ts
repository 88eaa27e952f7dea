import { parseScope, scopesForOperations } from '../../src/oauth/access-scopes';

describe('CAMARA scopes per partner operation (CONTRACT §7)', () => {
  it('when a partner may use sim_swap or kyc, then sim_swap grants every SIM-swap and subscription scope and kyc the tenure scope', () => {
    expect(scopesForOperations(new Set(['sim_swap']))).toEqual([
      'sim-swap', 'sim-swap:check', 'sim-swap:retrieve-date',
      'sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create',
      'sim-swap-subscriptions:read', 'sim-swap-subscriptions:delete',
    ]);
    expect(scopesForOperations(new Set(['kyc']))).toEqual(['kyc-tenure:check-tenure']);
    expect(scopesForOperations(new Set())).toEqual([]);
  });

  it('when a partner holds a signal operation, then it may hold exactly that API\'s scopes (CONTRACT §11)', () => {
    expect(scopesForOperations(new Set(['device_swap']))).toEqual(['device-swap', 'device-swap:check', 'device-swap:retrieve-date']);
    expect(scopesForOperations(new Set(['call_forwarding']))).toEqual([
      'call-forwarding-signal:unconditional-call-forwardings:read', 'call-forwarding-signal:call-forwardings:read',
    ]);
    expect(scopesForOperations(new Set(['number_recycling']))).toEqual(['number-recycling:check']);
    expect(scopesForOperations(new Set(['kyc_match']))).toEqual(['kyc-match:match']);
    expect(scopesForOperations(new Set(['kyc', 'kyc_match']))).toEqual(['kyc-tenure:check-tenure', 'kyc-match:match']);
    // A legacy partner keeps exactly what it had.
    expect(scopesForOperations(new Set(['kyc', 'sim_swap']))).not.toContain('device-swap');
  });

  it('when a scope string is parsed, then only RFC 6749 scope syntax is accepted', () => {
    expect(parseScope('a b:c')).toEqual(['a', 'b:c']);
    for (const bad of ['', ' a', 'a ', 'a  b', 'a\tb', 'a"b', 'a\\b', 'é']) expect(parseScope(bad)).toBeUndefined();
  });
});
