import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * The defaults a tenant starts from, written on first use of the self-assessment pages and
 * idempotent (insert ... on conflict do nothing on the natural keys): three business lines with
 * their weights, the RAF metrics and the KRI definitions. Everything is edited afterwards.
 */
const LINEE = [
  {
    codice: 'conti_pagamenti', nome: 'Conti e servizi di pagamento', peso: 60, rischio_base: 2, ordine: 10,
    tipi_rapporto: ['conto_corrente', 'conto_deposito', 'conto_pagamento', 'carta', 'rapporto_continuativo'],
    descrizione: 'Conti, carte e servizi di pagamento a clientela al dettaglio e imprese',
    motivazione_peso: 'Quota prevalente dei clienti e dei volumi movimentati',
  },
  {
    codice: 'cripto_attivita', nome: 'Cripto-attività', peso: 25, rischio_base: 3, ordine: 20,
    tipi_rapporto: ['custodia_cripto', 'cambio_cripto'],
    descrizione: 'Custodia e cambio di cripto-attività',
    motivazione_peso: 'Linea in crescita con rischio proprio elevato (EBA/GL/2021/02, orientamento 21)',
  },
  {
    codice: 'credito_altro', nome: 'Credito e altri servizi', peso: 15, rischio_base: 1, ordine: 30,
    tipi_rapporto: ['finanziamento', 'investimento', 'operazione_occasionale', 'altro'],
    descrizione: 'Finanziamenti, investimenti, operazioni occasionali e altri rapporti',
    motivazione_peso: 'Quota minore dell\'operatività complessiva',
  },
];

const METRICHE = [
  { codice: 'clienti_alto_rischio', nome: 'Clienti in classe alta o medio-alta', calcolo: 'quota_clienti_alto_rischio', unita: 'percentuale', appetito: 10, tolleranza: 15, capacita: 25, ordine: 10 },
  { codice: 'revisioni_scadute', nome: 'Revisioni di adeguata verifica scadute', calcolo: 'revisioni_cdd_scadute', unita: 'numero', appetito: 5, tolleranza: 20, capacita: 50, ordine: 20 },
  { codice: 'clienti_pep', nome: 'Clienti PEP', calcolo: 'quota_clienti_pep', unita: 'percentuale', appetito: 2, tolleranza: 5, capacita: 10, ordine: 30 },
  { codice: 'contante', nome: 'Quota del contante', calcolo: 'quota_contanti', unita: 'percentuale', appetito: 10, tolleranza: 20, capacita: 35, ordine: 40 },
];

const KRI = [
  { codice: 'kri_alto_rischio', nome: 'Clienti in classe alta o medio-alta', calcolo: 'quota_clienti_alto_rischio', unita: 'percentuale', soglia_ambra: 10, soglia_rossa: 20, ordine: 10 },
  { codice: 'kri_paesi', nome: 'Clienti legati a paesi ad alto rischio', calcolo: 'quota_clienti_paesi_alto_rischio', unita: 'percentuale', soglia_ambra: 3, soglia_rossa: 8, ordine: 20 },
  { codice: 'kri_revisioni', nome: 'Revisioni di adeguata verifica scadute', calcolo: 'revisioni_cdd_scadute', unita: 'numero', soglia_ambra: 5, soglia_rossa: 20, ordine: 30 },
  { codice: 'kri_pratiche', nome: 'Pratiche di adeguata verifica oltre la scadenza', calcolo: 'pratiche_cdd_scadute', unita: 'numero', soglia_ambra: 3, soglia_rossa: 10, ordine: 40 },
  { codice: 'kri_contante', nome: 'Quota del contante sui movimenti', calcolo: 'quota_contanti', unita: 'percentuale', soglia_ambra: 15, soglia_rossa: 30, ordine: 50 },
];

export async function ensureSelfDefaults(trx: Knex.Transaction, codAzienda: string): Promise<void> {
  // One cheap read on the common path: a tenant that has lines has been seeded.
  const seeded = await trx('rischio_linee').where({ cod_azienda: codAzienda }).first('id');
  if (seeded) return;
  const by = 'sistema';
  await trx('rischio_linee').insert(LINEE.map((l) => ({ id: randomUUID(), cod_azienda: codAzienda, created_by: by, ...l })))
    .onConflict(['cod_azienda', 'codice']).ignore();
  await trx('rischio_raf_metriche').insert(METRICHE.map((m) => ({ id: randomUUID(), cod_azienda: codAzienda, created_by: by, ...m })))
    .onConflict(['cod_azienda', 'codice']).ignore();
  await trx('rischio_kri').insert(KRI.map((k) => ({ id: randomUUID(), cod_azienda: codAzienda, created_by: by, ...k })))
    .onConflict(['cod_azienda', 'codice']).ignore();
}
