import type { Knex } from 'knex';

/**
 * The indexes behind the staff home's counts (src/kit/home.ts, each area's *.home.ts) that the
 * list indexes (20261202000100) do not already serve: a user's cases (also the cases list's
 * `assegnatario` filter, followed by its default sort), a user's screening matches, and the
 * tenant's CDD reviews by state and due date.
 */
const INDEXES: [name: string, table: string, columns: string, where?: string][] = [
  ['cases_tenant_assegnatario_created', 'cases', 'cod_azienda, assegnatario, created_at, id'],
  ['screening_matches_tenant_assegnatario', 'screening_matches', 'cod_azienda, assegnatario, stato', 'deleted_at is null'],
  ['cdd_reviews_tenant_stato_due', 'cdd_reviews', 'cod_azienda, stato, due_at'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, table, columns, where] of INDEXES) {
    await knex.raw(`create index ${name} on ${table} (${columns})${where ? ` where ${where}` : ''}`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [name] of INDEXES) await knex.raw(`drop index if exists ${name}`);
}
