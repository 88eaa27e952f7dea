import assert from 'node:assert/strict';
import { Before, Given, Then } from '@cucumber/cucumber';
import { TokenSource } from '../support/token-source';
import { ConformanceWorld } from '../support/world';
import { DAY, DAYS_AGO, MISMATCH, NUMBERS, RECORDS, defaultBody, isoDate, propertyName, useDataFile } from './demo-data';

export { NUMBERS, defaultBody, invalidValue } from './demo-data';

/*
 * THE binding: what each scenario's stated condition means on this project's demo data
 * (fixtures/demo-subscribers.json, loaded by the service's built-in simulator and meant to be
 * loaded into a test partition of a real deployment). Each condition picks a number whose
 * facts fit it; where a condition is relative to a date the deployment holds ("hours since the
 * last SIM swap"), the binding asks the deployment through the API itself, so it holds however
 * long the service has been running. Generic steps (request, tokens, reply) are in ../steps.
 */

type W = ConformanceWorld;

const isKana = (name: string) => name.startsWith('nameKana');

let dataApplied = false;
/** Another deployment's test data replaces the demo's before the first scenario (`--data FILE`). */
Before(function (this: W) {
  if (dataApplied || !this.parameters.dataFile) return;
  useDataFile(this.parameters.dataFile);
  dataApplied = true;
});

/** Where the number goes: the three-legged token when one names it, else the body (a subscription's config for subscriptions). */
function useNumber(w: W, phoneNumber: string): void {
  w.phoneNumber = phoneNumber;
  if (w.auth.kind === 'three-legged') w.auth = { kind: 'three-legged', phoneNumber };
  else if (w.op.operationId === 'createSimSwapSubscription') w.setProperty('$.config.subscriptionDetail.phoneNumber', phoneNumber);
  else w.setProperty('$.phoneNumber', phoneNumber);
}

/** The API's usual demo number for "a valid phone number". */
function usualNumber(w: W): string {
  const byApi: Record<string, string> = {
    KYC_Match: NUMBERS.identity, verifyAge: NUMBERS.identity, checkDeviceSwap: NUMBERS.forwarding, retrieveDeviceSwapDate: NUMBERS.forwarding,
    retrieveCallForwarding: NUMBERS.forwarding, retrieveUnconditionalCallForwarding: NUMBERS.forwarding, checkNumberRecycling: NUMBERS.forwarding,
  };
  return byApi[w.op.operationId] ?? NUMBERS.neverSwapped;
}

/** Hours since a date the deployment gives through a retrieve-date operation, asked with a two-legged token. */
async function hoursSince(w: W, path: string, phoneNumber: string, property: string): Promise<number> {
  const token = await w.tokens.twoLegged(path.startsWith('/sim-swap') ? ['sim-swap:retrieve-date'] : ['device-swap:retrieve-date']);
  const res = await fetch(`${w.parameters.baseUrl}${path}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ phoneNumber }),
  });
  const date = ((await res.json()) as Record<string, unknown>)[property];
  assert.ok(typeof date === 'string', `${path} gave no ${property} for the bound number`);
  return (Date.now() - Date.parse(date)) / 3_600_000;
}

// --- "a valid phone number …": the API's usual number, in the body (two-legged) ---------------------------------------

Given(/^a valid (?:testing )?phone number(?: supported by the service)?,? identified by the (?:access )?token or provided in the request body$/, function (this: W) {
  useNumber(this, usualNumber(this));
});
Given('a valid phone number provided in the request body', function (this: W) {
  useNumber(this, usualNumber(this));
});
Given(/^the request body property "\$\.phoneNumber" (?:is )?set to a valid (?:testing )?phone number(?: supported by the service)?$/, function (this: W) {
  this.setProperty('$.phoneNumber', this.phoneNumber ?? usualNumber(this));
});
Given(/^the request body property "\$\.phoneNumber" (?:is set to a proper value|set to a valid formatted value)$/, function (this: W) {
  useNumber(this, usualNumber(this));
});
Given(/^the request body property "\$\.phoneNumber" is compliant with the schema but does not identify a valid (?:phone number|subscription managed by the API provider)$/, function (this: W) {
  this.setProperty('$.phoneNumber', NUMBERS.unknown);
});
Given('that the service is not available for all phone numbers commercialized by the operator', function (this: W) { /* numbers of other countries */ });
Given('a valid phone number, identified by the token or provided in the request body, for which the service is not applicable', function (this: W) {
  useNumber(this, NUMBERS.foreign);
});

// --- Three-legged tokens --------------------------------------------------------------------------------------------

/** "identifying a phone number": the token names it, the body does not (a later step may add one back). */
Given(/^[Tt]he header "Authorization" is set to a valid access token identifying a phone number$/, function (this: W) {
  const phoneNumber = this.phoneNumber ?? callForwardingNumber(this) ?? usualNumber(this);
  this.auth = { kind: 'three-legged', phoneNumber };
  if (this.op.operationId !== 'createSimSwapSubscription') this.setProperty('$.phoneNumber', undefined);
});
Given(/^[Tt]he header "Authorization" is set to a valid access token identifying same phone number$/, function (this: W) {
  this.auth = { kind: 'three-legged', phoneNumber: this.phoneNumber ?? usualNumber(this) };
});
Given('the header "Authorization" is set to a valid access token emitted for a different phone number', function (this: W) {
  this.auth = { kind: 'three-legged', phoneNumber: NUMBERS.forwarding };
});
Given('this phone number is identified by the token', function (this: W) {
  this.auth = { kind: 'three-legged', phoneNumber: this.phoneNumber ?? NUMBERS.neverSwapped };
});

// --- SIM Swap ------------------------------------------------------------------------------------------------------

Given(/^the SIM for this phone number has been swapped(?: in the last (?:240 hours|"\d+"))?$/, function (this: W) {
  useNumber(this, NUMBERS.swappedRecently);
});
Given('the SIM for this phone number has been swapped more than 240 hours ago', function (this: W) {
  useNumber(this, NUMBERS.swappedLongAgo);
});
Given('the SIM for this phone number has never been swapped', function (this: W) {
  useNumber(this, NUMBERS.neverSwapped);
});
Given(/^the activation of the SIM occurred more than (?:240|"\d+") hours ago$/, function (this: W) { /* 1460 days */ });
Given(/^the (?:"maxAge" request body property|request body property "maxAge") is set to a value equal or greater than "(\d+)" within the allowed range$/, function (this: W, hours: string) {
  this.setProperty('$.maxAge', Number(hours));
});
Given(/^the request body property "maxAge" is set to a value less than "(\d+)" within the allowed range$/, function (this: W, hours: string) {
  this.setProperty('$.maxAge', Number(hours) - 1);
});
Given('the request body property "maxAge" is set to the number of hours since the last SIM swap minus 1', async function (this: W) {
  useNumber(this, NUMBERS.swappedLongAgo);
  const hours = await hoursSince(this, '/sim-swap/v2/retrieve-date', NUMBERS.swappedLongAgo, 'latestSimChange');
  this.setProperty('$.maxAge', Math.min(2400, Math.floor(hours) - 1));
});
Given('the last swap for this phone number\'s SIM was more than "maxAge" hours ago', function (this: W) { /* as measured above */ });
Given('the request body property "$.maxAge" is set to a valid value above the supported monitored period of the API Provider', function (this: W) {
  const days = Number(this.parameters.settings.SIM_SWAP_MONITORED_DAYS);
  assert.ok(days > 0, 'the deployment has no monitored period: set SIM_SWAP_MONITORED_DAYS (and tell the kit with --setting)');
  this.setProperty('$.maxAge', days * 24 + 1);
});
Given('the SIM for this phone number has been swapped before the limited history window threshold', function (this: W) {
  assert.ok(Number(this.parameters.settings.SIM_SWAP_MONITORED_DAYS) > 0, 'the deployment has no limited history window: set SIM_SWAP_MONITORED_DAYS');
  useNumber(this, NUMBERS.swappedLongAgo);
});
Given('the phone number is not associated to any sim card', function () {
  assert.fail('the demo fixture has no number without a SIM');
});
Then('the response property "$.latestSimChange" contains the sim\'s activation timestamp', async function (this: W) {
  expectDaysAgo(await latest(this, 'latestSimChange'), DAYS_AGO.simActivation);
});
Then(/^the response optionally contains the property "\$\.monitoredPeriod" with the value of monitored time frame \(in days\) supported by the MNO$/, async function (this: W) {
  const v = ((await this.response()).body as Record<string, unknown>).monitoredPeriod;
  if (v !== undefined) assert.equal(v, Number(this.parameters.settings.SIM_SWAP_MONITORED_DAYS ?? this.parameters.settings.DEVICE_SWAP_MONITORED_DAYS));
});

async function latest(w: W, property: string): Promise<string> {
  const v = ((await w.response()).body as Record<string, unknown>)[property];
  assert.ok(typeof v === 'string', `${property} is ${JSON.stringify(v)}`);
  return v;
}

/** A fixture date `now-<days>d`, taken when the simulator loaded: at most 30 days before the run began. */
function expectDaysAgo(date: string, days: number): void {
  const ago = (Date.now() - Date.parse(date)) / DAY;
  assert.ok(ago >= days - 1 && ago <= days + 30, `${date} is ${ago.toFixed(1)} days ago, not about ${days}`);
}

// --- Device Swap ---------------------------------------------------------------------------------------------------

Given(/^the device has been swapped(?: in the last (?:240 hours|"\d+"))?$/, function (this: W) {
  useNumber(this, NUMBERS.identity);
});
Given('the device has been swapped more than 240 hours ago', function (this: W) {
  useNumber(this, NUMBERS.forwarding);
});
Given('the device has never been swapped', function (this: W) {
  useNumber(this, NUMBERS.kana);
});
Given(/^the sim card has been associated with this device for more than (?:240|"\d+") hours$/, function (this: W) { /* 300 days */ });
Given('the last swap for this phone number\'s in the device is known', function (this: W) {
  useNumber(this, NUMBERS.forwarding);
});
Given('the request body property "maxAge" is set to a value lower that the last known device swap', async function (this: W) {
  const hours = await hoursSince(this, '/device-swap/v1/retrieve-date', NUMBERS.forwarding, 'latestDeviceChange');
  this.setProperty('$.maxAge', Math.min(2400, Math.floor(hours) - 1));
});
Given('the sim for that device has never been connected to the Operator\'s network', function (this: W) {
  useNumber(this, NUMBERS.noDevice);
});
Given('the last device swap occurred outside the monitoring period allowed by local regulation', function (this: W) {
  assert.ok(Number(this.parameters.settings.DEVICE_SWAP_MONITORED_DAYS) > 0, 'the deployment has no monitoring period: set DEVICE_SWAP_MONITORED_DAYS');
  useNumber(this, NUMBERS.forwarding);
});
Then('the response property "$.latestDeviceChange" contains the timestamp of the first time that the SIM is installed in the device', async function (this: W) {
  expectDaysAgo(await latest(this, 'latestDeviceChange'), DAYS_AGO.deviceFirstSeen);
});

// --- KYC Tenure and Number Recycling -------------------------------------------------------------------------------

Given('the request body property "$.tenureDate" is set to a valid past date in format RFC 3339 \\/ ISO 8601', function (this: W) {
  this.setProperty('$.tenureDate', isoDate(Date.now() - 30 * DAY));
});
Given('the mobile subscription has had a valid tenure since the provided tenure date', function (this: W) {
  useNumber(this, NUMBERS.neverSwapped);
});
Given('the mobile subscription hasn\'t had a valid tenure since the provided tenure date', function (this: W) {
  useNumber(this, NUMBERS.newSubscriber);
});
Given('the request body property "$.specifiedDate" is set to a date on which the user signed contracts with Service Provider', function (this: W) {
  this.setProperty('$.specifiedDate', isoDate(Date.now() - 365 * DAY));
});
Given('the same phone number was cancelled by the User A and is used by User B', function (this: W) {
  useNumber(this, NUMBERS.recycled);
});
Given('the request body property "$.specifiedDate" is set to a date on which the User A signed contracts with Service Provider', function (this: W) {
  this.setProperty('$.specifiedDate', isoDate(Date.now() - 365 * DAY));
});
Given('the request body is set to a valid parameter combination with property {string} set to {string}', function (this: W, path: string, value: string) {
  this.setProperty(path, value);
});

// --- Call Forwarding Signal ----------------------------------------------------------------------------------------

/** By the scenario's own tag: "not active" wants a number without forwarding, "active" one with. */
function callForwardingNumber(w: W): string | undefined {
  if (!w.op.operationId.includes('CallForwarding')) return undefined;
  if (/not_active/.test(w.tag)) return NUMBERS.noDevice;
  if (/_active_/.test(w.tag) && w.op.operationId === 'retrieveCallForwarding') return NUMBERS.kana;
  return NUMBERS.forwarding;
}

Given(/^the request body property "\$\.phoneNumber" is set to a valid phone number for which the call forwarding service status could be retrieved$/, function (this: W) {
  useNumber(this, callForwardingNumber(this) ?? NUMBERS.forwarding);
});
Given(/^the request body property "\$\.phoneNumber" is set to a valid phone number for which the (?:unconditional )?call forwarding status could not be retrieved$/, function (this: W) {
  useNumber(this, NUMBERS.unknown);
});
Given('the request body is set to a valid request body', function (this: W) {
  if (this.body === undefined || typeof this.body === 'string') this.body = defaultBody(this);
});
Given('the API Producer doesn\'t offer general information on the call forwarding service status', function (this: W) {
  assert.equal(this.parameters.settings.CALL_FORWARDING_LIST, 'false', 'the deployment offers the list operation: set CALL_FORWARDING_LIST=false');
});
Given(/^the endpoint is invoked$|^a new endpoint invocation is done$/, function (this: W) { /* the request below */ });
let limitedTokens: TokenSource | undefined;

/** Calls with the rate-limited partner's token until one is refused: the limit is reached, and the scenario's request is the next. */
Given(/^the number of endpoints calls (?:from any API Consumer )?is equal to the (?:business|server) limit$/, async function (this: W) {
  const client = this.parameters.rateLimitedClient;
  assert.ok(client, 'exhausting a rate limit needs a partner of its own, or every later scenario is throttled: pass --rate-limited-client');
  // One token source for the run: the token endpoint spends the same partner's limit, so the token is fetched once, before it is exhausted.
  limitedTokens ??= new TokenSource({ tokenUrl: this.parameters.tokenUrl, clientId: client.id, clientSecret: client.secret });
  const token = await limitedTokens.twoLegged(['call-forwarding-signal:unconditional-call-forwardings:read', 'call-forwarding-signal:call-forwardings:read']);
  this.auth = { kind: 'bearer', token };
  for (let i = 0; i < 200; i++) {
    const reply = await this.send();
    if (reply.status === 429) return;
  }
  assert.fail('200 calls and no 429: the partner named by --rate-limited-client has no small rate limit');
});

// --- KYC Match -----------------------------------------------------------------------------------------------------

function record(w: W): Record<string, string> {
  return w.phoneNumber === NUMBERS.kana ? RECORDS.kana : RECORDS.identity;
}

/** The record's own values for a few attributes: a combination that matches. */
Given(/^the request body is set to a valid parameter combination( without property "\$\.idDocument")?$/, function (this: W, without?: string) {
  const r = record(this);
  for (const name of ['givenName', 'familyName', 'birthdate']) if (r[name] !== undefined) this.setProperty(name, r[name]);
  if (!without && idDocumentRequired(this)) this.setProperty('idDocument', r.idDocument);
});

/** Where the deployment requires an idDocument (KYC_MATCH_ID_DOCUMENT_REQUIRED), a valid combination holds the record's. */
function idDocumentRequired(w: W): boolean {
  return w.parameters.settings.KYC_MATCH_ID_DOCUMENT_REQUIRED === 'true';
}
Given(/^the request body property "([^"]+)" is set to a valid value that complies with the OAS schema at "[^"]+"$/, function (this: W, path: string) {
  const name = propertyName(path);
  useNumber(this, isKana(name) ? NUMBERS.kana : NUMBERS.identity);
  this.setProperty(name, record(this)[name]);
});
Given(/^the request body is set to a valid parameter combination with property "([^"]+)" set to a valid formatted value that (does not match|does perfectly match) the value stored in the MNO system$/,
  function (this: W, path: string, how: string) {
    const name = propertyName(path);
    useNumber(this, isKana(name) ? NUMBERS.kana : NUMBERS.identity);
    this.body = { phoneNumber: this.phoneNumber };
    if (idDocumentRequired(this) && name !== 'idDocument' && record(this).idDocument !== undefined) this.setProperty('idDocument', record(this).idDocument);
    this.setProperty(name, how === 'does not match' ? MISMATCH[name] : record(this)[name]);
  });
Given('the request body contains valid required properties', function (this: W) {
  this.body = { phoneNumber: this.phoneNumber ?? NUMBERS.identity };
});
Given('the request body contains a random combination of valid optional parameters, including, but not limited to, idDocument, name, givenName, address, country, birthdate, email fields', function (this: W) {
  const r = record(this);
  for (const name of ['idDocument', 'name', 'givenName', 'address', 'country', 'birthdate', 'email']) this.setProperty(name, r[name]);
});
Given('the request body property "$.idDocument" is set to a valid identity document associated with the identified phoneNumber', function (this: W) {
  this.setProperty('idDocument', record(this).idDocument);
});
Given('the request body property "$.idDocument" is set to a valid idDocument that is not associated with the identified phone number', function (this: W) {
  this.setProperty('idDocument', MISMATCH.idDocument);
});
Given('the request body contains only the property "$.phoneNumber"', function (this: W) {
  this.body = { phoneNumber: this.phoneNumber ?? NUMBERS.identity };
});
