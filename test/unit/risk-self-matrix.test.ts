import assert from 'node:assert/strict';
import { checkTransition } from '../../workflows/lib/machine';
import { rafStatus, kriStatus, lastMonths } from '../../src/domains/risk/self/self.governance';
import { figuresWindow } from '../../src/domains/risk/self/self.figures';
import { esercizioMachine } from '../../src/domains/risk/self/self.machine';
import {
  controlVulnerability, LIVELLI, MATRICE_RESIDUO, overallResidual, residualRisk, residuoOf, suggestedInherent, suggestedVulnerability,
  type FigureLinea, type Livello,
} from '../../src/domains/risk/self/self.matrix';

const figure = (f: Partial<FigureLinea>): FigureLinea => ({ clienti: 100, clienti_alto_rischio: 0, pep: 0, paesi_alto_rischio: 0, movimenti: 0, volume_eur: 0, contanti_eur: 0, ...f });

describe('risk self-assessment: the residual matrix and the suggestions', () => {
  it('combines inherent risk and vulnerability as the provisions\' table does', () => {
    assert.equal(residualRisk(1, 1), 'basso');
    assert.equal(residualRisk(1, 4), 'medio');
    assert.equal(residualRisk(2, 2), 'medio');
    assert.equal(residualRisk(2, 4), 'medio_alto');
    assert.equal(residualRisk(3, 1), 'medio');
    assert.equal(residualRisk(3, 3), 'medio_alto');
    assert.equal(residualRisk(4, 1), 'medio', 'strong controls never bring a very significant inherent risk below medium');
    assert.equal(residualRisk(4, 2), 'medio_alto');
    assert.equal(residualRisk(4, 4), 'alto');
  });

  it('never lowers the residual risk when either input rises', () => {
    const rank = (i: Livello, v: Livello) => ['basso', 'medio', 'medio_alto', 'alto'].indexOf(residualRisk(i, v));
    for (const i of LIVELLI) for (const v of LIVELLI) {
      if (i < 4) assert.ok(rank((i + 1) as Livello, v) >= rank(i, v), `inherent ${i}→${i + 1} at vulnerability ${v}`);
      if (v < 4) assert.ok(rank(i, (v + 1) as Livello) >= rank(i, v), `vulnerability ${v}→${v + 1} at inherent ${i}`);
    }
    assert.equal(MATRICE_RESIDUO.length, 4);
    assert.ok(MATRICE_RESIDUO.every((r) => r.length === 4));
  });

  it('weights the lines\' residual risks into the overall, rounding a tie towards the higher class', () => {
    assert.equal(overallResidual([{ residuo: null, peso: 50 }]), null, 'no line assessed, no overall');
    const o = overallResidual([{ residuo: 'alto', peso: 25 }, { residuo: 'basso', peso: 75 }])!;
    assert.equal(o.punteggio, 1.75);
    assert.equal(o.residuo, 'medio');
    const tie = overallResidual([{ residuo: 'alto', peso: 50 }, { residuo: 'medio', peso: 50 }])!;
    assert.equal(tie.punteggio, 3);
    assert.equal(tie.residuo, 'medio_alto');
    const half = overallResidual([{ residuo: 'medio', peso: 50 }, { residuo: 'medio_alto', peso: 50 }])!;
    assert.equal(half.punteggio, 2.5);
    assert.equal(half.residuo, 'medio_alto', 'x.5 goes to the higher class (prudence)');
    const partial = overallResidual([{ residuo: 'alto', peso: 30 }, { residuo: null, peso: 70 }])!;
    assert.equal(partial.residuo, 'alto', 'only assessed lines count');
    assert.equal(partial.pesoValutato, 30);
    assert.equal(partial.pesoTotale, 100);
    assert.equal(residuoOf(1.49), 'basso');
    assert.equal(residuoOf(3.5), 'alto');
  });

  it('suggests the inherent risk from the portfolio\'s figures', () => {
    assert.equal(suggestedInherent(2, figure({ clienti: 0 })).livello, 2, 'a line without customers keeps its own risk');
    const quiet = suggestedInherent(1, figure({ clienti: 1000, clienti_alto_rischio: 10, volume_eur: 1e6, contanti_eur: 1e4 }));
    assert.equal(quiet.livello, 1);
    assert.deepEqual(quiet.indicatori.map((i) => i.livello), [1, 1, 1, 1]);
    const risky = suggestedInherent(3, figure({ clienti: 100, clienti_alto_rischio: 40, pep: 5, paesi_alto_rischio: 8, volume_eur: 1e6, contanti_eur: 5e5 }));
    assert.deepEqual(risky.indicatori.map((i) => i.livello), [3, 4, 4, 4]);
    assert.equal(risky.livello, 4);
    // (2 + 2 + 3 + 2) / 4 = 2.25 → 2; shares exactly at a bound go to the upper level.
    const mid = suggestedInherent(2, figure({ clienti: 100, clienti_alto_rischio: 5, pep: 1, volume_eur: 100, contanti_eur: 20 }));
    assert.deepEqual(mid.indicatori.map((i) => i.livello), [2, 2, 3, 2]);
    assert.equal(mid.livello, 2);
    // (1 + 2 + 3 + 4) / 4 = 2.5 → 3 (half up).
    const half = suggestedInherent(1, figure({ clienti: 100, clienti_alto_rischio: 10, pep: 10, volume_eur: 100, contanti_eur: 25 }));
    assert.deepEqual(half.indicatori.map((i) => i.livello), [1, 2, 3, 4]);
    assert.equal(half.livello, 3);
  });

  it('suggests the vulnerability from the controls and their tests', () => {
    assert.equal(suggestedVulnerability([]), 4, 'no control: very significant');
    assert.equal(controlVulnerability({ disegno: 'adeguato', efficacia: 'adeguato', ultimoEsito: 'ok' }), 1);
    assert.equal(controlVulnerability({ disegno: 'adeguato', efficacia: 'adeguato', ultimoEsito: null }), 3, 'untested');
    assert.equal(controlVulnerability({ disegno: 'parzialmente_adeguato', efficacia: 'adeguato', ultimoEsito: 'ok' }), 2);
    assert.equal(controlVulnerability({ disegno: 'adeguato', efficacia: 'adeguato', ultimoEsito: 'ko' }), 4);
    assert.equal(suggestedVulnerability([
      { disegno: 'adeguato', efficacia: 'adeguato', ultimoEsito: 'ok' }, { disegno: 'adeguato', efficacia: 'adeguato', ultimoEsito: 'parzialmente' },
    ]), 2, '(1 + 3) / 2');
  });

  it('approves with four eyes: never the one who submitted', () => {
    const co = (id: string) => ({ id, username: id, roles: ['co'] });
    const record = { submitted_by: 'u1', created_by: 'u1' };
    const self = checkTransition(esercizioMachine, { state: 'in_approvazione', action: 'approva', actor: co('u1'), record });
    assert.equal(self.ok ? 'ok' : self.code, 'FOUR_EYES_REQUIRED');
    assert.ok(checkTransition(esercizioMachine, { state: 'in_approvazione', action: 'approva', actor: co('u2'), record }).ok);
    const frozen = checkTransition(esercizioMachine, { state: 'approvata', action: 'modifica', actor: co('u2'), record });
    assert.equal(frozen.ok ? 'ok' : frozen.code, 'INVALID_TRANSITION');
    const analyst = checkTransition(esercizioMachine, { state: 'bozza', action: 'invia', actor: { id: 'x', username: 'x', roles: ['analyst'] } });
    assert.equal(analyst.ok ? 'ok' : analyst.code, 'FORBIDDEN');
  });

  it('places RAF and KRI values against their levels, and the windows and months', () => {
    const m = { appetito: 10, tolleranza: 15, capacita: 25 };
    assert.equal(rafStatus(null, m), 'nd');
    assert.equal(rafStatus(10, m), 'entro');
    assert.equal(rafStatus(12, m), 'oltre_appetito');
    assert.equal(rafStatus(20, m), 'oltre_tolleranza');
    assert.equal(rafStatus(30, m), 'oltre_capacita');
    assert.equal(kriStatus(4.99, { soglia_ambra: 5, soglia_rossa: 10 }), 'verde');
    assert.equal(kriStatus(5, { soglia_ambra: 5, soglia_rossa: 10 }), 'ambra');
    assert.equal(kriStatus(10, { soglia_ambra: 5, soglia_rossa: 10 }), 'rosso');
    assert.deepEqual(figuresWindow(2025, '2026-11-23'), { da: '2025-01-01', a: '2025-12-31' });
    assert.deepEqual(figuresWindow(2026, '2026-11-23'), { da: '2025-11-24', a: '2026-11-23' });
    assert.deepEqual(lastMonths('2026-02-10', 3), ['2025-12-01', '2026-01-01', '2026-02-01']);
  });
});
