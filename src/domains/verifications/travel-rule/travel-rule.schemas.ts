import { z } from 'zod';
import { TRAVEL_RULE_STATES } from '../../../../workflows/travel-rule/travel-rule.machine';
import { testo, testoOpzionale } from '../../../http/text-field';
import { listParamsShape, listResponse } from '../../../kit/list';
import { DECISIONI_TRAVEL_RULE, DIREZIONI_TRAVEL_RULE } from '../verifications.vocabulary';
import { travelRuleList } from './travel-rule.list';
import { refersTo } from '../../../db/references';

const empty = z.literal('').transform(() => undefined);
/** A single-line identifier (address, hash, reference): no spaces inside, printable ASCII. */
const code = (max: number, what: string) => z.string({ message: `Indica ${what}` }).trim().min(1, { message: `Indica ${what}`, abort: true }).max(max, { message: `Massimo ${max} caratteri`, abort: true })
  .regex(/^[\x21-\x7E]+$/, `${what[0]!.toUpperCase()}${what.slice(1)}: solo caratteri stampabili senza spazi`);
const optionalCode = (max: number, what: string) => z.union([code(max, what), z.literal('').transform(() => null), z.null()]).optional().transform((v) => v ?? null);
/** An amount as text or number: decimals kept exactly (numeric(38,18)). */
const decimal = (what: string, positive: boolean) => z.union([z.number(), z.string().trim()], { message: `Indica ${what}` })
  .transform((v) => (typeof v === 'number' ? String(v) : v.replace(',', '.')))
  .refine((v) => /^\d{1,20}(\.\d{1,18})?$/.test(v), { message: `${what[0]!.toUpperCase()}${what.slice(1)}: numero decimale non negativo non valido (es. 0.25)`, abort: true })
  .refine((v) => !positive || Number(v) > 0, `${what[0]!.toUpperCase()}${what.slice(1)} deve essere maggiore di zero`);

export const provaControlloSchema = z.object({
  messaggio: testo({ max: 1_000, vuoto: 'Indica il messaggio firmato' }),
  firma: code(1_000, 'la firma'),
});

/** The IVMS101 payload is checked against its JSON schema by the command (ajv): here only "an object". */
const ivms101 = z.record(z.string(), z.unknown(), { message: 'Il messaggio IVMS101 deve essere un oggetto JSON' });

export const recordTransferSchema = z.object({
  riferimento_esterno: optionalCode(200, 'il riferimento esterno'),
  direzione: z.enum(DIREZIONI_TRAVEL_RULE, { message: 'Direzione non valida: in_uscita o in_entrata' }),
  cod_anagrafe: refersTo('soggetto', optionalCode(64, 'il codice anagrafe')),
  asset: code(20, 'la cripto-attività (es. BTC, ETH, USDC)'),
  rete: optionalCode(20, 'la rete (es. BTC, ETH, ERC20)'),
  importo: decimal('l\'importo', true),
  importo_eur: z.union([decimal('il controvalore in euro', false).transform(Number), z.null()]).optional().transform((v) => v ?? null),
  tx_hash: optionalCode(200, 'l\'hash della transazione'),
  indirizzo_originatore: optionalCode(200, 'l\'indirizzo dell\'ordinante'),
  indirizzo_beneficiario: code(200, 'l\'indirizzo del beneficiario'),
  tipo_wallet: z.enum(['vasp', 'self_hosted'], { message: 'Tipo di wallet non valido: vasp o self_hosted' }).optional().default('vasp'),
  vasp_controparte: z.union([z.null(), testoOpzionale({ max: 200 })]).optional().transform((v) => v ?? null),
  prova_controllo: provaControlloSchema.nullable().optional().transform((v) => v ?? null),
  ivms101,
});
export type RecordTransferInput = z.infer<typeof recordTransferSchema>;

export const decisionSchema = z.object({
  decisione: z.enum(DECISIONI_TRAVEL_RULE, { message: 'Decisione non valida: approved, held, returned o rejected' }),
  motivo: testoOpzionale({ max: 5_000, multiline: true }),
});

export const completeTransferSchema = z.object({
  ivms101,
  prova_controllo: provaControlloSchema.nullable().optional(),
  indirizzo_originatore: optionalCode(200, 'l\'indirizzo dell\'ordinante').optional(),
});

export const screenSchema = z.object({});

export const listTransfersQuery = z.object({
  stato: z.enum(TRAVEL_RULE_STATES).optional().or(empty),
  direzione: z.enum(DIREZIONI_TRAVEL_RULE).optional().or(empty),
  tipo_wallet: z.enum(['vasp', 'self_hosted']).optional().or(empty),
  cod_anagrafe: z.string().trim().max(64).optional().or(empty),
  q: z.string().trim().max(200).optional(),
  ...listParamsShape(travelRuleList),
});
export type ListTransfersQuery = z.infer<typeof listTransfersQuery>;

const date = z.string();
const regola = z.object({ regola: z.string(), articolo: z.string(), esito: z.string(), messaggio: z.string() });
const mancante = z.object({ campo: z.string(), descrizione: z.string(), articolo: z.string() });
export const transferRecordSchema = z.object({
  id: z.string(), cod_transazione: z.string(), direzione: z.enum(DIREZIONI_TRAVEL_RULE), cod_anagrafe: z.string().nullable(), asset: z.string(),
  rete: z.string().nullable(), importo: z.string(), importo_eur: z.string().nullable(), tx_hash: z.string().nullable(),
  indirizzo_originatore: z.string().nullable(), indirizzo_beneficiario: z.string(), tipo_wallet: z.enum(['vasp', 'self_hosted']),
  vasp_controparte: z.string().nullable(), prova_controllo: provaControlloSchema.nullable(), ivms101: z.record(z.string(), z.unknown()),
  stato: z.enum(TRAVEL_RULE_STATES), screening: z.unknown(), screened_at: date.nullable(), decisione: z.enum(DECISIONI_TRAVEL_RULE).nullable(),
  motivo: z.string().nullable(), regole: z.array(regola), informazioni_mancanti: z.array(mancante), decided_by: z.string().nullable(),
  decided_at: date.nullable(), riferimento_esterno: z.string().nullable(), workflow_id: z.string(), created_by: z.string(), created_at: date, updated_at: date,
});

const workflowLink = z.object({ id: z.string(), url: z.string() });
export const transferViewSchema = transferRecordSchema.extend({
  allowed_actions: z.array(z.string()),
  /** The decisions the rules allow now (screened or held), the proposal first among them. */
  proposta: z.enum(DECISIONI_TRAVEL_RULE).nullable(),
  decisioni_ammesse: z.array(z.enum(DECISIONI_TRAVEL_RULE)),
  /** The text a self-hosted address's owner signs to prove control (when the rules ask for it). */
  messaggio_prova_controllo: z.string().nullable(),
  workflow: workflowLink,
});
export const transferDetailSchema = transferViewSchema.extend({
  decisioni: z.array(z.object({ decisione: z.string(), motivo: z.string(), regole: z.array(regola), informazioni_mancanti: z.array(mancante), decided_by: z.string(), decided_at: date })),
});
export const transferListResponse = listResponse(transferRecordSchema);
