import assert from 'node:assert/strict';
import { data, dataora, durata, etichetta, importo, numero, percentuale } from '../../src/http/format';
import { createViews } from '../../src/http/views';

// Intl separates an amount from its currency with a no-break space.
const nb = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('Italian formatting filters', () => {
  const env = createViews();
  const render = (tpl: string, ctx: Record<string, unknown> = {}) => nb(env.renderString(tpl, ctx));

  it('numero groups every number, shows 0 as 0 and a missing value as a dash or what the caller says', () => {
    assert.equal(numero(4686), '4.686');
    assert.equal(numero(14965), '14.965');
    assert.equal(numero('1234567'), '1.234.567');
    assert.equal(numero(0), '0');
    assert.equal(numero(null), '—');
    assert.equal(numero(undefined, '0'), '0');
    assert.equal(numero(1234.5), '1.234,5');
    assert.equal(numero(2, undefined, 2), '2,00');
    assert.equal(render('{{ n | numero }}|{{ z | numero }}|{{ m | numero("0") }}|{{ m | numero(vuoto="n.d.") }}', { n: 4686, z: 0, m: null }), '4.686|0|0|n.d.');
  });

  it('importo shows the amount with its currency, euro by default', () => {
    assert.equal(nb(importo(1234.5)), '1.234,50 €');
    assert.equal(nb(importo('1000')), '1.000,00 €');
    assert.equal(nb(importo(1234.5, 'USD')), '1.234,50 USD');
    assert.equal(importo(null), '—');
    assert.equal(render('{{ v | importo }} / {{ v | importo("CHF") }}', { v: 99 }), '99,00 € / 99,00 CHF');
  });

  it('data shows dd/mm/yyyy in Europe/Rome and never moves a date-only value to another day', () => {
    assert.equal(data('1984-01-08'), '08/01/1984');
    // 23:30 UTC on 31 December is already 1 January in Rome.
    assert.equal(data(new Date('2025-12-31T23:30:00Z')), '01/01/2026');
    assert.equal(data('2026-07-14T22:15:00.000Z'), '15/07/2026');
    assert.equal(data(null), '—');
    assert.equal(data(''), '—');
    assert.equal(render('{{ d | data }}', { d: '1984-01-08' }), '08/01/1984');
  });

  it('dataora shows date and time in Europe/Rome, summer time included', () => {
    assert.equal(dataora(new Date('2026-01-15T08:05:00Z')), '15/01/2026 09:05');
    assert.equal(dataora('2026-07-15T08:05:00Z'), '15/07/2026 10:05');
    assert.equal(dataora('1984-01-08'), '08/01/1984');
    assert.equal(dataora(undefined), '—');
    assert.equal(render('{{ d | dataora }}', { d: new Date('2026-11-23T09:00:00Z') }), '23/11/2026 10:00');
  });

  it('durata speaks Italian: the largest unit and the next one when it is not zero', () => {
    assert.equal(durata(3 * 86_400_000), '3 giorni');
    assert.equal(durata(2 * 3_600_000 + 5 * 60_000), '2 ore 5 minuti');
    assert.equal(durata(86_400_000 + 3_600_000), '1 giorno 1 ora');
    assert.equal(durata(60_000), '1 minuto');
    assert.equal(durata(45_000), '45 secondi');
    assert.equal(durata(300), 'meno di un secondo');
    assert.equal(durata(0), '0 secondi');
    assert.equal(durata(30, 'giorni'), '30 giorni');
    assert.equal(durata(90, 'minuti'), '1 ora 30 minuti');
    assert.equal(durata(null), '—');
    assert.equal(render('{{ v | durata("ore") }}', { v: 50 }), '2 giorni 2 ore');
  });

  it('percentuale shows percent points, or a fraction when asked', () => {
    assert.equal(percentuale(25), '25%');
    assert.equal(percentuale(33.333, 1), '33,3%');
    assert.equal(percentuale(0.92, 0, true), '92%');
    assert.equal(percentuale(null), '—');
    assert.equal(render('{{ s | percentuale(frazione=true) }}', { s: 0.875 }), '88%');
  });

  it('etichetta shows the label of a value from the dictionary the page was given', () => {
    const stato = { open: 'Aperto', closed: 'Chiuso' };
    assert.equal(etichetta('open', stato), 'Aperto');
    assert.equal(etichetta('unknown', stato), 'unknown');
    assert.equal(etichetta(null, stato), '—');
    // Keys of Object.prototype are not labels.
    assert.equal(etichetta('toString', stato), 'toString');
    assert.equal(render('{{ s | etichetta(labels.stato) }}', { s: 'closed', labels: { stato } }), 'Chiuso');
  });
});
