import type { EddMotivo, EddStepTipo } from '../../../workflows/edd/edd.contract';
import { EU_HIGH_RISK } from '../onboarding';

/**
 * The enhanced measures an EDD case proposes, by reason. Sources: art. 25 d.lgs. 231/2007
 * (enhanced measures; comma 4 for PEPs: senior management authorisation, source of wealth
 * and of funds, enhanced ongoing monitoring; comma 4-bis for high-risk third countries:
 * additional information on the customer and beneficial owners, on the intended nature of the
 * relationship, on the source of funds and wealth, senior management approval, enhanced
 * monitoring) and the Bank of Italy provisions on customer due diligence of 30 July 2019,
 * Part Four (misure rafforzate). The analyst keeps, drops or adds measures when opening.
 */
export interface StandardStep { tipo: EddStepTipo; titolo: string; descrizione: string }

export const STANDARD_STEPS: Record<Exclude<EddStepTipo, 'altro'>, StandardStep> = {
  informazioni_cliente: {
    tipo: 'informazioni_cliente', titolo: 'Acquisire informazioni aggiuntive sul cliente',
    descrizione: 'Attività lavorativa, reputazione, fonti pubbliche e notizie negative; verifica dei dati identificativi con una fonte indipendente.',
  },
  informazioni_titolari: {
    tipo: 'informazioni_titolari', titolo: 'Acquisire informazioni aggiuntive sui titolari effettivi',
    descrizione: 'Assetto proprietario e di controllo, documentazione dei titolari effettivi e loro eventuale qualità di PEP.',
  },
  scopo_natura_rapporto: {
    tipo: 'scopo_natura_rapporto', titolo: 'Approfondire scopo e natura prevista del rapporto',
    descrizione: 'Ragioni dell\'operatività, volumi e controparti attesi, coerenza con il profilo economico del cliente.',
  },
  origine_fondi: {
    tipo: 'origine_fondi', titolo: 'Verificare l\'origine dei fondi',
    descrizione: 'Provenienza delle somme impiegate nel rapporto o nell\'operazione, con documentazione a supporto (es. buste paga, atti di vendita, estratti conto).',
  },
  origine_patrimonio: {
    tipo: 'origine_patrimonio', titolo: 'Verificare l\'origine del patrimonio',
    descrizione: 'Formazione del patrimonio complessivo del cliente (redditi, eredità, partecipazioni, cessioni), coerente con le informazioni disponibili.',
  },
  approvazione_alta_direzione: {
    tipo: 'approvazione_alta_direzione', titolo: 'Ottenere l\'autorizzazione dell\'alta direzione',
    descrizione: 'Autorizzazione all\'avvio o alla prosecuzione del rapporto da parte di chi ha poteri di amministrazione o direzione (art. 25, comma 4, d.lgs. 231/2007).',
  },
  monitoraggio_rafforzato: {
    tipo: 'monitoraggio_rafforzato', titolo: 'Attivare il controllo costante rafforzato',
    descrizione: 'Maggiore frequenza dell\'aggiornamento dei dati e dei controlli sull\'operatività; soglie di monitoraggio più basse.',
  },
};

/** The measures each reason calls for, in the order a compliance officer works them. */
const BY_MOTIVO: Record<EddMotivo, EddStepTipo[]> = {
  pep: ['approvazione_alta_direzione', 'origine_fondi', 'origine_patrimonio', 'monitoraggio_rafforzato'],
  paese_alto_rischio: ['informazioni_cliente', 'informazioni_titolari', 'scopo_natura_rapporto', 'origine_fondi', 'origine_patrimonio', 'approvazione_alta_direzione', 'monitoraggio_rafforzato'],
  classe_rischio_alta: ['informazioni_cliente', 'informazioni_titolari', 'scopo_natura_rapporto', 'origine_fondi', 'monitoraggio_rafforzato'],
  operativita_anomala: ['scopo_natura_rapporto', 'origine_fondi', 'monitoraggio_rafforzato'],
  altro: ['informazioni_cliente', 'monitoraggio_rafforzato'],
};

const ORDER = Object.keys(STANDARD_STEPS) as (keyof typeof STANDARD_STEPS)[];

/** The standard measures for these reasons: each once, in the catalogue's order. */
export function standardStepsFor(motivi: readonly EddMotivo[]): StandardStep[] {
  const wanted = new Set(motivi.flatMap((m) => BY_MOTIVO[m] ?? []));
  return ORDER.filter((t) => wanted.has(t)).map((t) => STANDARD_STEPS[t]);
}

export interface CustomerRiskFacts { pep: boolean; classe_rischio: string | null; nazionalita: string | null; paese_residenza: string | null }

/** Why a customer needs enhanced measures, from what its record says (art. 24 d.lgs. 231/2007). */
export function motiviForCustomer(c: CustomerRiskFacts): EddMotivo[] {
  const motivi: EddMotivo[] = [];
  if (c.pep) motivi.push('pep');
  if ([c.paese_residenza, c.nazionalita].some((p) => p && EU_HIGH_RISK.has(p.toUpperCase()))) motivi.push('paese_alto_rischio');
  if (c.classe_rischio === 'alto') motivi.push('classe_rischio_alta');
  return motivi;
}
