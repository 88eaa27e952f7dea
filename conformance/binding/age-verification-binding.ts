import { Given } from '@cucumber/cucumber';
import { ConformanceWorld } from '../support/world';
import { NUMBERS, RECORDS } from './demo-data';

/*
 * KYC Age Verification's conditions on the demo data: the `identity` number's record (born
 * 1987-04-12) is old enough for 18 and too young for 120; the never-swapped number has no
 * customer record, so its age cannot be verified.
 */

type W = ConformanceWorld;

const ADULT = 18;
const OLDER_THAN_ANYONE = 120;

function useNumber(w: W, phoneNumber: string): void {
  w.phoneNumber = phoneNumber;
  if (w.auth.kind === 'three-legged') w.auth = { kind: 'three-legged', phoneNumber };
  else w.setProperty('$.phoneNumber', phoneNumber);
}

Given('the age information associated with the mobile subscription is equal or greater that the age threshold provided', function (this: W) {
  useNumber(this, NUMBERS.identity);
  this.setProperty('$.ageThreshold', ADULT);
});
Given('the age information associated with the mobile subscription is lower that the age threshold provided', function (this: W) {
  useNumber(this, NUMBERS.identity);
  this.setProperty('$.ageThreshold', OLDER_THAN_ANYONE);
});
Given('the API Provider cannot verify the age information', function (this: W) {
  useNumber(this, NUMBERS.neverSwapped);
});
/** An optional identity attribute: the bound record's own value (a value the schema allows; whether it matches only moves the score). */
Given(/^the request body optionally contains the property "\$\.(\w+)" with a value compliant with OAS schema at "[^"]+"$/, function (this: W, name: string) {
  const value = (RECORDS.identity as Record<string, string | undefined>)[name];
  if (value !== undefined) this.setProperty(`$.${name}`, value);
});
