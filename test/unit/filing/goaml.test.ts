import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadJurisdiction, type LoadedJurisdiction } from '../../../src/domains/filing/goaml/jurisdiction-loader';
import { renderAndValidate } from '../../../src/domains/filing/goaml/package';
import { parseReportXml, renderReportXml, type GoamlNode } from '../../../src/domains/filing/goaml/report-xml';
import { parseReturnFile, ReturnFileError } from '../../../src/domains/filing/goaml/return-file';
import { businessRules, RULE_CODES } from '../../../src/domains/filing/goaml/rules';
import { validateManyAgainstSchema } from '../../../src/domains/filing/goaml/schema-validator';

const GOAML = join(process.cwd(), '..', 'shared', 'data', 'regulatory', 'goaml');
const UAE = join(GOAML, 'vyttah-uae-5.0.2');
const SAMPLES = ['golden', 'samples'].flatMap((d) => readdirSync(join(UAE, d)).map((f) => join(d, f)));
const tx0 = (r: GoamlNode) => (r.transaction as GoamlNode[])[0]!;
const clone = <T>(v: T): T => structuredClone(v);
const codes = (fs: { code: string }[]) => fs.map((f) => f.code);
const has = (list: unknown[], item: unknown) => assert.ok(list.some((x) => isDeepStrictEqual(x, item)), `${JSON.stringify(item)} not in ${JSON.stringify(list)}`);

describe('goAML library (ae-goaml-5.0.2)', function () {
  this.timeout(120_000);
  let j: LoadedJurisdiction;
  const parsed = new Map<string, GoamlNode>();
  before(async () => {
    j = await loadJurisdiction(GOAML, 'ae-goaml-5.0.2');
    for (const f of SAMPLES) parsed.set(f, parseReportXml(j.model, readFileSync(join(UAE, f), 'utf8')));
  });
  const str = () => clone(parsed.get('golden/STR.xml')!);
  const sar = () => clone(parsed.get('golden/SAR.xml')!);

  it('covers every sample kind in shared data (7 report codes, bi-party transactions and activities)', () => {
    assert.equal(SAMPLES.length, 10);
    assert.deepEqual([...new Set([...parsed.values()].map((r) => r.report_code))].sort(), ['AIF', 'AIFT', 'DPMSR', 'ECDD', 'ECDDT', 'SAR', 'STR']);
  });

  it('renders every sample from its structured content, valid against the XSD (one validator run) and the business rules', async () => {
    const rendered = SAMPLES.map((f) => renderReportXml(j.model, parsed.get(f)!));
    const schema = await validateManyAgainstSchema(j.model, j.schemaText, rendered.map((r) => r.xml));
    SAMPLES.forEach((f, i) => {
      const report = parsed.get(f)!;
      assert.deepEqual(rendered[i]!.unknown, [], f);
      assert.deepEqual(businessRules(j.config, j.codeLists, report), [], f);
      assert.deepEqual(schema[i], [], f);
      // Round trip: the rendered package reads back to the same content.
      assert.deepEqual(parseReportXml(j.model, rendered[i]!.xml), report, f);
    });
    // The batch keeps each report's own errors apart.
    const broken = structuredClone(parsed.get('golden/SAR.xml')!);
    broken.submission_date = 'soon';
    const mixed = await validateManyAgainstSchema(j.model, j.schemaText, [rendered[0]!.xml, renderReportXml(j.model, broken).xml]);
    assert.deepEqual(mixed[0], []);
    assert.deepEqual(mixed[1]!.map((x) => x.path), ['submission_date']);
  });

  it('writes fields in schema order whatever the order of the content', async () => {
    const report = str();
    const shuffled = Object.fromEntries(Object.entries(report).reverse()) as GoamlNode;
    assert.equal(renderReportXml(j.model, shuffled).xml, renderReportXml(j.model, report).xml);
  });

  it('renders a multi-party transaction valid against the XSD', async () => {
    const report = str();
    const tx = tx0(report);
    const from = (tx.t_from_my_client as GoamlNode).from_person as GoamlNode;
    const to = (tx.t_to as GoamlNode).to_person as GoamlNode;
    delete tx.t_from_my_client; delete tx.t_to;
    tx.involved_parties = { party: [
      { role: 'SELL', person_my_client: from, funds_code: 'CASH', country: 'AE', significance: '7' },
      { role: 'BUY', person: to, funds_code: 'BANKD', country: 'GB', significance: '5' },
    ] };
    const verdict = await renderAndValidate(j, report);
    assert.deepEqual(verdict.findings, []);
  });

  it('maps a schema error to the path of its field (the validator is libxml2, not a hand check)', async () => {
    const report = str();
    tx0(report).date_transaction = 'yesterday';
    const verdict = await renderAndValidate(j, report);
    assert.equal(verdict.valid, false);
    has(verdict.findings.map((f) => [f.code, f.path, f.source]), ['GOAML_SCHEMA_INVALID', 'transaction[0].date_transaction', 'schema']);
  });

  it('reports a field the schema does not know, with its path', async () => {
    const report = str();
    (report.reporting_person as GoamlNode).nickname = 'S';
    const verdict = await renderAndValidate(j, report);
    has(verdict.findings.map((f) => [f.code, f.path]), [RULE_CODES.UNKNOWN_FIELD, 'reporting_person.nickname']);
  });

  describe('business rules', () => {
    const rules = (r: GoamlNode) => businessRules(j.config, j.codeLists, r);

    it('a report carries transactions or an activity', () => {
      const r = str(); delete r.transaction;
      has(codes(rules(r)), RULE_CODES.NO_TRANSACTION_OR_ACTIVITY);
      const both = str(); both.activity = sar().activity!;
      has(codes(rules(both)), RULE_CODES.TRANSACTION_AND_ACTIVITY);
    });
    it('the report code decides transaction or activity', () => {
      const r = str(); r.report_code = 'SAR';
      assert.equal(rules(r).find((f) => f.code === RULE_CODES.KIND_MISMATCH)?.path, 'activity');
      const u = str(); u.report_code = 'CTR';
      has(rules(u).map((f) => [f.code, f.path]), [RULE_CODES.REPORT_CODE_UNKNOWN, 'report_code']);
    });
    it('a transaction is bi-party with both sides, or multi-party with two parties, never both', () => {
      const half = str(); delete tx0(half).t_to;
      has(rules(half).map((f) => [f.code, f.path]), [RULE_CODES.BI_PARTY_INCOMPLETE, 'transaction[0]']);
      const mixed = str(); tx0(mixed).involved_parties = { party: [{ role: 'BEN' }] };
      has(codes(rules(mixed)), RULE_CODES.PARTIES_MIXED);
      const one = str(); const tx = tx0(one);
      delete tx.t_from_my_client; delete tx.t_to; tx.involved_parties = { party: [{ role: 'BEN' }] };
      has(rules(one).map((f) => [f.code, f.path]), [RULE_CODES.MULTI_PARTY_TOO_FEW, 'transaction[0].involved_parties']);
    });
    it('an activity names a party', () => {
      const r = sar(); (r.activity as GoamlNode).report_parties = { report_party: [] };
      has(codes(rules(r)), RULE_CODES.ACTIVITY_NO_PARTIES);
    });
    it('indicators are present', () => {
      const r = str(); delete r.report_indicators;
      has(rules(r).map((f) => [f.code, f.path]), [RULE_CODES.NO_INDICATORS, 'report_indicators']);
    });
    it('amounts are positive', () => {
      for (const bad of ['0', '-5.00', 'abc']) {
        const r = str(); tx0(r).amount_local = bad;
        has(rules(r).map((f) => [f.code, f.path]), [RULE_CODES.AMOUNT_NOT_POSITIVE, 'transaction[0].amount_local']);
      }
    });
    it('codes come from the jurisdiction lookups (loaded as data)', () => {
      const r = str();
      (r.report_indicators as GoamlNode).indicator = ['STRUC', 'NOPE'];
      (tx0(r).t_to as GoamlNode).to_country = 'XX';
      tx0(r).transmode_code = 'TELEPORT';
      const found = rules(r).filter((f) => f.code === RULE_CODES.CODE_UNKNOWN).map((f) => f.path);
      assert.deepEqual(found, ['transaction[0].transmode_code', 'transaction[0].t_to.to_country', 'report_indicators.indicator[1]']);
      assert.equal(j.codeLists.indicators?.size, 423);
    });
    it('mandatory fields of the jurisdiction', () => {
      const r = str(); delete r.reporting_person; r.entity_reference = ' ';
      const paths = rules(r).filter((f) => f.code === RULE_CODES.FIELD_REQUIRED).map((f) => f.path);
      assert.deepEqual(paths, ['entity_reference', 'reporting_person']);
    });
  });

  describe('return files', () => {
    it('reads an acknowledgement', () => {
      const r = parseReturnFile(`<?xml version="1.0"?><report_return><entity_reference>STR-1</entity_reference>
        <fiu_ref_number>FIU-9</fiu_ref_number><status>ACCEPTED</status><status_date>2026-05-27T09:00:00</status_date></report_return>`);
      assert.deepEqual(r, { outcome: 'acknowledged', entityReference: 'STR-1', fiuRefNumber: 'FIU-9', statusDate: '2026-05-27T09:00:00', errors: [] });
    });
    it('reads a rejection with its errors', () => {
      const r = parseReturnFile(`<report_return><entity_reference>STR-1</entity_reference><status>Rejected</status>
        <errors><error><code>E102</code><field>transaction[0].amount_local</field><message>Amount mismatch</message></error>
        <error><code>E7</code><message>Late</message></error></errors></report_return>`);
      assert.equal(r.outcome, 'returned');
      assert.deepEqual(r.errors, [
        { code: 'E102', path: 'transaction[0].amount_local', message: 'Amount mismatch', source: 'return' },
        { code: 'E7', path: '', message: 'Late', source: 'return' },
      ]);
    });
    it('refuses what is not a return file, with a stable code', () => {
      const cases: [string, string][] = [
        ['not xml <', 'RETURN_NOT_XML'], ['<report/>', 'RETURN_NOT_GOAML'],
        ['<report_return><entity_reference>X</entity_reference><status>maybe</status></report_return>', 'RETURN_STATUS_UNKNOWN'],
        ['<report_return><status>ACCEPTED</status></report_return>', 'RETURN_FIELD_MISSING'],
      ];
      for (const [xml, code] of cases) {
        assert.throws(() => parseReturnFile(xml), (e) => e instanceof ReturnFileError && e.code === code);
      }
    });
  });
});
