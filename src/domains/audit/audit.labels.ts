/**
 * What every audit action means, in Italian: the one dictionary timelines and the audit view read.
 * AuditInput.action is typed by its keys, so an action written without a label does not compile
 * (actions built from a process's actions, such as `case.${CaseAction}`, included); a root test
 * hook (test/helpers/hooks.ts) also fails on any action found in the test database without a label.
 */
export const AUDIT_ACTION_LABELS = {
  // Sign-in and the organisation
  'auth.login': 'Accesso',
  'auth.logout': 'Uscita',
  'auth.tenant_switched': 'Cambio di azienda attiva',
  'azienda.created': 'Azienda creata',
  'azienda.updated': 'Azienda modificata',
  'azienda.activated': 'Azienda riattivata',
  'azienda.deactivated': 'Azienda disattivata',
  'utente.created': 'Utente creato',
  'utente.updated': 'Utente modificato',
  'utente.activated': 'Utente riattivato',
  'utente.deactivated': 'Utente disattivato',
  'utente.mfa_reset': 'Autenticazione a due fattori azzerata',
  'utente.totp_enrolled': 'Autenticazione a due fattori attivata',
  'setting.updated': 'Impostazione modificata',

  // Filings (regulatory report packages)
  'filing.create': 'Segnalazione regolamentare creata',
  'filing.edit': 'Contenuto della segnalazione modificato',
  'filing.classify': 'Segnalazione classificata',
  'filing.validate': 'Segnalazione validata',
  'filing.validation_failed': 'Validazione non superata',
  'filing.mark-ready': 'Segnalazione pronta',
  'filing.submit-for-approval': 'Inviata in approvazione',
  'filing.approve': 'Segnalazione approvata (quattro occhi)',
  'filing.reject': 'Segnalazione respinta in bozza',
  'filing.sign': 'Firma avviata',
  'filing.complete-signing': 'Firma completata',
  'filing.render-package': 'Pacchetto goAML generato',
  'filing.record-submission': 'Invio registrato',
  'filing.import-return': 'Esito della UIF/FIU importato',
  'filing.follow-up': 'Segnalazione di seguito creata',
  'filing.archive': 'Segnalazione archiviata',
  'filing.due_soon': 'Scadenza della segnalazione vicina',
  'filing.overdue': 'Segnalazione scaduta',

  // Regulatory reports generated from the movements (comunicazioni oggettive, S.AR.A.)
  'reporting.create': 'Generazione della segnalazione richiesta',
  'reporting.generate': 'Righe della segnalazione calcolate dai movimenti',
  'reporting.generated': 'Segnalazione generata',
  'reporting.failed': 'Generazione della segnalazione non riuscita',
  'reporting.approve': 'Segnalazione approvata (quattro occhi)',
  'reporting.submit': 'Invio alla UIF registrato',
  'reporting.complete-submission': 'Esito dell\'invio registrato',
  'reporting.due_soon': 'Termine di invio vicino',
  'reporting.overdue': 'Termine di invio scaduto',
  'reporting.filing_draft': 'Bozza di filing creata dalla segnalazione',
  'reporting.export': 'Segnalazione esportata',

  // Cases
  'case.create': 'Caso aperto',
  'case.add-event': 'Evento aggiunto al caso',
  'case.escalate': 'Caso escalato',
  'case.close': 'Chiusura richiesta',
  'case.complete-closure': 'Chiusura confermata (quattro occhi)',
  'case.reopen': 'Caso riaperto',
  'case.overdue': 'SLA scaduto',

  // EDD (adeguata verifica rafforzata)
  'edd.create': 'Verifica rafforzata aperta',
  'edd.aggiungi-step': 'Misura aggiunta alla verifica rafforzata',
  'edd.completa-step': 'Misura completata',
  'edd.approva': 'Verifica rafforzata inviata in approvazione',
  'edd.approva-supervisore': 'Verifica rafforzata approvata (quattro occhi)',
  'edd.respingi': 'Verifica rafforzata respinta',
  'edd.chiudi': 'Verifica rafforzata chiusa',

  // Screening
  'screening.subject.create': 'Soggetto aggiunto allo screening',
  'screening.subject.update': 'Soggetto dello screening aggiornato',
  'screening.match.create': 'Corrispondenza trovata',
  'screening.match.assegna': 'Corrispondenza assegnata',
  'screening.match.risolvi_richiesta': 'Risoluzione richiesta',
  'screening.match.risolvi': 'Risoluzione confermata (quattro occhi)',
  'screening.match.elimina': 'Corrispondenza eliminata',
  'screening.list.import': 'Lista importata',
  'screening.import.completed': 'Importazione delle liste completata',
  'screening.import.failed': 'Importazione delle liste non riuscita',
  'screening.rescreen.completed': 'Nuovo screening dei clienti completato',
  'screening.rescreen.failed': 'Nuovo screening dei clienti non riuscito',

  // Exports and imports
  'export.completed': 'Elenco esportato',
  'import.created': 'Importazione avviata',
  'import.completed': 'Importazione completata',
  'import.failed': 'Importazione non riuscita',

  // Onboarding
  'onboarding.create': 'Pratica aperta',
  'onboarding.edit': 'Modifica del cliente',
  'onboarding.validate': 'Controllo di completezza',
  'onboarding.screen': 'Screening dei soggetti',
  'onboarding.screen-wallets': 'Screening dei wallet',
  'onboarding.risk': 'Rischio calcolato',
  'onboarding.signing': 'Cerimonia di firma preparata',
  'onboarding.ceremony': 'Esito della cerimonia di firma',
  'onboarding.link': 'Messaggio al cliente',
  'onboarding.link-issued': 'Link per il cliente generato dal personale',
  'onboarding.link-used': 'Pratica riaperta dal cliente con un link',
  'onboarding.outcome-sent': 'Esito comunicato al cliente',
  'onboarding.submit': 'Pratica inviata',
  'onboarding.complete-submission': 'Dichiarazioni firmate: pratica in revisione',
  'onboarding.approve': 'Approvazione',
  'onboarding.complete-approval': 'Approvazione confermata (quattro occhi)',
  'onboarding.reject': 'Pratica respinta',
  'onboarding.request-info': 'Informazioni richieste al cliente',
  'onboarding.expire': 'Pratica scaduta',
  'onboarding.erase': 'Pratica cancellata',
  'onboarding.purge': 'Dati della pratica eliminati',
  'onboarding.wallet-verify': 'Wallet verificato',
  'onboarding.wallet-revoke': 'Wallet revocato',
  'onboarding.materialise': 'Cliente e rapporto creati',
  'onboarding.wallet.verify': 'Wallet verificato',
  'onboarding.wallet.revoke': 'Wallet revocato',
  'onboarding.document.download': 'Documento scaricato',

  // What an approved onboarding becomes
  'anagrafe.create': 'Anagrafica creata',
  'legame.create': 'Legame tra soggetti registrato',
  'titolare_effettivo.create': 'Titolare effettivo registrato',
  'rapporto.create': 'Rapporto aperto',
  'wallet.create': 'Wallet registrato',
  'cdd_review.create': 'Verifica periodica programmata',
  'cdd_review.reschedule': 'Verifica periodica ripianificata',
  'cdd_review.cancel': 'Verifica periodica annullata',
  'cdd_review.due': 'Verifica periodica scaduta',
  'cdd_task.create': 'Pratica di adeguata verifica aperta',
  'cdd_task.start': 'Adeguata verifica avviata',
  'cdd_task.add-note': 'Nota aggiunta alla pratica di adeguata verifica',
  'cdd_task.review': 'Adeguata verifica inviata in revisione',
  'cdd_task.send-back': 'Adeguata verifica rimandata all\'operatore',
  'cdd_task.complete': 'Adeguata verifica completata (quattro occhi)',
  'cdd_task.abstain': 'Astensione registrata (art. 42)',
  'cdd_task.delete': 'Pratica di adeguata verifica eliminata',
  'cdd_task.evidence': 'Evidenza aggiunta alla pratica di adeguata verifica',
  'anagrafe.cdd_update': 'Esito dell\'adeguata verifica registrato sul cliente',
  'questionario.create': 'Questionario di adeguata verifica creato',
  'questionario.answers': 'Risposte al questionario salvate',
  'questionario.complete': 'Questionario di adeguata verifica completato',

  // Customer registry (records)
  'anagrafe.update': 'Anagrafica modificata',
  'anagrafe.delete': 'Anagrafica eliminata (dati conservati)',
  'rapporto.soggetto': 'Soggetto collegato al rapporto',
  'rapporto.close': 'Rapporto chiuso',
  'documento.create': 'Documento registrato',
  // Document records (issue 13, part docs)
  'documento.replace': 'Documento sostituito da una nuova versione',
  'documento.verify': 'Documento verificato',
  'documento.download': 'Copia del documento scaricata',

  // Movements (one event per request or import batch, with its counts)
  'movimenti.insert': 'Movimenti registrati',

  // Electronic signature
  'esign.start': 'Cerimonia di firma avviata',
  'esign.terms': 'Condizioni accettate dal firmatario',
  'esign.present': 'Documento presentato al firmatario',
  'esign.otp-resent': 'Codice di firma inviato di nuovo',
  'esign.otp-failed': 'Codice di firma errato',
  'esign.sign': 'Documento firmato',
  'esign.expire': 'Cerimonia di firma scaduta',
  'esign.lock': 'Cerimonia di firma bloccata',
  'esign.cancel': 'Cerimonia di firma annullata',

  // Risk model (issue 12, part ENGINE): factors, rule sets, rules, thresholds
  'risk_model.seed': 'Modello di rischio predefinito creato',
  'risk_model.factor-create': 'Fattore di rischio creato',
  'risk_model.factor-update': 'Fattore di rischio modificato',
  'risk_model.factor-deactivate': 'Fattore di rischio disattivato',
  'risk_model.draft-create': 'Bozza di regole creata',
  'risk_model.draft-discard': 'Bozza di regole scartata',
  'risk_model.activate': 'Versione delle regole attivata',
  'risk_model.rule-create': 'Regola di rischio creata',
  'risk_model.rule-update': 'Regola di rischio modificata',
  'risk_model.rule-deactivate': 'Regola di rischio disattivata',
  'risk_model.threshold-create': 'Soglia di rischio creata',
  'risk_model.threshold-update': 'Soglia di rischio modificata',

  // Risk assessments (part ASSESS)
  'risk_assessment.create': 'Valutazione del rischio avviata',
  'risk_assessment.calculate': 'Rischio calcolato',
  'risk_assessment.override': 'Classe di rischio modificata dall\'analista (in attesa di conferma)',
  'risk_assessment.complete-override': 'Modifica della classe confermata (quattro occhi)',
  'risk_assessment.release': 'Classe di rischio rilasciata',
  'risk_assessment.archive': 'Valutazione archiviata',
  'risk_assessment.override_expired': 'Modifica della classe scaduta',
  'risk_assessment.case_opened': 'Caso di indagine aperto dalla valutazione',
  'anagrafe.risk_class': 'Classe di rischio del cliente aggiornata',
  // Risk self-assessment (autovalutazione), controls, RAF, KRI, decisions (part SELF)
  'rischio_autovalutazione.create': 'Autovalutazione dei rischi creata',
  'rischio_autovalutazione.linea': 'Valutazione di una linea di business modificata',
  'rischio_autovalutazione.invia': 'Autovalutazione inviata in approvazione',
  'rischio_autovalutazione.approva': 'Autovalutazione approvata (quattro occhi)',
  'rischio_autovalutazione.respingi': 'Autovalutazione respinta e riportata in bozza',
  'rischio_autovalutazione.export': 'Autovalutazione esportata',
  'rischio_linea.update': 'Linea di business modificata',
  'rischio_controllo.create': 'Controllo antiriciclaggio aggiunto',
  'rischio_controllo.test': 'Test di un controllo registrato',
  'rischio_raf.update': 'Metrica RAF modificata',
  'rischio_kri.rileva': 'Valori mensili dei KRI rilevati',
  'rischio_decisione.create': 'Decisione registrata',

  // Verifications: KYC and KYB (issue 13, part kyc)
  'verifica.create': 'Verifica KYC/KYB aperta',
  'verifica.start': 'Verifica presa in lavorazione',
  'verifica.approve': 'Verifica approvata',
  'verifica.reject': 'Verifica respinta',
  'verifica.expire': 'Verifica scaduta',
  'verifica.scadenza': 'Scadenza della verifica ricalcolata (documenti cambiati)',
  'verifica.profilo': 'Profilo societario della verifica KYB aggiornato',
  'verifica_check.create': 'Controllo aggiunto alla verifica KYB',
  'verifica_check.update': 'Esito di un controllo KYB registrato',
  'verifica_check.waive': 'Controllo KYB derogato (responsabile antiriciclaggio)',

  // Verifications: the consoles (issue 13, part console)
  'verifica.documento_download': 'Documento di una verifica KYC/KYB scaricato',

  // Verifications: the corporate structure and its beneficial owners (issue 13, part ubo)
  'verifica.struttura_seed': 'Struttura societaria impostata dai dati dichiarati',
  'verifica.struttura_nodo': 'Soggetto aggiunto alla struttura societaria',
  'verifica.struttura_arco': 'Legame aggiunto alla struttura societaria',
  'verifica.calcola_ubo': 'Titolari effettivi calcolati dalla struttura societaria',

  // Messages
  'outbox.retry': 'Nuovo tentativo di consegna di un messaggio',

  // Risk: portfolio runs (BATCH)
  'risk.run.started': 'Esecuzione sul portafoglio avviata',
  'risk.run.completed': 'Esecuzione sul portafoglio completata',
  'risk.run.failed': 'Esecuzione sul portafoglio non riuscita',
  'risk.run.cancelled': 'Esecuzione sul portafoglio annullata',

  // Travel rule (Reg. (UE) 2023/1113)
  'travel_rule.record': 'Trasferimento di cripto-attività registrato (travel rule)',
  'travel_rule.screen': 'Screening del trasferimento eseguito (nomi e indirizzi)',
  'travel_rule.decide': 'Decisione sul trasferimento (travel rule)',
  'travel_rule.complete': 'Dati mancanti del trasferimento integrati',

  // Transaction monitoring and KYT (issue 23): rules and alerts
  'monitoring.seed.created': 'Anno dimostrativo di monitoraggio avviato',
  'monitoring.seed.completed': 'Anno dimostrativo di monitoraggio completato',
  'monitoring.seed.failed': 'Anno dimostrativo di monitoraggio non riuscito',
  'monitoring.rule.create': 'Regola di monitoraggio creata (prima bozza)',
  'monitoring.rule.rename': 'Nome o tipologia della regola di monitoraggio cambiati',
  'monitoring.rule.draft': 'Nuova bozza della regola di monitoraggio dalla versione in vigore',
  'monitoring.rule.update': 'Bozza della regola di monitoraggio modificata',
  'monitoring.rule.retire': 'Regola di monitoraggio ritirata',
  'monitoring.rule.discard': 'Bozza della regola di monitoraggio scartata',
  'monitoring.rule.activate': 'Versione della regola di monitoraggio messa in vigore',
  'monitoring.alert.raise': 'Alert generato',
  'monitoring.alert.hit': 'Nuovo riscontro aggiunto all\'alert',
  'monitoring.alert.create': 'Alert inserito a mano',
  'monitoring.alert.assign': 'Alert assegnato',
  'monitoring.alert.escalate': 'Alert escalato in un caso',
  'monitoring.alert.close': 'Alert chiuso',
  'monitoring.alert.propose-closure': 'Chiusura dell\'alert proposta (quattro occhi)',
  'monitoring.alert.confirm-closure': 'Chiusura dell\'alert confermata (quattro occhi)',
  'monitoring.alert.reopen': 'Chiusura dell\'alert respinta',
  'monitoring.alert.delete': 'Alert eliminato',
  'monitoring.list.create': 'Lista di riferimento del monitoraggio creata',
  'monitoring.list.version': 'Nuova versione di una lista di riferimento del monitoraggio',
  'monitoring.kyt.events': 'Eventi KYT ricevuti e valutati',
  'monitoring.run.start': 'Elaborazione di monitoraggio avviata',
  'monitoring.run.finish': 'Elaborazione di monitoraggio conclusa',
  'monitoring.run.cancel': 'Elaborazione di monitoraggio annullata',
  'monitoring.release.request': 'Richiesta la messa in vigore di una bozza di regola',
  'monitoring.release.approve': 'Messa in vigore della bozza approvata (quattro occhi)',
  'monitoring.release.reject': 'Messa in vigore della bozza respinta',
  // Document spine (issue 25, part 3)
  'spine.upload': 'Documento caricato nell\'indice dei documenti',
  'spine.download': 'Documento scaricato dall\'indice dei documenti',
  'spine.hold': 'Blocco legale applicato a un documento',
  'spine.release': 'Blocco legale rimosso da un documento',
  // Customer dossiers (docs/dossier.md)
  'dossier.generate': 'Fascicolo del cliente generato',
  'dossier.sign': 'Firma del fascicolo avviata',
  'dossier.complete-signing': 'Fascicolo firmato',
  'dossier.archive': 'Fascicolo archiviato',
  'dossier.download': 'Fascicolo del cliente scaricato',
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;

/** The actions of one family without their prefix: what a helper such as auditCase(trx, p, 'edit') may write. */
export type AuditActionOf<P extends string> = AuditAction extends infer A ? (A extends `${P}.${infer S}` ? S : never) : never;

/** The Italian label of an action; an action from before a rename (old rows) shows its identifier. */
export const auditActionLabel = (action: string): string => (AUDIT_ACTION_LABELS as Record<string, string>)[action] ?? action;

export const hasAuditActionLabel = (action: string): boolean => Object.hasOwn(AUDIT_ACTION_LABELS, action);
