import assert from 'node:assert/strict';
import { Fraction } from '../../src/domains/verifications/structure/fraction';
import { quota } from '../../src/http/share-format';
import { createViews } from '../../src/http/views';

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

  it('is the "quota" filter of the pages', () => {
    const env = createViews();
    assert.equal(env.renderString('{{ 25.0000125 | quota }} {{ v | quota(soglia=30) }} {{ n | quota(vuoto="n.d.") }}', { v: 29.99999, n: null }), '25,0000125% 29,99999% n.d.');
  });

});
