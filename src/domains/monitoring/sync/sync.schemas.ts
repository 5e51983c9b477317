import { z } from 'zod';
import { refersTo } from '../../../db/references';
import { SYNC_TIPI } from './sync.sources';

const empty = z.literal('').transform(() => undefined);
const tipo = z.enum(SYNC_TIPI, { message: 'Tipo: cliente, regola o lista' }).optional().or(empty);
const limit = (max: number, def: number, label: string) => z.coerce.number({ message: `${label}: un numero` }).int(`${label}: un numero intero`)
  .min(1, `${label}: almeno 1`).max(max, `${label}: al massimo ${max}`).optional().transform((v) => v ?? def);

export const deadLettersQuery = z.object({ tipo, limit: limit(200, 50, 'Limite') });
export const reconcileQuery = z.object({ tipo, limite: limit(500, 50, 'Limite') });
export const pilotBody = z.object({
  cod_anagrafe: refersTo('cliente', z.string({ message: 'Codice del cliente: un testo' }).trim().min(1, 'Codice del cliente vuoto').max(64, 'Codice del cliente troppo lungo')).optional(),
  importo_eur: z.number({ message: 'Importo: un numero' }).positive('Importo: maggiore di zero').max(1e9, 'Importo: al massimo 1.000.000.000').optional(),
});

export const syncRecord = z.object({
  id: z.string(), cod_sync: z.string(), tipo: z.enum(SYNC_TIPI), stato: z.enum(['in_corso', 'completata', 'scarti', 'fallita', 'rieseguita', 'ritentata']),
  origine: z.enum(['pianificata', 'manuale', 'replay']), replay_di: z.string().nullable(), esaminati: z.number(), inseriti: z.number(), aggiornati: z.number(),
  rimossi: z.number(), invariati: z.number(), scarti: z.number(), errore: z.string().nullable(), motore: z.string().nullable(), avviata_da: z.string(),
  started_at: z.string(), ended_at: z.string().nullable(), rieseguita_da: z.string().nullable(), rieseguita_at: z.string().nullable(),
  tentativi: z.number(), ultimo_errore: z.string().nullable(), ultimo_tentativo_at: z.string().nullable(), ultimo_tentativo_da: z.string().nullable(),
});
export const deadLettersResponse = z.object({
  items: z.array(syncRecord.extend({ record: z.array(z.object({ tipo: z.enum(SYNC_TIPI), chiave: z.string(), motivo: z.string() })) })),
});
export const replayResponse = z.object({ replay: syncRecord, originale: syncRecord });

const kindStats = z.object({
  tipo: z.enum(SYNC_TIPI), esecuzioni: z.number(), completate: z.number(), dead_letter: z.number(), rieseguite: z.number(), in_corso: z.number(),
  record_scartati: z.number(), record_in_copia: z.number(), ultima_riuscita: z.string().nullable(), ultima_avviata: z.string().nullable(), ritardo_secondi: z.number().nullable(),
});
export const statsResponse = z.object({ per_tipo: z.array(kindStats) });

export const healthResponse = z.object({
  status: z.enum(['ok', 'degraded', 'down']), verificato_at: z.string(), problemi: z.array(z.string()), coda: z.string(), temporal: z.enum(['ok', 'down']),
  workers: z.array(z.object({ identity: z.string(), ultimo_contatto: z.string().nullable(), attivita_al_secondo: z.number().nullable() })),
  sync: z.object({ ritardo_secondi: z.number().nullable(), dead_letter: z.number(), per_tipo: z.array(kindStats) }),
  ultima_giornaliera: z.object({
    id: z.string(), giorno: z.string().nullable(), stato: z.string(), elaborati: z.number(), totale: z.number(), created_at: z.string(),
    finished_at: z.string().nullable(), errore: z.string().nullable(),
  }).nullable(),
});

const bucket = z.object({ totale: z.number(), chiavi: z.array(z.string()) });
export const reconcileResponse = z.object({
  verificato_at: z.string(), allineato: z.boolean(),
  per_tipo: z.array(z.object({
    tipo: z.enum(SYNC_TIPI), piattaforma: z.object({ record: z.number(), hash: z.string() }), copia: z.object({ record: z.number(), hash: z.string() }),
    allineati: z.number(), solo_piattaforma: bucket, solo_copia: bucket, diversi: bucket, allineato: z.boolean(),
  })),
});

export const pilotResponse = z.object({
  pilota: z.literal(true), annullata: z.literal(true), cod_anagrafe: z.string(), evento_id: z.string(), regole_valutate: z.number(), regole_escluse: z.number(),
  esito: z.string(), punteggio: z.number(), regole_attivate: z.array(z.string()), cod_decisione: z.string().nullable(), alert_che_avrebbe_toccato: z.number(),
  motore: z.string(), profilo_motore_da: z.enum(['copia', 'piattaforma', 'assente']), lettura_motore_ms: z.number(),
  passi: z.array(z.object({ passo: z.string(), ms: z.number() })), totale_ms: z.number(),
});
