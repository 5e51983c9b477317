/**
 * Generic state machine runner. A machine is pure data; the same definition drives the
 * workflow's update validators, the API's 409/403 answers, the buttons a page shows and
 * the state diagram. Pure code: safe in workflows, the web process and unit tests.
 */

export interface MachineActor {
  id: string;
  username: string;
  roles: readonly string[];
}

export interface TransitionDef<S extends string = string, A extends string = string> {
  action: A;
  from: readonly S[];
  /** Omitted: the record stays in its state (for example adding a note). */
  to?: S;
  roles: readonly string[];
  /** The actor must differ from the user recorded in this field of the record (four-eyes). */
  fourEyes?: { against: string };
  /** Input fields that must be present and non-empty. */
  requires?: readonly string[];
}

export interface MachineDef<S extends string = string, A extends string = string> {
  name: string;
  initial: S;
  states: readonly S[];
  final?: readonly S[];
  transitions: readonly TransitionDef<S, A>[];
}

export type RejectionCode = 'INVALID_TRANSITION' | 'FORBIDDEN' | 'FOUR_EYES_REQUIRED' | 'MISSING_FIELDS';

export type TransitionCheck<S extends string, A extends string> =
  | { ok: true; transition: TransitionDef<S, A>; to: S }
  | { ok: false; code: RejectionCode; message: string; state: S; action: string; allowedActions: A[]; missing?: string[] };

export interface CheckRequest<S extends string> {
  state: S;
  action: string;
  actor: MachineActor;
  /** Fields of the record that guards read (for four-eyes: who did the first step). */
  record?: Record<string, unknown>;
  /** The transition's input (reason, outcome, ...), checked against `requires`. */
  input?: Record<string, unknown>;
}

const isFilled = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');

export function findTransition<S extends string, A extends string>(m: MachineDef<S, A>, state: S, action: string) {
  return m.transitions.find((t) => t.action === action && t.from.includes(state));
}

/** Every action the machine accepts in a state, whoever asks (what a 409 lists). */
export function actionsFrom<S extends string, A extends string>(m: MachineDef<S, A>, state: S): A[] {
  return [...new Set(m.transitions.filter((t) => t.from.includes(state)).map((t) => t.action))];
}

const roleOk = (t: TransitionDef, actor: Pick<MachineActor, 'roles'>) => t.roles.some((r) => actor.roles.includes(r));
const fourEyesOk = (t: TransitionDef, actor: MachineActor, record?: Record<string, unknown>) =>
  !t.fourEyes || !record || !isFilled(record[t.fourEyes.against]) || record[t.fourEyes.against] !== actor.id;

/** The actions this actor may take now: state, role and four-eyes all hold. */
export function allowedActions<S extends string, A extends string>(
  m: MachineDef<S, A>, state: S, actor: MachineActor, record?: Record<string, unknown>,
): A[] {
  return m.transitions
    .filter((t) => t.from.includes(state) && roleOk(t, actor) && fourEyesOk(t, actor, record))
    .map((t) => t.action)
    .filter((a, i, all) => all.indexOf(a) === i);
}

/** Decides one transition: the order of checks fixes which error the caller sees. */
export function checkTransition<S extends string, A extends string>(m: MachineDef<S, A>, req: CheckRequest<S>): TransitionCheck<S, A> {
  const t = findTransition(m, req.state, req.action);
  const fail = (code: RejectionCode, message: string, missing?: string[]): TransitionCheck<S, A> => ({
    ok: false, code, message, state: req.state, action: req.action,
    allowedActions: code === 'INVALID_TRANSITION' ? actionsFrom(m, req.state) : allowedActions(m, req.state, req.actor, req.record),
    ...(missing ? { missing } : {}),
  });
  if (!t) return fail('INVALID_TRANSITION', `action "${req.action}" is not allowed in state "${req.state}"`);
  if (!roleOk(t, req.actor)) return fail('FORBIDDEN', `action "${req.action}" needs one of the roles ${t.roles.join(', ')}`);
  if (!fourEyesOk(t, req.actor, req.record)) return fail('FOUR_EYES_REQUIRED', `action "${req.action}" must be done by a different user`);
  const missing = (t.requires ?? []).filter((f) => !isFilled(req.input?.[f]));
  if (missing.length) return fail('MISSING_FIELDS', `action "${req.action}" requires ${missing.join(', ')}`, missing);
  return { ok: true, transition: t, to: t.to ?? req.state };
}

export const isFinal = <S extends string>(m: MachineDef<S>, state: S) => (m.final ?? []).includes(state);
