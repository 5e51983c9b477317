import assert from 'node:assert/strict';
import { Fraction } from '../../src/domains/verifications/structure/fraction';
import { computeUbo } from '../../src/domains/verifications/structure/ubo.engine';
import { valueText } from '../../src/domains/verifications/console/console.declared';
import { quota } from '../../src/http/share-format';
import { createViews } from '../../src/http/views';
import { G } from './ubo.fixture';

/**
 * The one share formatter (src/http/share-format.ts): Italian decimals, and a share a hair off the
 * threshold never reads as the threshold, since the owner test is strict on exact fractions.
 */
describe('share formatter: a share near the threshold never reads as the threshold', () => {
  it('exactly 25 is "25%"; ordinary shares keep up to 4 decimals with a comma', () => {
    assert.equal(quota(25), '25%');
    assert.equal(quota(50), '50%');
    assert.equal(quota(33.3333), '33,3333%');
    assert.equal(quota(12.5), '12,5%');
    assert.equal(quota(0), '0%');
    assert.equal(quota(100), '100%');
    assert.equal(quota('25.0000'), '25%', 'a numeric column as text');
    assert.equal(quota(null), '—');
    assert.equal(quota(undefined, 25, ''), '');
  });

  it('just above or below 25 shows the digits that tell it apart', () => {
    assert.equal(quota(25.0000125), '25,0000125%');
    assert.equal(quota(24.9999999), '24,9999999%');
    assert.equal(quota(24.99999), '24,99999%');
    assert.equal(quota(25.00004), '25,00004%');
    assert.equal(quota(25.00005), '25,0001%', 'rounding to 4 decimals already reads above 25');
  });

  it('reads exact fractions of 1 (the engine\'s): exact digits when they end, else enough to differ, else "> 25%"', () => {
    assert.equal(quota(new Fraction(15n, 22n)), '68,1818%');
    assert.equal(quota(Fraction.fromPercent(66.6667).mul(Fraction.fromPercent(37.5))), '25,0000125%');
    assert.equal(quota(new Fraction(750_000_001n, 3_000_000_000n)), '25,00000003%', '25 + 1/3·10^-7: no end to its digits');
    assert.equal(quota(new Fraction(10n ** 15n + 1n, 4n * 10n ** 15n)), '> 25%');
    assert.equal(quota(new Fraction(10n ** 15n - 1n, 4n * 10n ** 15n)), '< 25%');
  });

  it('guards the threshold it is given: the calculation\'s own', () => {
    assert.equal(quota(30.00001, 30), '30,00001%');
    assert.equal(quota(25.00001, 30), '25%', 'far from a threshold of 30, four decimals are enough');
  });

  it('declared shares too: the KYB page\'s declared owners read 25,001%, not 25%', () => {
    assert.equal(valueText('percentuale', 25.001), '25,001%');
    assert.equal(valueText('percentuale', '24.9999'), '24,9999%');
    assert.equal(valueText('percentuale', 60), '60%');
  });

  it('is the "quota" filter of the pages', () => {
    const env = createViews();
    assert.equal(env.renderString('{{ 25.0000125 | quota }} {{ v | quota(soglia=30) }} {{ n | quota(vuoto="n.d.") }}', { v: 29.99999, n: null }), '25,0000125% 29,99999% n.d.');
  });

  it('the engine\'s owners, paths and texts: 66,6667% × 37,5% is an owner at 25,0000125%, 66,6666% × 37,5% is not one at 24,999975%', () => {
    const g = new G().root('R').person('P', 'Q', 'Z').entity('A').entity('B')
      .holds('P', 'A', 66.6667).holds('A', 'R', 37.5).holds('Q', 'B', 66.6666).holds('B', 'R', 37.5).holds('Z', 'R', 25);
    const r = computeUbo(g.graph, { soglia: 25 });
    const p = r.moltiplicativo.titolari.find((o) => o.nodo_id === 'P')!;
    assert.equal(p.percentuale, 25, 'the number is rounded to 4 decimals...');
    assert.equal(p.frazione, '2000001/8000000', '...the fraction is exact');
    assert.match(p.motivi[0]!.spiegazione, /Quota effettiva del 25,0000125% di R: .*= 25,0000125%, oltre la soglia del 25%\./);
    assert.ok(!r.moltiplicativo.titolari.some((o) => o.nodo_id === 'Q' || o.nodo_id === 'Z'), 'below, and exactly at, the threshold: not owners');
    const q = r.differenze.find((d) => d.nodo_id === 'Q')!;
    assert.match(q.spiegazione, /quota effettiva è 24,999975%, non superiore alla soglia del 25%/);
  });
});
