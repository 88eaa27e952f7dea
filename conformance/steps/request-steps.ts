import { Given, When } from '@cucumber/cucumber';
import { ConformanceWorld } from '../support/world';
import { defaultBody, invalidValue } from '../binding/demo-binding';

/*
 * Generic steps that describe the request: resource, headers, token kinds, body. Wording that
 * differs only by a typo across the official files is matched by one pattern. What a
 * scenario's stated condition means for the data ("a phone number whose SIM was swapped…") is
 * the binding's (binding/demo-binding.ts), never these steps'.
 */

type W = ConformanceWorld;

Given('an environment at {string}', function (this: W, _root: string) { /* the kit's --base-url */ });
Given(/^use BaseU[Rr]L$/, function (this: W) { /* the resource set in the background */ });
Given(/^the (?:resource|path) "([^"]+)"(?: as BaseURL)?$/, function (this: W, resource: string) {
  this.useResource(resource);
});

Given(/^the header "([^"]+)" is set to "([^"]*)"$/, function (this: W, name: string, value: string) {
  this.headers[name.toLowerCase()] = value;
});
Given(/^the header "([^"]+)" complies with the schema at "([^"]+)"$/, function (this: W, name: string, _schema: string) {
  this.headers[name.toLowerCase()] = this.newCorrelator();
});

// Token kinds.
Given(/^[Tt]he header "Authorization" is set to a valid access token$/, function (this: W) {
  this.auth = { kind: 'two-legged' };
});
Given(/^the header "Authorization" is set to a valid access(?: token)? which does not identify a single phone number$/, function (this: W) {
  this.auth = { kind: 'two-legged' };
});
Given(/^the header "Authorization" is (?:removed|not sent)$/, function (this: W) {
  this.auth = { kind: 'none' };
});
Given('the header "Authorization" is set to an expired access token', function (this: W) {
  this.auth = { kind: 'expired' };
});
Given(/^(?:the header "Authorization" is set to an invalid access token(?: which is invalid for reasons other than lifetime expiry)?|an invalid authentication token)$/, function (this: W) {
  this.auth = { kind: 'invalid' };
});
Given(/^(?:the header "Authorization" is set to an access token without the required scope|an access token with an invalid context)$/, function (this: W) {
  this.auth = { kind: 'other-scope' };
});

// The body.
Given('the request body is set by default to a request body compliant with the schema', function (this: W) {
  this.body = defaultBody(this);
  // The binding's body must be what the step says: compliant with the operation's request schema.
  const op = this.op;
  const schema = (op.spec.operation(op.method, op.path)?.requestBody as { content?: Record<string, { schema?: Record<string, never> }> } | undefined)
    ?.content?.['application/json']?.schema;
  if (schema) {
    const errors = op.spec.validate(schema, this.body, 'default body');
    if (errors.length > 0) throw new Error(`the binding's default body is not compliant with the schema: ${errors.join('; ')}`);
  }
});
Given('the request body is not included', function (this: W) {
  this.body = undefined;
});
Given('the request body is set to {string}', function (this: W, text: string) {
  this.body = text;
});
Given(/^the request body is set to any value which is not compliant with the OAS schema at "([^"]+)"$/, function (this: W, _schema: string) {
  // A JSON array: no CAMARA request body is one.
  this.body = '["not", "an", "object"]';
});
Given(/^the request body property "([^"]+)" is (?:not included|not set to a value|not setted)$/, function (this: W, path: string) {
  this.setProperty(path, undefined);
});
Given(/^the request body property "([^"]+)" is set to (-?\d+)$/, function (this: W, path: string, value: string) {
  this.setProperty(path, Number(value));
});
Given(/^the request body property "([^"]+)" is set to (true|false)$/, function (this: W, path: string, value: string) {
  this.setProperty(path, value === 'true');
});
/** A value the bound body already holds is valid (the default body's); a later condition step may choose another. */
Given(/^the request body property "([^"]+)" is set to a valid value compliant with the OAS schema at "([^"]+)"$/, function (this: W, _path: string, _schema: string) { /* default body */ });
Given(/^the request body property "([^"]+)" is set to a value that is not withing the range defined in OAS schema "([^"]+)"$/, function (this: W, path: string, _schema: string) {
  // Every CAMARA range here (ageThreshold 0–120, maxAge 1–2400) excludes a negative number.
  this.setProperty(path, -1);
});
Given(/^the request body property "([^"]+)" does not comply with the OAS schema at "([^"]+)"$/, function (this: W, path: string, _schema: string) {
  this.setProperty(path, invalidValue(path));
});
Given(/^the request body property "([^"]+)" is set to a value in the future$/, function (this: W, path: string) {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() + 5);
  this.setProperty(path, d.toISOString().slice(0, 10));
});
Given(/^the request body property "([^"]+)" is set to a value greater than the allowed range$/, function (this: W, path: string) {
  this.setProperty(path, 100_000);
});
Given(/^(?:the )?"([^"]+)" ?= ?"([^"]*)"$/, function (this: W, path: string, value: string) {
  // Subscriptions: `"$.types"="org…swapped"`; types is an array in the schema.
  this.setProperty(path, path === '$.types' ? [value] : value);
});

// Sending.
When('the request {string} is sent', function (this: W, operationId: string) {
  this.useOperation(operationId);
});
When('the HTTP {string} request is sent', function (this: W, method: string) {
  this.useMethod(method);
});
