import type { MachineDef } from '../lib/machine';

export const TRAVEL_RULE_STATES = ['received', 'screened', 'approved', 'rejected', 'returned', 'held'] as const;
export type TravelRuleStatus = (typeof TRAVEL_RULE_STATES)[number];

export const TRAVEL_RULE_ACTIONS = ['screen', 'approve', 'hold', 'return', 'reject', 'complete'] as const;
export type TravelRuleAction = (typeof TRAVEL_RULE_ACTIONS)[number];

/** The decisions (travel_rule_transazioni.decisione) and the action that takes each. */
export const DECISION_ACTIONS = { approved: 'approve', held: 'hold', returned: 'return', rejected: 'reject' } as const satisfies Record<string, TravelRuleAction>;

/** Who records and screens transfers (the API clients act as one of these); who decides: the compliance staff. */
const RECORDERS = ['co', 'analyst', 'admin'] as const;
const DECIDERS = ['co', 'analyst'] as const;

/**
 * Travel-rule transfer (docs/travel-rule.md, Regulation (EU) 2023/1113):
 * received --screen--> screened --approve|hold|return|reject--> approved | held | returned | rejected;
 * screened --screen--> screened (again, after a list update); held --complete (the missing data)--> received,
 * which the workflow screens again at once; held --return|reject--> returned | rejected (by a person,
 * or by the platform when the deadline for the missing data passes, art. 17).
 * Which decision the rules allow (a stricter one than their proposal, never a laxer one) is
 * checked by the decision's projection, where the rules are evaluated on the committed data.
 */
export const travelRuleMachine: MachineDef<TravelRuleStatus, TravelRuleAction> = {
  name: 'travel-rule',
  initial: 'received',
  states: TRAVEL_RULE_STATES,
  final: ['approved', 'rejected', 'returned'],
  transitions: [
    { action: 'screen', from: ['received', 'screened'], to: 'screened', roles: RECORDERS },
    { action: 'approve', from: ['screened'], to: 'approved', roles: DECIDERS },
    { action: 'hold', from: ['screened'], to: 'held', roles: DECIDERS, requires: ['motivo'] },
    { action: 'return', from: ['screened', 'held'], to: 'returned', roles: DECIDERS, requires: ['motivo'] },
    { action: 'reject', from: ['screened', 'held'], to: 'rejected', roles: DECIDERS, requires: ['motivo'] },
    { action: 'complete', from: ['held'], to: 'received', roles: RECORDERS, requires: ['ivms101'] },
  ],
};
