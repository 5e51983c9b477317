import type { Knex } from 'knex';
import { defineList } from '../../kit/list';
import type { ClasseRischio, StatoAnagrafe, TipoDocumento, TipoLegame, TipoSoggetto } from './records.vocabulary';

/**
 * The records area's lists (docs/lists.md); their indexes are in the records migration.
 * A text search that looks like a code (a cod_anagrafe, a codice fiscale, a partita IVA) is an
 * equality on indexed columns, so finding one customer among 100,000 reads one index entry;
 * other text is a case-insensitive match on the name, read in the sort's index order. Either also
 * finds the customer whose external code (codice_esterno) is the term.
 */

/** A term shaped like a code: no spaces, digits in it, 11 characters or more, or ANA-... */
const looksLikeCode = (term: string) => /^ANA-\d+$/i.test(term) || (/^[A-Z0-9]{11,16}$/i.test(term) && /\d/.test(term));

export const customersList = defineList<{
  tipo: TipoSoggetto; classe_rischio: ClasseRischio; stato: StatoAnagrafe; pep: boolean; paese: string; codice_esterno: string;
}>({
  name: 'records.anagrafe',
  table: 'anagrafe',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => [
    'cod_azienda', 'cod_anagrafe', 'tipo_soggetto', 'denominazione', 'nome', 'cognome', 'codice_fiscale', 'partita_iva', 'codice_fiscale_estero',
    'paese_fiscale', 'data_nascita', 'nazionalita', 'paese_residenza', 'pep', 'classe_rischio', 'punteggio_rischio', 'stato', 'versione',
    'codice_esterno', 'created_at', 'updated_at',
  ],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'cod_anagrafe', type: 'text' }],
    denominazione: [{ column: 'denominazione', type: 'text' }, { column: 'cod_anagrafe', type: 'text' }],
    cod_anagrafe: [{ column: 'cod_anagrafe', type: 'text' }],
  },
  defaultSort: '-created_at',
  filters: {
    tipo: { apply: (qb, v) => qb.where('tipo_soggetto', v), sample: 'societa' },
    classe_rischio: { apply: (qb, v) => qb.where('classe_rischio', v), sample: 'alto' },
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'sospeso' },
    pep: { apply: (qb, v) => qb.where('pep', v), sample: true },
    paese: { apply: (qb, v) => qb.where('paese_residenza', v), sample: 'DE' },
    // The source system's code: at most one customer (the unique index anagrafe_codice_esterno).
    codice_esterno: { apply: (qb, v) => qb.where('codice_esterno', v), sample: 'EST-000042' },
  },
  search: {
    apply: (qb, like, term) => {
      const t = term.trim();
      // The external code (the source system's, as typed: codes may differ by case) is looked for both ways.
      if (looksLikeCode(t)) {
        const code = t.toUpperCase();
        qb.where((w) => w.where('cod_anagrafe', code).orWhere('codice_fiscale', code).orWhere('partita_iva', code).orWhere('codice_esterno', t));
      } else {
        qb.where((w) => w.whereILike('denominazione', like).orWhere('codice_esterno', t));
      }
    },
    sample: 'Rossi',
  },
  limit: { default: 25, max: 200 },
});

/** Relationships on which a subject has a role (any role, past or present). */
const withSubject = (qb: Knex.QueryBuilder, cod: string) => qb.whereExists((s) => s.select(s.client.raw('1')).from('rapporti_soggetti as rs')
  .whereRaw('rs.cod_azienda = rapporti.cod_azienda and rs.cod_rapporto = rapporti.cod_rapporto').where('rs.cod_anagrafe', cod));

export const relationshipsList = defineList<{ cod_anagrafe: string; stato: 'attivo' | 'sospeso' | 'chiuso'; tipo: string }>({
  name: 'records.rapporti',
  table: 'rapporti',
  tenantColumn: 'rapporti.cod_azienda',
  scopes: ['tenant'],
  columns: () => ['rapporti.*'],
  sorts: {
    created_at: [{ column: 'rapporti.created_at', type: 'timestamp' }, { column: 'rapporti.cod_rapporto', type: 'text' }],
    data_apertura: [{ column: 'rapporti.data_apertura', type: 'text' }, { column: 'rapporti.cod_rapporto', type: 'text' }],
    cod_rapporto: [{ column: 'rapporti.cod_rapporto', type: 'text' }],
  },
  defaultSort: '-created_at',
  filters: {
    cod_anagrafe: { apply: (qb, v) => withSubject(qb, v), sample: 'ANA-000001' },
    stato: { apply: (qb, v) => qb.where('rapporti.stato', v), sample: 'chiuso' },
    tipo: { apply: (qb, v) => qb.where('rapporti.tipo', v), sample: 'operazione_occasionale' },
  },
  limit: { default: 25, max: 200 },
});

export const documentsList = defineList<{ cod_anagrafe: string; tipo: TipoDocumento; stato: 'valido' | 'scaduto' | 'sostituito' }>({
  name: 'records.documenti',
  table: 'documenti',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: {
    created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }],
    data_scadenza: [{ column: 'data_scadenza', type: 'text', nullable: true }, { column: 'id', type: 'uuid' }],
  },
  defaultSort: '-created_at',
  filters: {
    cod_anagrafe: { apply: (qb, v) => qb.where('cod_anagrafe', v), sample: 'ANA-000001' },
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'passaporto' },
    stato: { apply: (qb, v) => qb.where('stato', v), sample: 'scaduto' },
  },
  limit: { default: 25, max: 200 },
});

export const linksList = defineList<{ cod_anagrafe: string; cod_anagrafe_da: string; cod_anagrafe_a: string; tipo: TipoLegame }>({
  name: 'records.legami',
  table: 'legami',
  tenantColumn: 'cod_azienda',
  scopes: ['tenant'],
  columns: () => ['*'],
  sorts: { created_at: [{ column: 'created_at', type: 'timestamp' }, { column: 'id', type: 'uuid' }] },
  defaultSort: '-created_at',
  filters: {
    // Either side: every link of the subject.
    cod_anagrafe: { apply: (qb, v) => qb.where((w) => w.where('cod_anagrafe_da', v).orWhere('cod_anagrafe_a', v)), sample: 'ANA-000001' },
    cod_anagrafe_da: { apply: (qb, v) => qb.where('cod_anagrafe_da', v), sample: 'ANA-000001' },
    cod_anagrafe_a: { apply: (qb, v) => qb.where('cod_anagrafe_a', v), sample: 'ANA-000002' },
    tipo: { apply: (qb, v) => qb.where('tipo', v), sample: 'legale_rappresentante' },
  },
  limit: { default: 25, max: 200 },
});

/** Beneficial owners: the owner links of the one graph (from the entity to the person). */
export const ownersList = defineList<{ cod_anagrafe: string; titolare: string }>({
  name: 'records.ubo',
  table: 'legami',
  from: (db) => db('legami').where('legami.tipo', 'titolare_effettivo'),
  tenantColumn: 'legami.cod_azienda',
  scopes: ['tenant'],
  columns: () => ['legami.*'],
  sorts: { created_at: [{ column: 'legami.created_at', type: 'timestamp' }, { column: 'legami.id', type: 'uuid' }] },
  defaultSort: '-created_at',
  filters: {
    cod_anagrafe: { apply: (qb, v) => qb.where('legami.cod_anagrafe_da', v), sample: 'ANA-000001' },
    titolare: { apply: (qb, v) => qb.where('legami.cod_anagrafe_a', v), sample: 'ANA-000002' },
  },
  limit: { default: 25, max: 200 },
});

export const RECORDS_LISTS = [customersList, relationshipsList, documentsList, linksList, ownersList];
