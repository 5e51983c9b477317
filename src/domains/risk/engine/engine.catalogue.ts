import { validateCondition, type ConditionIssue } from '../../../kit/conditions';
import type { Condizione } from '../../../kit/conditions/condition.types';
import { SQL_AGGREGATE_CATALOGUE } from '../../movements';
import { emptyProfile } from './engine.profile';
import { RISK_LIST_NAMES } from './engine.lists';

/**
 * What a rule may read: the risk profile's fields (dotted paths of ProfiloRischio) and any
 * answer of the KYC questionnaire (`questionario.<domanda>`), and the named lists the engine
 * passes to the evaluator. A condition naming anything else is refused when it is saved, with
 * the place of the mistake (`condizione.tutti.1.campo: Campo sconosciuto`).
 */
function leafPaths(o: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(o).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) && k !== 'questionario'
    ? leafPaths(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

export const PROFILE_FIELDS: ReadonlySet<string> = new Set(leafPaths(emptyProfile() as unknown as Record<string, unknown>).filter((p) => p !== 'questionario'));
const QUESTION = /^questionario\.[A-Za-z0-9_]+$/;
export const isKnownField = (campo: string) => PROFILE_FIELDS.has(campo) || QUESTION.test(campo);

/**
 * The condition's issues: the language's own checks, limited to the aggregates the movements
 * area's SQL loader computes (monitoring's in-memory ones are refused: `aggregato.fn: Funzione non
 * disponibile qui`), then the catalogue of fields.
 */
export function validateRuleCondition(c: unknown): ConditionIssue[] {
  const issues = validateCondition(c, { liste: RISK_LIST_NAMES, ...SQL_AGGREGATE_CATALOGUE });
  if (issues.length) return issues;
  const walk = (node: Condizione, path: (string | number)[]) => {
    if ('tutti' in node) node.tutti.forEach((x, i) => walk(x, [...path, 'tutti', i]));
    else if ('almeno_uno' in node) node.almeno_uno.forEach((x, i) => walk(x, [...path, 'almeno_uno', i]));
    else if ('non' in node) walk(node.non, [...path, 'non']);
    else if ('campo' in node && !isKnownField(node.campo)) issues.push({ path: [...path, 'campo'], message: `Campo sconosciuto: ${node.campo} (campi del profilo di rischio o questionario.<domanda>)` });
  };
  walk(c as Condizione, []);
  return issues;
}
