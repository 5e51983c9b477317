import { z } from 'zod';
import { SOS_RUOLI } from '../../../workflows/sos/sos.contract';
import { SOS_STATES } from '../../../workflows/sos/sos.machine';
import { refersTo } from '../../db/references';
import { dayField } from '../../http/day-field';
import { listParamsShape, listResponse } from '../../kit/list';
import { sosList } from './sos.list';
import { testo, testoOpzionale, testoOVuoto } from '../../http/text-field';
import { subIndice } from '../monitoring';
import { SEGNI } from '../movements';
import { isFenomeno } from './sos.codes';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Data non valida (AAAA-MM-GG)').refine((v) => !Number.isNaN(Date.parse(v)), 'Data non valida');
const shortText = (max: number) => z.string().trim().max(max, `Massimo ${max} caratteri`);
const optionalCode = (max: number) => shortText(max).optional().nullable().transform((v) => (v ? v : null));

export const sosOperationSchema = z.object({
  movimento_id: refersTo('movimento', z.uuid({ message: 'Movimento non valido' }).optional().nullable()),
  cod_alert: optionalCode(32),
  data_operazione: day,
  importo: z.number({ message: 'Importo non valido' }).positive('L\'importo deve essere positivo').max(1e15, 'Importo troppo grande'),
  valuta: z.string().regex(/^[A-Z]{3}$/, 'Valuta non valida (codice ISO a tre lettere)').default('EUR'),
  segno: z.enum(SEGNI, { message: 'Segno non valido (entrata o uscita)' }).optional().nullable(),
  causale: optionalCode(200),
  descrizione: shortText(2_000).default(''),
});

export const sosSubjectSchema = z.object({
  cod_anagrafe: refersTo('soggetto', optionalCode(64)),
  nominativo: testo({ max: 300, vuoto: 'Indica il nominativo' }),
  codice_fiscale: optionalCode(32),
  ruolo: z.enum(SOS_RUOLI, { message: 'Scegli un ruolo valido' }),
});

export const sosContentSchema = z.object({
  operazioni: z.array(sosOperationSchema).max(500).default([]),
  soggetti: z.array(sosSubjectSchema).max(100).default([]),
  rapporti: z.array(z.object({ cod_rapporto: refersTo('rapporto', optionalCode(64)), descrizione: testo({ max: 500, vuoto: 'Descrivi il rapporto' }) })).max(100).default([]),
  legami: z.array(z.object({ da: z.number().int().min(0), a: z.number().int().min(0), tipo: testo({ max: 100, vuoto: 'Indica il tipo di legame' }) })).max(200).default([]),
  fenomeni: z.array(z.string().refine(isFenomeno, 'Codice fenomeno sconosciuto (elenco UIF)')).max(20).default([]),
  indicatori: z.array(z.object({
    indicatore: z.number().int().min(1).max(34),
    sottoindice: z.string().nullable().default(null),
    proposto: z.boolean().optional(),
  }).refine((i) => i.sottoindice === null || subIndice(i.sottoindice)?.indicatore === i.indicatore, { message: 'Sub-indice sconosciuto o di un altro indicatore', path: ['sottoindice'] }))
    .max(100).default([]),
}).superRefine((c, ctx) => {
  c.legami.forEach((l, i) => {
    if (l.da >= c.soggetti.length || l.a >= c.soggetti.length || l.da === l.a) {
      ctx.addIssue({ code: 'custom', path: ['legami', i], message: 'Il legame deve unire due soggetti diversi della segnalazione' });
    }
  });
});

/** A new report: from an alert, a case, a CDD abstention or by hand. */
export const createSosSchema = z.object({
  origine: z.enum(['alert', 'caso', 'cdd', 'manuale'], { message: 'Scegli un\'origine valida' }).default('manuale'),
  /** The alert's id or code, the case's id, the CDD task's code. */
  origine_ref: optionalCode(64),
  cod_anagrafe: refersTo('soggetto', optionalCode(64)),
  oggetto: testo({ max: 200, min: 3, vuoto: 'Indica l\'oggetto della segnalazione' }),
  descrizione: testoOVuoto({ max: 20_000, multiline: true }),
  sostituisce: optionalCode(64),
  content: sosContentSchema.optional(),
}).superRefine((b, ctx) => {
  if (b.origine !== 'manuale' && !b.origine_ref) ctx.addIssue({ code: 'custom', path: ['origine_ref'], message: 'Indica da quale record nasce la segnalazione' });
  if (b.origine === 'manuale' && !b.cod_anagrafe) ctx.addIssue({ code: 'custom', path: ['cod_anagrafe'], message: 'Indica il soggetto segnalato' });
});
export type CreateSosInput = z.infer<typeof createSosSchema>;

export const sosTransitionSchema = z.object({
  action: z.enum(['submit', 'evaluate', 'archive', 'to_transmit', 'close'], { message: 'Azione non valida' }),
  motivazione: testoOpzionale({ max: 5_000, multiline: true }),
});

export const completeTransmissionSchema = z.object({
  protocollo: shortText(64).regex(/^[A-Za-z0-9./-]+$/, 'Protocollo UIF non valido').min(1, 'Indica il numero di protocollo UIF'),
});

export const sosCommunicationSchema = z.object({
  direzione: z.enum(['inviata', 'ricevuta'], { message: 'Scegli la direzione' }),
  data: day,
  oggetto: testo({ max: 300, vuoto: 'Indica l\'oggetto' }),
  testo: testoOVuoto({ max: 20_000, multiline: true }),
  protocollo: optionalCode(64),
});

const empty = z.literal('').transform(() => undefined);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** The SOS list's query (the API, the pages, the export): the list's filters plus sort, limit and cursor. */
export const listSosQuery = z.object({
  stato: z.enum(SOS_STATES, { message: 'Stato non valido' }).optional().or(empty),
  tipo: z.enum(['originale', 'sostitutiva'], { message: 'Tipo non valido (originale o sostitutiva)' }).optional().or(empty),
  cod_anagrafe: z.string().trim().min(1).max(64, 'Codice cliente: al massimo 64 caratteri').optional().or(empty),
  dal: dayField('Dal').optional().or(empty),
  al: dayField('Al').optional().or(empty),
  reporter: z.union([z.uuid({ message: 'Autore non valido' }), z.literal('me')]).optional().or(empty),
  in_coda: bool.optional().or(empty),
  q: shortText(200).optional(),
  ...listParamsShape(sosList),
}).superRefine((q, ctx) => {
  if (q.dal && q.al && q.dal > q.al) ctx.addIssue({ code: 'custom', path: ['al'], message: 'La data finale precede quella iniziale' });
});
export type ListSosQuery = z.infer<typeof listSosQuery>;

const sosRecord = z.object({
  id: z.string(), cod_segnalazione: z.string(), tipo: z.string(), sostituisce_id: z.string().nullable(), stato: z.enum(SOS_STATES),
  origine: z.string(), origine_ref: z.string().nullable(), cod_anagrafe: z.string(), oggetto: z.string(), descrizione: z.string(),
  reporter_username: z.string(), valutatore: z.string().nullable(), motivazione_archiviazione: z.string().nullable(),
  protocollo_uif: z.string().nullable(), trasmessa_at: z.string().nullable(), valutazione_giorni: z.number(),
  valutazione_scadenza: z.string().nullable(), escalated: z.boolean(), created_at: z.string(), updated_at: z.string(), closed_at: z.string().nullable(),
});
export const sosListResponse = listResponse(sosRecord);
export const sosWriteResponse = sosRecord.extend({ allowed_actions: z.array(z.string()), workflow: z.object({ id: z.string(), url: z.string() }) });
export const sosDetailResponse = sosWriteResponse.extend({
  content: z.record(z.string(), z.unknown()),
  allegati: z.array(z.record(z.string(), z.unknown())),
  comunicazioni: z.array(z.record(z.string(), z.unknown())),
  eventi: z.array(z.record(z.string(), z.unknown())),
});
export const sosAttachmentResponse = z.object({ id: z.string(), nome_file: z.string(), mime: z.string(), dimensione: z.number(), sha256: z.string() });
export const sosCommunicationResponse = z.object({ id: z.string(), direzione: z.string(), data: z.string(), oggetto: z.string(), protocollo: z.string().nullable() });
