import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allLists, SANCTIONS_DIR } from './lists-fixture';
import { parseUkXlsx } from '../../../src/domains/screening/lib/importers/uk-xlsx';
import { parseEuXml } from '../../../src/domains/screening/lib/importers/eu-xml';
import { parseOfacRemarks } from '../../../src/domains/screening/lib/importers/ofac-remarks';
import { parseLooseDates } from '../../../src/domains/screening/lib/importers/dates';
import { parseCryptoUnion } from '../../../src/domains/screening/lib/importers/crypto';
import { loadOpenSanctionsFixtures } from '../../../src/domains/screening/lib/load-all';
import { diffLists, entryHash } from '../../../src/domains/screening/lib/diff-lists';
import type { ListEntry } from '../../../src/domains/screening/lib/types';

const byId = (entries: ListEntry[], id: string) => {
  const e = entries.find((x) => x.id === id);
  assert.ok(e, `${id} missing`);
  return e;
};
const schemaCounts = (entries: ListEntry[]) => entries.reduce<Record<string, number>>((a, e) => ({ ...a, [e.schema]: (a[e.schema] ?? 0) + 1 }), {});

describe('screening importers (real list files)', function () {
  this.timeout(60_000);

  it('OFAC 2021-07 legacy CSV set: entries, alt.csv aliases, add.csv addresses, remarks', async () => {
    const ofac = (await allLists()).lists.us_ofac_sdn_2021_07!;
    assert.equal(ofac.length, 8976);
    assert.equal(ofac.reduce((n, e) => n + e.aliases.filter((a) => a.quality === 'strong').length, 0), 11910);
    assert.equal(ofac.reduce((n, e) => n + e.addresses.length, 0) + allNullAddressRows(), 13837);
    const binLadin = byId(ofac, 'ofac:6365');
    assert.equal(binLadin.schema, 'Person');
    assert.ok(binLadin.aliases.some((a) => a.name === 'BIN LADEN, Osama'));
    assert.deepEqual(binLadin.birthDates, ['1957-07-30', '1958']);
    const bnc = byId(ofac, 'ofac:306');
    assert.ok(bnc.aliases.some((a) => a.name === 'BNC' && a.quality === 'weak'));
    assert.ok(bnc.addresses.some((a) => a.text.includes('Zurich') && a.country === 'ch'));
    const andreyev = byId(ofac, 'ofac:29703');
    assert.equal(andreyev.gender, 'male');
    assert.deepEqual(andreyev.nationalities, ['ru']);
    assert.ok(andreyev.identifiers.some((i) => i.type === 'Passport' && i.value === '4005504207' && i.country === 'ru'));
    // The crypto addresses after the sdn.csv cut come from sdn_comments.csv.
    assert.ok(andreyev.cryptoAddresses.some((c) => c.currency === 'ETH' && c.address === '0x8576acc5c05d6ce88f4e49bf65bdf0c62f91353c'));
    assert.ok(andreyev.cryptoAddresses.some((c) => c.currency === 'ZEC'));
  });

  it('OFAC 2024-05 sdn.csv: counts per type and parsed remarks', async () => {
    const ofac = (await allLists()).lists.us_ofac_sdn_2024_05!;
    assert.equal(ofac.length, 14965);
    assert.deepEqual(schemaCounts(ofac), { Organization: 6884, Person: 6854, Vessel: 851, Aircraft: 376 });
    const atabiyev = byId(ofac, 'ofac:18652');
    assert.deepEqual(atabiyev.birthDates, ['1983-06-29']);
    assert.ok(atabiyev.aliases.some((a) => a.name === 'AL-SHISHANI, Abu-Jihad' && a.quality === 'weak'));
    assert.ok(atabiyev.identifiers.some((i) => i.type === 'Passport' && i.value === '620169661'));
    const vtb = byId(ofac, 'ofac:17013');
    assert.ok(vtb.identifiers.some((i) => i.type === 'SWIFT/BIC' && i.value === 'VTBRRUMM'));
    assert.ok(ofac.filter((e) => e.schema === 'Vessel').some((e) => e.identifiers.some((i) => i.type === 'IMO' && /^\d{7}$/.test(i.value))));
  });

  it('UN consolidated XML: 730 individuals and 273 entities with aliases, DOBs, documents', async () => {
    const un = (await allLists()).lists.un_sc_sanctions!;
    assert.deepEqual(schemaCounts(un), { Person: 730, Organization: 273 });
    const badege = byId(un, 'un:CDi.001');
    assert.equal(badege.name, 'ERIC BADEGE');
    assert.deepEqual(badege.birthDates, ['1971']);
    assert.deepEqual(badege.nationalities, ['cd']);
    const hamza = byId(un, 'un:QDi.421');
    assert.ok(hamza.aliases.some((a) => a.type === 'original-script' && a.name.includes('لادن')));
    const adf = byId(un, 'un:CDe.001');
    assert.ok(adf.aliases.some((a) => a.name === 'Allied Democratic Forces'));
  });

  it('UK OFSI xlsx: 18,796 name rows grouped into 4,686 targets', async () => {
    const { entries, stats } = await parseUkXlsx(join(SANCTIONS_DIR, 'uk', 'UK_ConList_2025-04-10.xlsx'));
    assert.deepEqual(stats, { nameRows: 18796, targets: 4686 });
    assert.equal(entries.length, 4686);
    const putin = byId(entries, 'uk:14196');
    assert.equal(putin.name, 'Vladimir Vladimirovich PUTIN');
    assert.deepEqual(putin.birthDates, ['1952-10-07']);
    assert.deepEqual(putin.nationalities, ['ru']);
    assert.ok(putin.aliases.some((a) => a.name === 'Владимир Владимирович Путин'));
    const haq = byId(entries, 'uk:15672');
    assert.ok(haq.aliases.some((a) => a.name === 'Mian MITHU'));
  });

  it('OpenSanctions FtM: entities, resolved addresses and programmes, deltas applied in order', async () => {
    const os = loadOpenSanctionsFixtures(join(SANCTIONS_DIR, 'opensanctions', 'yente_fixtures'));
    const osetrova = byId(os, 'os:NK-2Tbri3s6GgNtAwsSXh4qpL');
    assert.equal(osetrova.schema, 'Person');
    assert.deepEqual(osetrova.birthDates, ['1988-01-07']);
    assert.ok(osetrova.aliases.some((a) => a.name === 'Мария Александровна Осетрова'));
    assert.equal(osetrova.gender, 'female');
    assert.ok(os.every((e) => ['Person', 'Company', 'Organization', 'Vessel', 'Aircraft', 'Unknown'].includes(e.schema)));
    assert.ok(os.some((e) => e.id === 'os:Q4365364'), 'entity added by the last delta');
    assert.ok(!os.some((e) => e.id === 'os:NK-500Poltergeist'), 'entity deleted by a delta');
  });

  it('EU FSF XML (project-written sample in the published format)', () => {
    const eu = parseEuXml(readFileSync(new URL('./fixtures/eu-fsf-sample.xml', import.meta.url)));
    assert.equal(eu.length, 2);
    const saddam = byId(eu, 'eu:13');
    assert.equal(saddam.schema, 'Person');
    assert.deepEqual(saddam.birthDates, ['1937-04-28']);
    assert.deepEqual(saddam.nationalities, ['iq']);
    assert.equal(saddam.gender, 'male');
    assert.ok(saddam.aliases.every((a) => a.quality === 'weak'));
    assert.ok(saddam.identifiers.some((i) => i.value === 'A1234567'));
    assert.equal(byId(eu, 'eu:8282').schema, 'Company');
  });

  it('OFAC crypto addresses: 757 unique currency/address pairs', async () => {
    const crypto = (await allLists()).lists.us_ofac_crypto!;
    assert.equal(crypto.reduce((n, e) => n + e.cryptoAddresses.length, 0), 757);
    const union = parseCryptoUnion(readFileSync(join(SANCTIONS_DIR, 'crypto', 'ofac_crypto_addresses_union.txt'), 'utf8'));
    assert.equal(union.length, 757);
    const yan = byId(crypto, 'ofac:25308');
    assert.ok(yan.cryptoAddresses.some((c) => c.address === '12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h'));
  });

  it('remark and date parsing', () => {
    const r = parseOfacRemarks("DOB 1962 to 1964; alt. DOB circa 1951; nationality Korea, North; Gender Female; a.k.a. 'X Y'; Vessel Registration Identification IMO 9187629; Digital Currency Address - XBT 1abcDEF; Linked To: FOO.");
    assert.deepEqual(r.birthDates, ['1962', '1963', '1964', '1951']);
    assert.deepEqual(r.nationalities, ['kp']);
    assert.equal(r.gender, 'female');
    assert.deepEqual(r.aliases, [{ name: 'X Y', type: 'aka', quality: 'weak' }]);
    assert.deepEqual(r.identifiers, [{ type: 'IMO', value: '9187629' }]);
    assert.deepEqual(r.cryptoAddresses, [{ currency: 'XBT', address: '1abcDEF' }]);
    assert.deepEqual(r.linkedTo, ['FOO']);
    assert.deepEqual(parseLooseDates('00/00/1994'), ['1994']);
    assert.deepEqual(parseLooseDates('22/08/1990'), ['1990-08-22']);
    assert.deepEqual(parseLooseDates('Dec 1948'), ['1948-12']);
  });

  it('diffLists finds added, modified and removed entries by content hash', async () => {
    const l = await allLists();
    const d = diffLists(l.lists.us_ofac_sdn_2021_07!, l.lists.us_ofac_sdn_2024_05!);
    assert.equal(d.added.length + d.modified.length + d.unchanged, 14965);
    assert.equal(d.removed.length + d.modified.length + d.unchanged, 8976);
    assert.ok(d.added.length > 5000 && d.removed.length > 0);
    const base = l.lists.un_sc_sanctions!.slice(0, 3);
    const changed = { ...base[1]!, birthDates: ['1999'] };
    const small = diffLists(base, [base[0]!, changed, { ...base[2]!, id: 'un:new' }]);
    assert.deepEqual(small.added.map((e) => e.id), ['un:new']);
    assert.deepEqual(small.modified.map((m) => m.after.id), [base[1]!.id]);
    assert.deepEqual(small.removed.map((e) => e.id), [base[2]!.id]);
    assert.equal(entryHash({ ...base[0]!, list: 'other' }), entryHash(base[0]!), 'list name is not content');
  });
});

/** add.csv rows whose every field is null ("-0-") produce no address. */
function allNullAddressRows(): number {
  const text = readFileSync(join(SANCTIONS_DIR, 'ofac-2021-07', 'add.csv'), 'latin1');
  return text.split('\r\n').filter((l) => /^\d+,\d+,-0- ,-0- ,-0- ,-0- $/.test(l)).length;
}
