import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IVMS101_SCHEMA_FILE, validateIvms101 } from '../../src/domains/verifications/travel-rule/ivms101.validate';
import { ivms101Payload } from '../helpers/travel-rule-fixture';

const SHARED = join(process.cwd(), '..', 'shared', 'data', 'regulatory', 'ivms101');
const LOG = readFileSync(join(SHARED, 'VALIDATION.log'), 'utf8');

/**
 * The sample payloads of the shared data against the Global Travel Rule schema, with the outcome
 * the shared VALIDATION.log records for that schema (ajv 8, draft-07, allErrors): valid or not,
 * and each field the log names as a JSON pointer among the fields our problem names.
 */
function expectations(): { file: string; valid: boolean; pointers: string[] }[] {
  const section = LOG.split('## schema: ')[1]!;
  assert.ok(section.startsWith('global-travel-rule/json/schema/json-schema.json'), 'the log\'s first section is the Global Travel Rule schema');
  return section.split('\n').slice(1).filter((l) => /^(VALID|INVALID) /.test(l)).map((line) => {
    const [head, errors = ''] = line.split(' :: ');
    const file = head!.replace(/^(VALID|INVALID)\s+/, '').trim();
    const pointers = errors.replace(/\s*\(\+\d+ more\)\s*$/, '').split(' | ').filter((e) => e.trim()).map((e) => {
      const required = /^\s*(\S*) must have required property '([^']+)'/.exec(e);
      if (required) return `/ivms101${required[1]}/${required[2]}`;
      return `/ivms101${/^\s*(\S+) must/.exec(e)![1]}`;
    });
    return { file, valid: line.startsWith('VALID '), pointers };
  });
}

describe('IVMS101 validation against the Global Travel Rule JSON schema', () => {
  it('uses the copied schema, byte for byte the shared one', () => {
    const hash = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');
    assert.equal(hash(IVMS101_SCHEMA_FILE), hash(join(SHARED, 'global-travel-rule', 'json', 'schema', 'json-schema.json')));
    assert.equal(hash(IVMS101_SCHEMA_FILE), 'b11db19473bc0bfa95795ea8b3170cf7602c014060163a8d6fcfa135befacc62');
  });

  const cases = expectations();
  it('the log lists the samples it checked against this schema', () => assert.ok(cases.length >= 7, `${cases.length} samples`));

  for (const c of cases) {
    it(`${c.file}: ${c.valid ? 'valid' : 'invalid'} as VALIDATION.log says, naming each field it names`, () => {
      const r = validateIvms101(JSON.parse(readFileSync(join(SHARED, c.file), 'utf8')));
      assert.equal(r.valid, c.valid);
      if (r.valid) return;
      const paths = r.errors.map((e) => e.path);
      for (const p of c.pointers) assert.ok(paths.includes(p), `${p} not among ${paths.join(', ')}`);
      for (const e of r.errors) {
        assert.match(e.path, /^\/ivms101(\/[^/]+)*$/, 'a JSON pointer from the request body');
        assert.ok(e.message.length > 10 && !/must /.test(e.message), `an Italian message: ${e.message}`);
      }
    });
  }

  it('explains the schema\'s ASCII-only rule, the country code and the registration authority in Italian', () => {
    const sample = JSON.parse(readFileSync(join(SHARED, 'global-travel-rule/json/example/complete-example.json'), 'utf8'));
    const r = validateIvms101(sample);
    assert.equal(r.valid, false);
    const byPath = Object.fromEntries(!r.valid ? r.errors.map((e) => [e.path, e.message]) : []);
    assert.match(byPath['/ivms101/beneficiary/beneficiaryPersons/0/legalPerson/geographicAddress/0/buildingName']!, /solo lettere senza accenti, cifre, apostrofo e spazio, da 1 a 16 caratteri/);
    // The same sample with the one field fixed passes: the schema is applied as published, nothing else.
    sample.beneficiary.beneficiaryPersons[0].legalPerson.geographicAddress[0].buildingName = 'Town House';
    assert.deepEqual(validateIvms101(sample), { valid: true });
    const bad = ivms101Payload() as any;
    bad.originator.originatorPersons[0].naturalPerson.countryOfResidence = 'Italia';
    bad.originator.originatorPersons[0].naturalPerson.nationalIdentification.registrationAuthority = 'CCIAA MI';
    bad.originator.originatorPersons[0].naturalPerson.geographicAddress[0].townName = 'Forlì';
    const r2 = validateIvms101(bad);
    assert.equal(r2.valid, false);
    const m = Object.fromEntries(!r2.valid ? r2.errors.map((e) => [e.path, e.message]) : []);
    const base = '/ivms101/originator/originatorPersons/0/naturalPerson';
    assert.match(m[`${base}/countryOfResidence`]!, /ISO 3166-1 alpha-2/);
    assert.match(m[`${base}/nationalIdentification/registrationAuthority`]!, /RA seguito da 6 cifre/);
    assert.match(m[`${base}/geographicAddress/0/townName`]!, /senza accenti/);
  });

  it('the test payload is valid, and a payload that is not an object is refused as a whole', () => {
    assert.deepEqual(validateIvms101(ivms101Payload()), { valid: true });
    assert.deepEqual(validateIvms101([]), { valid: false, errors: [{ path: '/ivms101', message: 'Il messaggio IVMS101 deve essere un oggetto JSON' }] });
    const r = validateIvms101({ originator: { originatorPersons: 'x' } });
    assert.equal(r.valid, false);
    const paths = !r.valid ? r.errors.map((e) => e.path) : [];
    assert.ok(paths.includes('/ivms101/originator/originatorPersons'));
    assert.ok(paths.includes('/ivms101/originator/accountNumber'));
    assert.ok(paths.includes('/ivms101/beneficiaryVASP'));
  });
});
