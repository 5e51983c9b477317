import { withTenant } from '../../src/db/tenant';
import { activateRuleVersion } from '../../src/domains/monitoring';
import { installTemplates, MODELLI_MONITORAGGIO, ruleInputOf, type ModelloRegola } from '../../src/domains/monitoring/templates';
import type { Condizione } from '../../src/kit/conditions';
import type { AppStack } from '../platform/app-stack';
import type { BenchHttp } from '../platform/load';

/**
 * The benchmark's 20 rules in force: the 14 standard templates (installTemplates, in force as for
 * the demo tenant) and 6 tuned variants a tenant would add beside them: the same typology watched
 * over windows twice as long (30 days → 60, 7 → 14), so their aggregates are computed apart. The
 * variants are created through POST /api/monitoring/rules (the product's validation) and activated
 * by the release gate's last step (activateRuleVersion), as the monitoring tests do: the gates
 * themselves are not what is measured.
 */
const VARIANTS_OF = ['contanti_oltre_soglia', 'picco_volume', 'fan_in', 'fan_out', 'transito_rapido', 'incoerenza_profilo_volume'];

/** The condition with every aggregate window of up to 90 days doubled. */
function longerWindows(c: Condizione): Condizione {
  if ('tutti' in c) return { tutti: c.tutti.map(longerWindows) };
  if ('almeno_uno' in c) return { almeno_uno: c.almeno_uno.map(longerWindows) };
  if ('non' in c) return { non: longerWindows(c.non) };
  if ('aggregato' in c && c.aggregato.finestra_giorni <= 90) {
    const finestra = c.aggregato.finestra_giorni * 2;
    // A ratio's history is at least as long as its window (the rule's validation): stretched with it where it was shorter.
    const storico = c.aggregato.storico_giorni === undefined ? {} : { storico_giorni: Math.max(c.aggregato.storico_giorni, finestra) };
    return { ...c, aggregato: { ...c.aggregato, finestra_giorni: finestra, ...storico } };
  }
  return c;
}

export function tunedVariants(): ModelloRegola[] {
  return VARIANTS_OF.map((cod) => {
    const m = MODELLI_MONITORAGGIO.find((x) => x.cod_regola === cod);
    if (!m) throw new Error(`no template ${cod}`);
    return { ...m, cod_regola: `${cod}_esteso`, nome: `${m.nome} (finestra doppia)`, condizione: longerWindows(m.condizione) };
  });
}

/** The templates and the variants in force in the tenant; answers how many rules are in force. */
export async function seedBenchRules(stack: AppStack, client: BenchHttp, token: string, codAzienda: string): Promise<number> {
  await withTenant(stack.deps.db, { codAzienda, actor: 'bench' }, (trx) => installTemplates(trx, codAzienda, { attiva: true, cod_utente: null }));
  for (const v of tunedVariants()) {
    const a = await client.request('POST', '/api/monitoring/rules', { json: ruleInputOf(v), headers: { 'x-csrf-token': token } });
    if (a.status !== 201) throw new Error(`rule ${v.cod_regola}: POST /api/monitoring/rules answered ${a.status}: ${a.body.slice(0, 600)}`);
    const draftId = (JSON.parse(a.body) as { bozza: { id: string } }).bozza.id;
    await withTenant(stack.deps.db, { codAzienda, actor: 'bench' }, (trx) =>
      activateRuleVersion(trx, { codAzienda, versionId: draftId, actor: { id: 'bench-gate', username: 'bench-gate' } }));
  }
  const [n] = await stack.owner('monitoring_regole_versioni').where({ cod_azienda: codAzienda, stato: 'attiva' }).count('* as n');
  return Number(n!.n);
}
