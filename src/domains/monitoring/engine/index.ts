/**
 * The monitoring engine's public surface (docs/monitoring.md): pure, no I/O. Types in
 * engine.types.ts; prepareRules once per rule set and lists, then evaluateEvent (real time),
 * evaluateDay (daily batch) or replayCustomer (replay, backtest); the standard typologies as
 * templates; the synthetic year lives in ../generator.
 */
export type {
  AlertMonitoraggio, AmbitoRegola, CandidatoAlert, CodiceTipologia, Decisione, EsitoDecisione, EsitoRegola, EsitoRegolaTipo, Giorno,
  ListaRiferimento, ListeRiferimento, LivelloRegola, MovimentoMonitorato, ProfiloCliente, RapportoMonitorato, Segno, StatistichePari,
  StatoDedup, StatoVersione, TipoSoggetto, UsoContanti, VersioneRegola,
} from './engine.types';
export { USI_CONTANTI } from './engine.types';
export { TIPOLOGIE } from '../monitoring.typologies';
export { prepareRules, RegolaNonValidaError, type RegolaPreparata, type RegolePreparate } from './engine.rules';
export { evaluateDay, evaluateEvent, isDue, MAX_EVIDENCE_MOVEMENTS, type InputEvento, type InputGiorno } from './engine.evaluate';
export { replayCustomer, type EsitoReplay, type InputReplay } from './engine.replay';
export { alertStateKey, applyHit, MAX_ALERT_MOVEMENTS } from './engine.dedup';
export { MIN_PEERS, peerAggregates, peerBaseAggregate, peerGroup, peerStatistics } from './engine.peers';
export { compareMovements, StoricoIndicizzato } from './engine.history';
export {
  CAMPI_MONITORAGGIO, DECLARED_DAYS, DECLARED_FIELD, LISTE_MONITORAGGIO, MONITORING_FIELDS, MONITORING_LIST_NAMES, validateMonitoringCondition,
  type CampoMonitoraggio,
} from './engine.fields';
export { atecoSection } from './engine.ateco';
