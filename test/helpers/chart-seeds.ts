import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Rows written by the owner for the chart tests, each at a known week: `weeksAgo` 0 is now,
 * k > 0 is Thursday noon (Europe/Rome) k weeks before this week, away from any week's edge.
 */
const at = (weeksAgo: number) => (weeksAgo === 0
  ? 'now()'
  : `(date_trunc('week', now() at time zone 'Europe/Rome') - interval '${weeksAgo} weeks' + interval '3 days 12 hours') at time zone 'Europe/Rome'`);

export async function seedMatches(owner: Knex, tenant: string, rows: { list: string; stato: string; weeksAgo: number; deleted?: boolean }[]): Promise<void> {
  const subject = randomUUID();
  await owner('screening_subjects').insert({ id: subject, cod_azienda: tenant, tipo: 'person', nome: 'Soggetto per grafici' });
  for (const [i, r] of rows.entries()) {
    await owner.raw(`insert into screening_matches (id, cod_azienda, subject_id, list_name, entry_id, entry_hash, score, stato, deleted_at, created_at, updated_at)
      values (?, ?, ?, ?, ?, 'h', 0.9, ?, ${r.deleted ? 'now()' : 'null'}, ${at(r.weeksAgo)}, now())`,
    [randomUUID(), tenant, subject, r.list, `chart-${i}-${randomUUID()}`, r.stato]);
  }
}

export async function seedCases(owner: Knex, tenant: string, rows: { stato: string; overdue: boolean }[]): Promise<void> {
  for (const [i, r] of rows.entries()) {
    await owner('cases').insert({
      id: randomUUID(), cod_azienda: tenant, titolo: `Caso per grafici ${i + 1}`, tipo: 'indagine', priorita: 'media', stato: r.stato,
      opened_by: 'seed', sla_days: 30, sla_due_at: new Date(Date.now() + 86_400_000), overdue: r.overdue, workflow_id: `case:chart:${randomUUID()}`,
    });
  }
}

export async function seedOnboarding(owner: Knex, tenant: string, rows: { stato: string; weeksAgo: number }[]): Promise<void> {
  for (const [i, r] of rows.entries()) {
    await owner.raw(`insert into onboarding_cases (id, cod_azienda, stato, tipo_soggetto, email, anagrafe, workflow_id, created_at, updated_at)
      values (?, ?, ?, 'persona_fisica', ?, ?::jsonb, ?, ${at(r.weeksAgo)}, now())`,
    [randomUUID(), tenant, r.stato, `grafici${i}@example.test`, JSON.stringify({ nome: 'Cliente', cognome: `Grafici ${i + 1}` }), `onboarding:chart:${randomUUID()}`]);
  }
}

/** A chart of a page: the JSON its script reads and the rows of its table (label, then the cells as shown). */
export function chartOf(html: string, id: string): { spec: { kind: string; categories: string[]; series: { name: string; data: number[] }[]; tones: string[] }; rows: string[][] } {
  const start = html.indexOf(`<figure class="card mb-3 chart" id="${id}"`);
  if (start < 0) throw new Error(`no chart ${id} on the page`);
  const figure = html.slice(start, html.indexOf('</figure>', start));
  const json = /<script type="application\/json" id="[^"]+-dati">([\s\S]*?)<\/script>/.exec(figure);
  if (!json) throw new Error(`chart ${id} has no data block`);
  const body = figure.slice(figure.indexOf('<tbody>'));
  const rows = [...body.matchAll(/<tr><th scope="row">([^<]*)<\/th>([\s\S]*?)<\/tr>/g)]
    .map((m) => [m[1]!, ...[...m[2]!.matchAll(/<td class="text-end">([^<]*)<\/td>/g)].map((c) => c[1]!)]);
  return { spec: JSON.parse(json[1]!), rows };
}
