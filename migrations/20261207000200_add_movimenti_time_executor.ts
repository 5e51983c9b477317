import type { Knex } from 'knex';

/**
 * Movements gain what monitoring reads (docs/movements.md, docs/monitoring.md part 0):
 * - `ora_operazione` (time of day, when the source system has it);
 * - `cod_anagrafe_esecutore`: who executed the movement, any subject of the tenant's registry (a
 *   delegate, a legal representative, a third party at the counter), not only a holder.
 *
 * On the partitioned table: a nullable column without a default is a catalogue change on the parent
 * and every partition (no rewrite, whatever the rows). The foreign key and the index are declared on
 * the parent, so every partition, and every month made later (movimenti_ensure_partitions attaches a
 * table made `like movimenti`), gets them. Both see only the rows that name an executor: the key
 * checks nothing for a null, so loading movements without an executor costs no lookup; the index is
 * partial, so it holds only those rows. Building it and validating the key read every partition
 * once under a SHARE lock (writes wait, reads go on): on 10 million movements, seconds, all of them
 * null at this point. See docs/movements.md, "Indexes".
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('alter table movimenti add column ora_operazione time(0), add column cod_anagrafe_esecutore text');
  await knex.raw(`alter table movimenti add constraint movimenti_esecutore_fk
    foreign key (cod_azienda, cod_anagrafe_esecutore) references anagrafe (cod_azienda, cod_anagrafe)`);
  // A subject's movements as executor (the list's filter, monitoring's "executed by a third party").
  await knex.raw(`create index movimenti_tenant_esecutore_data on movimenti (cod_azienda, cod_anagrafe_esecutore, data_operazione, id)
    where cod_anagrafe_esecutore is not null`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists movimenti_tenant_esecutore_data');
  await knex.raw('alter table movimenti drop constraint if exists movimenti_esecutore_fk');
  await knex.raw('alter table movimenti drop column if exists cod_anagrafe_esecutore, drop column if exists ora_operazione');
}
