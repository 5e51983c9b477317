import assert from 'node:assert/strict';
import {
  CO_FLOOR_CENTS, CO_THRESHOLD_CENTS, coDueAt, coDueDay, comunicazioneOggettiva, type CoOperation,
} from '../../../workflows/reporting/rules/comunicazioni-oggettive';
import { monthRange, monthsBetween, warnInstant } from '../../../workflows/reporting/rules/period';
import { SARA_UNKNOWN, saraAggregate, saraDueAt, saraDueDay, type SaraOperation } from '../../../workflows/reporting/rules/sara';

/** A hand-made month: `n` cash operations of `euro` each on one relationship, on days 1..n of January 2026. */
function month(n: number, euro: number, over: Partial<CoOperation> = {}, from = 0): CoOperation[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `op-${from + i}`, data_operazione: `2026-01-${String(i + 1).padStart(2, '0')}`, cod_rapporto: 'RAP-1', cod_anagrafe: 'ANA-1',
    cod_anagrafe_esecutore: null, segno: 'entrata', importo_cents: Math.round(euro * 100), contanti: true, ...over,
  }));
}

describe('reporting rules: comunicazioni oggettive (provv. UIF 28 marzo 2019)', () => {
  it('twelve cash deposits of EUR 990: no obligation (each below the EUR 1,000 floor), a negative communication', () => {
    const r = comunicazioneOggettiva(month(12, 990));
    assert.equal(r.negativa, true);
    assert.deepEqual(r.righe, []);
  });

  it('ten cash deposits of EUR 1,000.00: an obligation, one line of EUR 10,000 and ten operations', () => {
    const r = comunicazioneOggettiva(month(10, 1000));
    assert.equal(r.negativa, false);
    assert.equal(r.righe.length, 1);
    const [line] = r.righe;
    assert.deepEqual({ ...line, operazioni: line!.operazioni.length }, {
      cod_anagrafe: 'ANA-1', cod_rapporto: 'RAP-1', segno: 'entrata', ruoli: ['cliente'], totale_cents: CO_THRESHOLD_CENTS, numero: 10, operazioni: 10,
    });
  });

  it('the EUR 1,000 floor: operations under it never count, whatever they add up to; one just above it does', () => {
    assert.equal(comunicazioneOggettiva([...month(9, 1000), ...month(1, 999.99, {}, 9)]).negativa, true);
    assert.equal(comunicazioneOggettiva([...month(9, 1000), ...month(3, 999.99, {}, 9)]).negativa, true, 'operations under the floor never count');
    assert.equal(comunicazioneOggettiva([...month(9, 1000), ...month(1, 1000.01, {}, 9)]).negativa, false);
    assert.equal(CO_FLOOR_CENTS, 100_000);
  });

  it('non-cash operations do not count', () => {
    assert.equal(comunicazioneOggettiva(month(20, 5000, { contanti: false })).negativa, true);
  });

  it('no netting: six deposits and five withdrawals of EUR 1,000 are EUR 11,000, reported as two lines', () => {
    const r = comunicazioneOggettiva([...month(6, 1000), ...month(5, 1000, { segno: 'uscita' }, 6)]);
    assert.equal(r.negativa, false);
    assert.deepEqual(r.soggetti, [{ cod_anagrafe: 'ANA-1', totale_cents: 11_000_00, numero: 11 }]);
    assert.deepEqual(r.righe.map((l) => [l.segno, l.totale_cents, l.numero]), [['entrata', 6_000_00, 6], ['uscita', 5_000_00, 5]]);
  });

  it("the executor's operations count for the executor too, added to their own", () => {
    // ANA-2 deposits EUR 6,000 on ANA-1's relationship and EUR 4,000 on their own: EUR 10,000 as ANA-2.
    const onOthers = month(6, 1000, { cod_anagrafe_esecutore: 'ANA-2' });
    const own = month(4, 1000, { cod_anagrafe: 'ANA-2', cod_rapporto: 'RAP-2' }, 6);
    const r = comunicazioneOggettiva([...onOthers, ...own]);
    assert.deepEqual(r.soggetti.map((s) => [s.cod_anagrafe, s.totale_cents]), [['ANA-2', 10_000_00]]);
    assert.deepEqual(r.righe.map((l) => [l.cod_anagrafe, l.cod_rapporto, l.ruoli, l.numero]), [['ANA-2', 'RAP-1', ['esecutore'], 6], ['ANA-2', 'RAP-2', ['cliente'], 4]]);
  });

  it('a customer executing on their own relationship is counted once', () => {
    const r = comunicazioneOggettiva(month(10, 1000, { cod_anagrafe_esecutore: 'ANA-1' }));
    assert.deepEqual(r.soggetti, [{ cod_anagrafe: 'ANA-1', totale_cents: 10_000_00, numero: 10 }]);
  });

  it('a month with no operation at all is a negative communication', () => {
    assert.deepEqual(comunicazioneOggettiva([]), { negativa: true, soggetti: [], righe: [] });
  });

  it('is due by the 15th of the second month after the month', () => {
    assert.equal(coDueDay('2026-01'), '2026-03-15');
    assert.equal(coDueDay('2025-11'), '2026-01-15');
    assert.equal(coDueDay('2025-12'), '2026-02-15');
    assert.equal(coDueAt('2019-07'), '2019-09-15T22:59:59.000Z');
  });
});

describe('reporting rules: S.AR.A. (provv. UIF 25 agosto 2020)', () => {
  const op = (i: number, euro: number, over: Partial<SaraOperation> = {}): SaraOperation => ({
    id: `s-${i}`, data_operazione: '2026-01-10', segno: 'entrata', importo_cents: Math.round(euro * 100), contanti: false,
    causale: 'Bonifico', residenza: 'IT', ateco: '47.11.10', ...over,
  });

  it('aggregates operations of EUR 5,000 or more by cause, residence, sector and direction, with the cash part apart', () => {
    const r = saraAggregate([
      op(1, 5000), op(2, 7500.5, { contanti: true }), op(3, 4999.99), op(4, 6000, { causale: ' bonifico ' }),
      op(5, 9000, { residenza: 'FR' }), op(6, 8000, { segno: 'uscita' }), op(7, 5000, { ateco: null, causale: null }),
    ]);
    assert.equal(r.negativa, false);
    assert.deepEqual(r.righe.map((l) => [l.causale, l.residenza, l.settore, l.segno, l.totale_cents, l.numero, l.contanti_cents, l.numero_contanti, l.operazioni]), [
      ['BONIFICO', 'FR', '47', 'entrata', 9000_00, 1, 0, 0, ['s-5']],
      ['BONIFICO', 'IT', '47', 'entrata', 18_500_50, 3, 7500_50, 1, ['s-1', 's-2', 's-4']],
      ['BONIFICO', 'IT', '47', 'uscita', 8000_00, 1, 0, 0, ['s-6']],
      [SARA_UNKNOWN, 'IT', SARA_UNKNOWN, 'entrata', 5000_00, 1, 0, 0, ['s-7']],
    ]);
  });

  it('a month with nothing of EUR 5,000 is a negative report', () => {
    assert.deepEqual(saraAggregate([op(1, 4999.99)]), { negativa: true, righe: [] });
  });

  it('is due by the 2nd day of the third month after the month', () => {
    assert.equal(saraDueDay('2021-01'), '2021-04-02');
    assert.equal(saraDueDay('2025-11'), '2026-02-02');
    assert.equal(saraDueAt('2025-12'), '2026-03-02T22:59:59.000Z');
  });
});

describe('reporting rules: months', () => {
  it('a range of months, a month\'s days, the notice five days before', () => {
    assert.deepEqual(monthsBetween('2025-11', '2026-02'), ['2025-11', '2025-12', '2026-01', '2026-02']);
    assert.equal(monthsBetween('2025-01', '2025-12').length, 12);
    assert.deepEqual(monthRange('2024-02'), { dal: '2024-02-01', al: '2024-02-29' });
    assert.equal(warnInstant('2026-03-15T22:59:59.000Z'), '2026-03-10T22:59:59.000Z');
  });
});
