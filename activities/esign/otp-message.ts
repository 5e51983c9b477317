/** The message that carries a one-time code to the signer (who has no account, so e-mail only). */
export function otpMessage(p: { nome: string; documento: string; code: string }): { subject: string; text: string } {
  return {
    subject: `Il codice per firmare «${p.documento}»`,
    text: [
      `Gentile ${p.nome},`,
      `il codice monouso per firmare il documento «${p.documento}» è:`,
      `    ${p.code}`,
      'Inseriscilo nella pagina di firma. Se chiedi un nuovo codice, questo smette di valere. Non comunicarlo a nessuno: chi te lo chiede non agisce per nostro conto.',
      'Se non stai firmando un documento, ignora questo messaggio.',
    ].join('\n\n'),
  };
}
