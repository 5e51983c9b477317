import assert from 'node:assert/strict';
import {
  aggregateKey, compileCondition, ConditionEvaluationError, evaluateCondition, requiredAggregates, type Aggregato, type Condizione,
} from '../../src/kit/conditions';
import type { ContestoCondizione } from '../../src/kit/conditions/condition.evaluate';
import {
  classForScore, classOrdinal, compiledRules, IMPACT_KEY, impactForVolume, riskLists, scoreProfile,
  type Contributo, type ProfiloRischio, type Punteggio, type Soglia, type VersioneRegole,
} from '../../src/domains/risk';
import { defaultThresholds, defaultVersion, profile } from './risk-engine.fixture';

/**
 * The compiled evaluator (compileCondition, used by scoreProfile) against the interpreter
 * (evaluateCondition): the same answers, reads, costs and errors, on the default model over
 * varied profiles and on random conditions. The interpreter stays the reference.
 */

const OGGI = '2026-11-23';

/** A small seeded generator (mulberry32): the same cases on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
type Rnd = ReturnType<typeof rng>;
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const some = <T>(r: Rnd, xs: readonly T[], max = 3): T[] => Array.from({ length: Math.floor(r() * (max + 1)) }, () => pick(r, xs));

const lists = riskLists();
const COUNTRIES = ['IT', 'it', 'DE', 'FR', 'AL', 'CH', 'US', ...[...lists.paesi_alto_rischio].slice(0, 3), ...[...lists.paesi_gafi_grey].slice(0, 3)];
const ANSWERS: Record<string, readonly unknown[]> = {
  scopo_rapporto: ['pagamenti', 'trading', 'altro', 'risparmio', 'PAGAMENTI'],
  natura_rapporto: ['occasionale', 'continuativo'],
  origine_fondi: ['stipendio', 'investimenti', 'vendita_beni', 'eredita_donazione', 'cripto_attivita', 'altro', 'vincite'],
  volume_annuo: ['fino_10k', '10k_50k', '50k_250k', '250k_1m', 'oltre_1m'],
  contanti: [true, false, 'si', 1],
  paesi_alto_rischio: [true, false],
  attivita_cripto: ['nessuna', 'trading_professionale', 'mining_staking', 'servizi_cripto'],
  provenienza_patrimonio: ['lavoro', 'eredita', 'investimenti', 'vendita_immobili', 'altro'],
  settore: ['commercio', 'altro', 'edilizia', 'terzo_settore', 'immobiliare', 'servizi_finanziari', 'servizi_cripto', 'oro_preziosi', 'gioco', 'armi_difesa'],
};

function variedProfile(r: Rnd): ProfiloRischio {
  const questionario: Record<string, unknown> = {};
  for (const [k, vs] of Object.entries(ANSWERS)) if (r() < 0.6) questionario[k] = pick(r, vs);
  return profile({
    cliente: {
      tipo_soggetto: pick(r, ['persona_fisica', 'ditta_individuale', 'societa', null] as const), pep: r() < 0.1, pep_collegati: r() < 0.1,
      attivita: pick(r, [null, 'commercio', '']), eta_anni: pick(r, [null, 17, 45, 90]), anzianita_giorni: pick(r, [null, 0, 400]),
    },
    geografia: {
      nazionalita: pick(r, [null, ...COUNTRIES]), paese_residenza: pick(r, [null, ...COUNTRIES]), paesi_operativita: some(r, COUNTRIES),
      paesi_collegati: some(r, COUNTRIES, 2), paesi: r() < 0.3 ? [] : some(r, COUNTRIES, 5), paesi_controparti: some(r, COUNTRIES),
    },
    prodotto: { wallet_self_hosted: pick(r, [0, 0, 1, 3]), wallet_sanzionati: pick(r, [0, 0, 0, 1]), crypto: r() < 0.2, tipi_rapporto: some(r, ['conto', 'wallet', 'carta']) },
    canale: { canale: pick(r, ['online', 'sportello', null] as const), intermediario: r() < 0.2 },
    screening: { corrispondenze_aperte: pick(r, [0, 0, 0, 2]), corrispondenze_confermate: pick(r, [0, 0, 0, 0, 1]) },
    titolari: { numero: pick(r, [0, 1, 3]), pep: r() < 0.05 },
    dichiarato: { volume_annuo_eur: pick(r, [null, 0, 10_000, 50_000, 1_000_000]) },
    questionario,
  });
}

/** Values for the aggregates the rules read: absent, null, zero, small and large. */
function variedAggregates(r: Rnd, aggregati: readonly Aggregato[]): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const a of aggregati) {
    const k = aggregateKey(a);
    const x = r();
    if (x < 0.15) continue;
    if (x < 0.25) out[k] = null;
    else if (a.fn === 'cash_share') out[k] = r();
    else if (a.fn === 'ratio_history') out[k] = r() * 6;
    else out[k] = pick(r, [0, 1, 12, 60, 9_000, 80_000, 400_000, 2_000_000]);
  }
  return out;
}

/** scoreProfile as it was before compilation: the interpreter over every active rule, then thresholds and floors. */
function interpretedScore(v: VersioneRegole, soglie: readonly Soglia[], p: ProfiloRischio, aggregati: Record<string, number | null>): Punteggio {
  const ctx = { dati: p, aggregati, liste: riskLists(), oggi: OGGI };
  const contributi: Contributo[] = [];
  for (const r of v.regole as (typeof v.regole[number] & { fattore_codice?: string })[]) {
    if (!r.attiva) continue;
    const e = evaluateCondition(r.condizione, ctx);
    if (e.vero) contributi.push({ regola_id: r.id, codice: r.codice, nome: r.nome, famiglia: r.famiglia, fattore: r.fattore_codice ?? r.fattore_id, punti: r.punti, classe_minima: r.classe_minima, letti: e.letti });
  }
  const punteggio = contributi.reduce((s, c) => s + c.punti, 0);
  const classe_da_punteggio = classForScore(soglie, punteggio);
  let pavimento: Punteggio['pavimento'] = null;
  for (const c of contributi) if (c.classe_minima && classOrdinal(c.classe_minima) > classOrdinal(pavimento?.classe ?? classe_da_punteggio)) pavimento = { regola: c.codice, classe: c.classe_minima };
  const classe = pavimento?.classe ?? classe_da_punteggio;
  return { punteggio, classe, classe_da_punteggio, pavimento, contributi, versione: { id: v.id, versione: v.versione }, probabilita: classOrdinal(classe), impatto: impactForVolume(aggregati[IMPACT_KEY]), aggregati };
}

/** Either the same result or the same error (class, code, message, and for a budget its cost). */
function sameOutcome(c: Condizione, ctx: ContestoCondizione, label: string): 'vero' | 'falso' | 'errore' {
  const outcome = (fn: () => unknown) => {
    try { return { ok: fn() }; } catch (e) {
      assert.ok(e instanceof ConditionEvaluationError, `${label}: ${String(e)}`);
      return { error: { name: e.name, codice: e.codice, message: e.message, costo: (e as { costo?: number }).costo } };
    }
  };
  const expected = outcome(() => evaluateCondition(c, ctx));
  assert.deepEqual(outcome(() => compileCondition(c).evaluate(ctx)), expected, label);
  return 'error' in expected ? 'errore' : (expected.ok as { vero: boolean }).vero ? 'vero' : 'falso';
}

describe('risk engine: the compiled evaluator gives the interpreter\'s scores', () => {
  const v = defaultVersion();
  const soglie = defaultThresholds();
  const aggregati = requiredAggregates(v.regole.map((r) => r.condizione));

  it('the default model over 3,000 varied profiles: the same scores, classes, floors and contributions with what they read', () => {
    const r = rng(20261123);
    let fired = 0;
    const classes = new Set<string>();
    for (let i = 0; i < 3_000; i++) {
      const p = variedProfile(r);
      const a = variedAggregates(r, [...aggregati, { fn: 'sum', finestra_giorni: 365 }]);
      const compiled = scoreProfile(v, soglie, p, a, OGGI);
      assert.deepEqual(compiled, interpretedScore(v, soglie, p, a), `profile ${i}`);
      fired += compiled.contributi.length;
      classes.add(compiled.classe);
    }
    assert.ok(fired > 10_000, `the profiles make rules fire (${fired})`);
    assert.deepEqual([...classes].sort(), ['alto', 'basso', 'medio', 'medio_alto'], 'every class is reached');
  });

  it('each default rule alone: the same answer, reads and cost, and the same point of failure under small budgets', () => {
    const r = rng(7);
    for (let i = 0; i < 300; i++) {
      const dati = variedProfile(r);
      const agg = variedAggregates(r, aggregati);
      for (const rule of v.regole) {
        sameOutcome(rule.condizione, { dati, aggregati: agg, liste: lists, oggi: OGGI }, `${rule.codice} #${i}`);
        sameOutcome(rule.condizione, { dati, aggregati: agg, liste: lists, oggi: OGGI, budget: Math.floor(r() * 8) }, `${rule.codice} #${i} small budget`);
      }
    }
  });

  it('random conditions (every operator, lists, negation, malformed nodes, other declared fields, monitoring\'s aggregates and on-demand source): the same outcome', () => {
    const r = rng(42);
    const fields = ['a', 'a.b', 'a.b.c', 'n', 'd', 's', 'arr', 'missing.x', 'a.__proto__', 'dichiarato.volume_annuo_eur', 'v'];
    const values = [1, 0, -3, 2.5, 'x', 'X', 'it', '2026-01-01', '', true, false, null, ['IT', 'x', 1], [], { lista: 'alto' }, { lista: 'nessuna' }, [1, 5], ['2025-01-01', '2027-01-01'], [3]];
    const ops = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'not_in', 'intersects', 'exists', 'not_exists', 'like'];
    const aggs: Aggregato[] = [
      { fn: 'sum', finestra_giorni: 30 }, { fn: 'count', finestra_giorni: 90, paesi_controparte: ['ir', 'KP'] }, { fn: 'ratio_declared', finestra_giorni: 365 },
      { fn: 'ratio_history', finestra_giorni: 90 }, { fn: 'cash_share', finestra_giorni: 365, segno: 'entrata' },
      // Monitoring's functions and filters (docs/monitoring.md).
      { fn: 'avg', finestra_giorni: 30, importo_min: 1000, importo_max: 9999 }, { fn: 'max', finestra_giorni: 7, tondi: true },
      { fn: 'distinct_new_counterparties', finestra_giorni: 30, segno: 'uscita', storico_giorni: 180 },
      { fn: 'days_since_previous', finestra_giorni: 730, livello: 'rapporto' }, { fn: 'passthrough_share', finestra_giorni: 30, entro_giorni: 3 },
      { fn: 'peer_ratio', finestra_giorni: 30, misura: 'numero' }, { fn: 'ratio_declared', finestra_giorni: 30, causali: ['stipendio'], canali: { lista: 'alto' } },
    ];
    const seen = new Set<string>();
    const gen = (depth: number): Condizione => {
      const x = r();
      if (depth < 5 && x < 0.25) return { [pick(r, ['tutti', 'almeno_uno'])]: Array.from({ length: 1 + Math.floor(r() * 3) }, () => gen(depth + 1)) } as Condizione;
      if (depth < 5 && x < 0.32) return { non: gen(depth + 1) };
      if (x < 0.34) return pick(r, [{ tutti: 'x' }, { foo: 1 }, { campo: 3, op: 'eq', valore: 1 }, { non: 5 }]) as unknown as Condizione;
      if (x < 0.5) { const a = pick(r, aggs); seen.add(aggregateKey(a)); return { aggregato: a, op: pick(r, ops), valore: pick(r, values) } as Condizione; }
      return { campo: pick(r, fields), op: pick(r, ops), valore: pick(r, values) } as Condizione;
    };
    const datas = [
      { a: { b: { c: 'IT' } }, n: 5, d: '2026-06-01', s: 'it', arr: ['it', 'ir', 3], dichiarato: { volume_annuo_eur: 20_000 }, v: [] },
      { a: { b: 'x' }, n: null, d: 'ieri', s: '', arr: 'IR', dichiarato: { volume_annuo_eur: 0 }, v: 1 },
      { a: 1, n: 2.5, arr: [], s: 'X', dichiarato: {}, altro: { volume: 100 } },
    ];
    const aggregates: Record<string, number | null>[] = [{}, {
      'sum:30': 10, 'count:90:paesi=IR,KP': 0, 'sum:365': 40_000, 'ratio_history:90:storico=365': null, 'cash_share:365:segno=entrata': 0.4,
      'avg:30:importo_min=1000:importo_max=9999': 4_200, 'max:7:tondi=true': null, 'distinct_new_counterparties:30:segno=uscita:storico=180': 9,
      'days_since_previous:730:livello=rapporto': 400, 'passthrough_share:30:entro=3': 0.93, 'peer_ratio:30:misura=numero': Number.NaN,
      'sum:30:causali=STIPENDIO:canali=@alto': 7_000,
    }];
    /** The same values computed on demand (monitoring's engine): the evaluators must read them as they read ctx.aggregati. */
    const sourceOf = (values: Record<string, number | null>) => ({ valore: (_a: Aggregato, key: string) => values[key] });
    const tally = { vero: 0, falso: 0, errore: 0 };
    for (let i = 0; i < 4_000; i++) {
      const c = gen(1);
      const values = pick(r, aggregates);
      const ctx: ContestoCondizione = {
        dati: pick(r, datas), aggregati: r() < 0.5 ? values : { 'sum:30': 999 }, liste: { alto: new Set(['IR', 'kp', 'IT']) }, oggi: OGGI,
        ...(r() < 0.3 ? { budget: Math.floor(r() * 12) } : {}), ...(r() < 0.2 ? { campoDichiarato: pick(r, ['altro.volume', 'n', 'a.b']) } : {}),
        ...(r() < 0.3 ? { giorniDichiarato: pick(r, [30, 365, 7]) } : {}),
      };
      if (ctx.aggregati !== values) ctx.fonte = sourceOf(values);
      tally[sameOutcome(c, ctx, `${JSON.stringify(c)} #${i}`)] += 1;
    }
    assert.ok(tally.vero > 500 && tally.falso > 500 && tally.errore > 200, JSON.stringify(tally));
    assert.ok(aggs.every((a) => seen.has(aggregateKey(a))), 'every aggregate was generated');
    // Where the interpreter fails with a TypeError (an aggregate that is not an object), the compiled one names the fault.
    assert.throws(() => compileCondition({ aggregato: 'x', op: 'gt', valore: 1 } as unknown as Condizione).evaluate({ dati: {}, aggregati: {}, liste: {}, oggi: OGGI }),
      (e: unknown) => e instanceof ConditionEvaluationError && e.codice === 'condizione_non_valida');
  });

  it('compiles a version once and reuses it by id; a draft changed under the same id is compiled again', () => {
    const draft = { ...defaultVersion(), id: 'draft-1', stato: 'draft' as const };
    const first = compiledRules(draft);
    assert.equal(compiledRules(draft), first, 'the same object: the same compiled rules');
    const reloaded = { ...draft, regole: draft.regole.map((x) => ({ ...x, condizione: structuredClone(x.condizione) })) };
    assert.equal(compiledRules(reloaded).regole[0]!.condizione, first.regole[0]!.condizione, 'reloaded with the same rules: compiled conditions reused');
    const edited = { ...draft, regole: draft.regole.map((x) => (x.codice === 'canale_remoto' ? { ...x, condizione: { campo: 'canale.canale', op: 'eq', valore: 'sportello' } as Condizione } : x)) };
    const p = profile({ canale: { canale: 'sportello' } });
    assert.ok(scoreProfile(edited, soglie, p, {}, OGGI).contributi.some((c) => c.codice === 'canale_remoto'), 'the edited condition is the one evaluated');
    assert.ok(!scoreProfile(draft, soglie, p, {}, OGGI).contributi.some((c) => c.codice === 'canale_remoto'));
    const fewer = { ...draft, regole: draft.regole.map((x) => (x.codice === 'pep' ? { ...x, attiva: false } : x)) };
    assert.equal(compiledRules(fewer).regole.length, draft.regole.length - 1, 'an inactive rule is left out');
  });
});
