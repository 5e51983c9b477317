import { verifyWalletProof, type ProofCheck } from '../../onboarding';

/**
 * Proof of control of a self-hosted address (art. 14(5) and 16(2)): our customer signs, with the
 * address's key, a text that names the transfer and the address, so a signature made for another
 * transfer (or published anywhere) proves nothing here. The signature is checked with onboarding's
 * verifier (Ethereum personal_sign, Bitcoin signed messages); other networks cannot be checked
 * automatically and stay "missing" for the rules.
 */

export interface ProvaControllo {
  messaggio: string;
  firma: string;
}

export function travelRuleProofMessage(codAzienda: string, codTransazione: string, rete: string, indirizzo: string): string {
  return `Confermo di controllare l'indirizzo ${indirizzo.trim()} sulla rete ${rete} per il trasferimento ${codTransazione} presso ${codAzienda}.`;
}

export function checkProofOfControl(p: { codAzienda: string; codTransazione: string; rete: string; indirizzo: string; prova: ProvaControllo }): ProofCheck {
  const expected = travelRuleProofMessage(p.codAzienda, p.codTransazione, p.rete, p.indirizzo);
  if (p.prova.messaggio.trim() !== expected) return { result: 'invalid', message: `il messaggio firmato deve essere esattamente: ${expected}` };
  return verifyWalletProof(p.rete, p.indirizzo, expected, p.prova.firma);
}
