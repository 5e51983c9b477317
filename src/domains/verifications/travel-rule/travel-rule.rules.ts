import type { DecisioneTravelRule, DirezioneTravelRule } from '../verifications.vocabulary';
import { readIvms101, type Ivms101Party } from './ivms101.read';
import { checkProofOfControl, type ProvaControllo } from './travel-rule.proof';
import type { TravelRuleScreening } from './travel-rule.types';

/**
 * The decision rules of a travel-rule transfer (Regulation (EU) 2023/1113), pure: the same facts
 * always give the same rules, proposal and list of missing data, so the page, the API and the
 * audit event show what the decision rested on.
 *
 * - Outgoing (we are the originator's provider): art. 14(1)-(2) information must accompany the
 *   transfer; missing data holds it until the customer completes it (art. 14(8): no execution before).
 * - Incoming (we are the beneficiary's provider): art. 16(1) detection of missing or incomplete
 *   information; art. 17(1) hold and ask, or return/reject; art. 17(2) repeated failures.
 * - Self-hosted address above EUR 1,000 (art. 14(5), 16(2)): proof that our customer controls it.
 * - A sanctions hit on a name or an address: reject (freezing obligations, Reg. (EU) 269/2014 etc.).
 */

export type EsitoRegola = 'rispettata' | 'mancante' | 'violata' | 'non_applicabile';

export interface RegolaValutata {
  regola: string;
  articolo: string;
  esito: EsitoRegola;
  messaggio: string;
}

export interface InformazioneMancante {
  /** JSON pointer into the IVMS101 payload, or the transfer's own field (prova_controllo, indirizzo_originatore). */
  campo: string;
  descrizione: string;
  articolo: string;
}

export interface TravelRuleFacts {
  codAzienda: string;
  codTransazione: string;
  direzione: DirezioneTravelRule;
  ivms101: unknown;
  rete: string | null;
  asset: string;
  indirizzo_originatore: string | null;
  indirizzo_beneficiario: string;
  tipo_wallet: 'vasp' | 'self_hosted';
  importo_eur: number | null;
  prova_controllo: ProvaControllo | null;
  screening: TravelRuleScreening | null;
  /** Decisions `held` already taken on this transfer: information asked for that many times. */
  richiesteInformazioni: number;
}

export interface TravelRuleEvaluation {
  regole: RegolaValutata[];
  informazioni_mancanti: InformazioneMancante[];
  proposta: DecisioneTravelRule;
  /** The decisions the rules allow a person to take (the proposal or a stricter one). */
  decisioni_ammesse: DecisioneTravelRule[];
}

/** Above this amount a self-hosted address needs proof of control (art. 14(5) and 16(2)). */
export const SOGLIA_PROVA_CONTROLLO_EUR = 1000;
/** Information asked for this many times without an answer: the transfer is returned (incoming) or rejected (art. 17(2)). */
export const MAX_RICHIESTE_INFORMAZIONI = 2;

/** Restrictive measures (EU and national) applied to transfers: art. 23 of the regulation. */
const ART_SANZIONI = 'art. 23 (misure restrittive)';

const SEVERITA: Record<DecisioneTravelRule, number> = { approved: 0, held: 1, returned: 2, rejected: 3 };

/** Art. 14(1)(d): address with country, document number and customer number; or date and place of birth. Legal persons: address with country and an official identifier or customer number. */
function identificazione(p: Ivms101Party): { ok: boolean; manca: string[] } {
  const indirizzo = p.indirizzi.some((a) => a.paese && a.righe.length > 0);
  if (p.tipo === 'company') {
    const manca = [...(indirizzo ? [] : ['indirizzo con paese']), ...(p.documento || p.codiceCliente ? [] : ['identificativo ufficiale (LEI o registro) o codice cliente'])];
    return { ok: manca.length === 0, manca };
  }
  const nascita = !!(p.nascita?.data && p.nascita.luogo);
  const completo = indirizzo && !!p.documento && !!p.codiceCliente;
  if (completo || nascita) return { ok: true, manca: [] };
  return {
    ok: false,
    manca: [...(indirizzo ? [] : ['indirizzo con paese']), ...(p.documento ? [] : ['numero del documento d\'identità']), ...(p.codiceCliente ? [] : ['codice cliente']), 'oppure data e luogo di nascita'],
  };
}

export function evaluateTravelRule(f: TravelRuleFacts): TravelRuleEvaluation {
  const v = readIvms101(f.ivms101);
  const regole: RegolaValutata[] = [];
  const mancanti: InformazioneMancante[] = [];
  const add = (regola: string, articolo: string, esito: EsitoRegola, messaggio: string, missing: Omit<InformazioneMancante, 'articolo'>[] = []) => {
    regole.push({ regola, articolo, esito, messaggio });
    for (const m of missing) mancanti.push({ ...m, articolo });
  };

  // Originator (art. 14(1)): name, account or DLT address, identification.
  const senzaNome = v.originatori.length === 0 ? [{ puntatore: '/originator/originatorPersons', nome: null }] : v.originatori.filter((p) => !p.nome).map((p) => ({ puntatore: p.puntatore, nome: null }));
  add('originatore_nome', 'art. 14(1)(a)', senzaNome.length ? 'mancante' : 'rispettata',
    senzaNome.length ? 'Manca il nome dell\'ordinante' : `Nome dell'ordinante presente: ${v.originatori.map((p) => p.nome).join(', ')}`,
    senzaNome.map((p) => ({ campo: `${p.puntatore}/name`, descrizione: 'Nome dell\'ordinante' })));
  const contoOrig = v.contiOriginatore.length > 0 || !!f.indirizzo_originatore;
  add('originatore_conto', 'art. 14(1)(b)-(c)', contoOrig ? 'rispettata' : 'mancante',
    contoOrig ? 'Indirizzo DLT o conto cripto dell\'ordinante presente' : 'Manca l\'indirizzo DLT o il numero di conto cripto dell\'ordinante',
    contoOrig ? [] : [{ campo: '/originator/accountNumber', descrizione: 'Indirizzo DLT o numero di conto cripto dell\'ordinante' }]);
  const idOrig = v.originatori.map((p) => ({ p, r: identificazione(p) })).filter((x) => !x.r.ok);
  add('originatore_identificazione', 'art. 14(1)(d)', v.originatori.length && !idOrig.length ? 'rispettata' : 'mancante',
    !v.originatori.length ? 'Ordinante assente: identificazione non verificabile'
      : idOrig.length ? `Identificazione dell'ordinante incompleta: ${idOrig.flatMap((x) => x.r.manca).join(', ')}`
        : 'Indirizzo, documento e codice cliente (o data e luogo di nascita) dell\'ordinante presenti',
    idOrig.map((x) => ({ campo: x.p.puntatore, descrizione: `Ordinante ${x.p.nome ?? ''}: ${x.r.manca.join(', ')}`.replace('  ', ' ') })));

  // Beneficiary (art. 14(2)): name and account or DLT address.
  const senzaNomeB = v.beneficiari.length === 0 ? ['/beneficiary/beneficiaryPersons'] : v.beneficiari.filter((p) => !p.nome).map((p) => p.puntatore);
  add('beneficiario_nome', 'art. 14(2)(a)', senzaNomeB.length ? 'mancante' : 'rispettata',
    senzaNomeB.length ? 'Manca il nome del beneficiario' : `Nome del beneficiario presente: ${v.beneficiari.map((p) => p.nome).join(', ')}`,
    senzaNomeB.map((ptr) => ({ campo: `${ptr}/name`, descrizione: 'Nome del beneficiario' })));
  const contoBen = v.contiBeneficiario.length > 0 || !!f.indirizzo_beneficiario;
  add('beneficiario_conto', 'art. 14(2)(b)-(c)', contoBen ? 'rispettata' : 'mancante',
    contoBen ? 'Indirizzo DLT o conto cripto del beneficiario presente' : 'Manca l\'indirizzo DLT o il conto cripto del beneficiario',
    contoBen ? [] : [{ campo: '/beneficiary/accountNumber', descrizione: 'Indirizzo DLT o numero di conto cripto del beneficiario' }]);

  // Self-hosted address above EUR 1,000: proof that our customer controls it.
  const articoloProva = f.direzione === 'in_uscita' ? 'art. 14(5)' : 'art. 16(2)';
  const indirizzoSelf = f.direzione === 'in_uscita' ? f.indirizzo_beneficiario : f.indirizzo_originatore;
  if (f.tipo_wallet !== 'self_hosted') {
    add('prova_controllo', articoloProva, 'non_applicabile', 'Indirizzo presso un prestatore di servizi per le cripto-attività: prova di controllo non richiesta');
  } else if (f.importo_eur !== null && f.importo_eur <= SOGLIA_PROVA_CONTROLLO_EUR) {
    add('prova_controllo', articoloProva, 'non_applicabile', `Indirizzo autogestito, importo non superiore a ${SOGLIA_PROVA_CONTROLLO_EUR} EUR: prova di controllo non richiesta`);
  } else if (!indirizzoSelf) {
    add('prova_controllo', articoloProva, 'mancante', 'Indirizzo autogestito dell\'ordinante non indicato: serve per verificarne il controllo',
      [{ campo: 'indirizzo_originatore', descrizione: 'Indirizzo autogestito dell\'ordinante' }]);
  } else {
    const sopra = f.importo_eur === null ? 'controvalore in euro non indicato (trattato come superiore alla soglia)' : `importo superiore a ${SOGLIA_PROVA_CONTROLLO_EUR} EUR`;
    const check = f.prova_controllo
      ? checkProofOfControl({ codAzienda: f.codAzienda, codTransazione: f.codTransazione, rete: f.rete ?? f.asset, indirizzo: indirizzoSelf, prova: f.prova_controllo })
      : null;
    if (check?.result === 'valid') {
      add('prova_controllo', articoloProva, 'rispettata', `Indirizzo autogestito ${indirizzoSelf}, ${sopra}: la firma del messaggio ne dimostra il controllo`);
    } else {
      const why = !check ? 'prova di controllo assente' : check.result === 'invalid' ? `prova non valida (${check.message})` : 'la rete non consente la verifica automatica della firma';
      add('prova_controllo', articoloProva, 'mancante', `Indirizzo autogestito ${indirizzoSelf}, ${sopra}: ${why}`,
        [{ campo: 'prova_controllo', descrizione: `Firma del messaggio di controllo con l'indirizzo ${indirizzoSelf}` }]);
    }
  }

  // Sanctions: names through the screening area, addresses through the sanctioned-address list.
  if (!f.screening) {
    add('sanzioni_nomi', ART_SANZIONI, 'mancante', 'Screening dei nomi non ancora eseguito');
    add('sanzioni_indirizzi', ART_SANZIONI, 'mancante', 'Screening degli indirizzi non ancora eseguito');
  } else {
    const nameHits = f.screening.nomi.flatMap((n) => n.hits.filter((h) => h.alert).map((h) => `${n.nome} ~ ${h.entry_name} (${h.list_name}, ${Math.round(h.score * 100)}%)`));
    add('sanzioni_nomi', ART_SANZIONI, nameHits.length ? 'violata' : 'rispettata',
      nameHits.length ? `Corrispondenza nelle liste sanzioni: ${nameHits.join('; ')}` : `Nessuna corrispondenza sopra la soglia di allerta per ${f.screening.nomi.length} nomi`);
    const addrHits = f.screening.indirizzi.filter((a) => a.hit).map((a) => `${a.indirizzo} (${a.entries.map((e) => `${e.name}, ${e.list_name}`).join('; ')})`);
    add('sanzioni_indirizzi', ART_SANZIONI, addrHits.length ? 'violata' : 'rispettata',
      addrHits.length ? `Indirizzo nella lista degli indirizzi sanzionati: ${addrHits.join('; ')}` : `Nessuno dei ${f.screening.indirizzi.length} indirizzi è nella lista degli indirizzi sanzionati`);
  }

  const informazioni = regole.some((r) => r.esito === 'mancante' && (r.regola.startsWith('originatore') || r.regola.startsWith('beneficiario') || r.regola === 'prova_controllo'));
  const ripetute = informazioni && f.richiesteInformazioni >= MAX_RICHIESTE_INFORMAZIONI;
  add('richieste_ripetute', 'art. 17(2)', ripetute ? 'violata' : informazioni ? 'rispettata' : 'non_applicabile',
    ripetute ? `Informazioni già richieste ${f.richiesteInformazioni} volte senza risposta completa: il trasferimento va ${f.direzione === 'in_entrata' ? 'restituito' : 'respinto'} e il prestatore segnalato come inadempiente`
      : informazioni ? `Informazioni richieste finora ${f.richiesteInformazioni} volte (al massimo ${MAX_RICHIESTE_INFORMAZIONI})` : 'Nessuna informazione da richiedere');

  const sanzioni = regole.some((r) => r.esito === 'violata' && r.regola.startsWith('sanzioni'));
  const screeningMancante = regole.some((r) => r.esito === 'mancante' && r.regola.startsWith('sanzioni'));
  const proposta: DecisioneTravelRule = sanzioni ? 'rejected'
    : ripetute ? (f.direzione === 'in_entrata' ? 'returned' : 'rejected')
      : informazioni || screeningMancante ? 'held' : 'approved';
  const decisioni_ammesse = (Object.keys(SEVERITA) as DecisioneTravelRule[])
    .filter((d) => SEVERITA[d] >= SEVERITA[proposta])
    // Returning is the beneficiary's provider's remedy (art. 17(1)); an outgoing transfer is simply not executed (rejected).
    .filter((d) => d !== 'returned' || f.direzione === 'in_entrata');
  return { regole, informazioni_mancanti: mancanti, proposta, decisioni_ammesse };
}
