/** Score at or above which a hit is an alert (a likely match to be dispositioned). */
export const DEFAULT_MATCH_THRESHOLD = 0.85;
/** Score at or above which a hit is shown for review but does not alert on its own. */
export const DEFAULT_REVIEW_THRESHOLD = 0.72;
/** Candidates kept from retrieval for full scoring. */
export const DEFAULT_CANDIDATES = 25;
/** Multipliers that can only lower a name score. */
export const PENALTY = {
  schemaMismatch: 0.8,
  weakAlias: 0.95,
  dobMismatch: 0.7,
  dobYearNear: 0.92,
  nationalityMismatch: 0.9,
  genderMismatch: 0.8,
} as const;
/** Ceiling for a hit on a one-word weak alias. */
export const WEAK_SINGLE_ALIAS_CAP = 0.8;
/** Ceiling for a hit whose matched tokens are all very common names (Muhammad Ahmed, John Smith). */
export const COMMON_NAME_CAP = 0.8;
