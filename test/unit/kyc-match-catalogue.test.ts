import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ATTRIBUTES, GENDERS, ID_DOCUMENT_TYPES } from '../../src/kyc-match/attribute-catalogue';
import { camaraFile } from '../support/camara-spec';
import { OpenApiSpec } from '../support/openapi-validator';

type Schema = Record<string, unknown>;

const spec = OpenApiSpec.load(camaraFile('kyc-match.yaml'), '/kyc-match/v0.4');
const requestProps = spec.resolve('#/components/schemas/KYC_MatchRequestBody').properties as Record<string, Schema>;
const responseProps = Object.keys(spec.resolve('#/components/schemas/KYC_MatchResponse').properties as Schema);

describe('KYC Match attribute catalogue against the official kyc-match.yaml', () => {
  it('when the catalogue is listed, then it holds the request body\'s properties besides phoneNumber, in the yaml\'s order', () => {
    expect(ATTRIBUTES.map((a) => a.name)).toEqual(Object.keys(requestProps).filter((p) => p !== 'phoneNumber'));
  });

  it('when an attribute is marked scored, then the yaml\'s response has <attr>MatchScore for it, and only then', () => {
    const scoredInYaml = responseProps.filter((p) => p.endsWith('MatchScore')).map((p) => p.slice(0, -'MatchScore'.length));
    expect(ATTRIBUTES.filter((a) => a.scored).map((a) => a.name)).toEqual(scoredInYaml);
    expect(responseProps.filter((p) => !p.endsWith('MatchScore'))).toEqual(ATTRIBUTES.map((a) => `${a.name}Match`));
  });

  it('when the yaml gives a property an enum or a format, then its comparison kind is enum, date or email accordingly', () => {
    for (const a of ATTRIBUTES) {
      const p = requestProps[a.name];
      const expected = p.enum ? 'enum' : p.format === 'date' ? 'date' : p.format === 'email' ? 'email' : undefined;
      if (expected !== undefined || a.kind === 'enum' || a.kind === 'date' || a.kind === 'email') expect([a.name, a.kind]).toEqual([a.name, expected]);
    }
    expect(requestProps.gender.enum).toEqual([...GENDERS]);
    expect(requestProps.idDocumentType.enum).toEqual([...ID_DOCUMENT_TYPES]);
  });

  it('when the yaml says a property is an ISO 3166-1 alpha-2 code, then it is compared as a country', () => {
    const isoInYaml = Object.entries(requestProps).filter(([, p]) => /ISO 3166-1 alpha-2/.test(String(p.description))).map(([n]) => n);
    expect(ATTRIBUTES.filter((a) => a.kind === 'country').map((a) => a.name)).toEqual(isoInYaml);
  });
});

describe('KYC Match module boundary', () => {
  it('when the kyc-match sources are read, then none imports a transport, store, metrics or logging library', () => {
    const dir = join(__dirname, '..', '..', 'src', 'kyc-match');
    const forbidden = /from '(express|graphql|axios|ioredis|bullmq|pg|prom-client|pino|opossum)(\/[^']*)?'/;
    const offenders = readdirSync(dir).filter((f) => f.endsWith('.ts')).filter((f) => forbidden.test(readFileSync(join(dir, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
