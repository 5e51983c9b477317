import assert from 'node:assert/strict';
import { allowedActions } from '../../workflows/lib/machine';
import { caseMachine } from '../../workflows/case/case.machine';
import { onboardingMachine } from '../../workflows/onboarding/onboarding.machine';
import { DIAGRAM_FIT_WIDTH, DIAGRAM_STYLE, dotToInlineSvg, machineToDot, stateDiagramSvg, stateDiagramView } from '../../src/http/state-diagram';
import { sosMachine } from '../../workflows/sos/sos.machine';
import { filingMachine } from '../../workflows/filing/filing.machine';
import { AZIONE_LABELS, STATO_LABELS } from '../../src/domains/onboarding/onboarding-admin.labels';

/** The attribute list of one DOT statement (a node or an edge), found by its id. */
function statement(dot: string, id: string): string {
  const line = dot.split('\n').find((l) => l.includes(`id="${id}"`));
  assert.ok(line, `no statement with id ${id} in\n${dot}`);
  return line;
}

describe('state diagram (DOT and SVG)', () => {
  const labels = { states: { open: 'Aperto', closing: 'In chiusura', escalated: 'Escalato', closed: 'Chiuso' }, actions: { close: 'Chiudi "subito"', escalate: 'Escala' } };

  it('highlights the current state only', () => {
    const dot = machineToDot(caseMachine, { current: 'escalated', labels });
    assert.match(statement(dot, 'state-escalated'), new RegExp(`fillcolor="${DIAGRAM_STYLE.current.fill}".*class="current"`));
    for (const s of ['open', 'closing', 'closed']) assert.doesNotMatch(statement(dot, `state-${s}`), /class="current"|penwidth/);
    assert.match(statement(dot, 'state-closed'), /peripheries=2/, 'a final state is drawn with a double border');
    assert.match(statement(dot, 'state-open'), /label="Aperto"/);
  });

  it('draws the transitions the user may take now distinct, and no others', () => {
    const dot = machineToDot(caseMachine, { current: 'open', allowed: ['escalate', 'close'], labels });
    for (const id of ['edge-open-escalate', 'edge-open-close']) {
      assert.match(statement(dot, id), new RegExp(`color="${DIAGRAM_STYLE.allowed.line}".*penwidth=3.*fontname="Helvetica-Bold".*class="allowed"`));
    }
    // add-event leaves open too, but the user may not take it; close from escalated is not "now".
    for (const id of ['edge-open-add-event', 'edge-escalated-close', 'edge-closing-reopen', 'edge-closing-complete-closure']) {
      assert.doesNotMatch(statement(dot, id), /class="allowed"|penwidth/);
    }
    assert.equal(dot.match(/class="allowed"/g)?.length, 2);
    // Labels are quoted: a quote in a label cannot break the DOT source.
    assert.match(statement(dot, 'edge-open-close'), /label=" Chiudi \\"subito\\" "/);
    assert.match(statement(dot, 'edge-closing-complete-closure'), /\(4 occhi\)/);
  });

  it('draws the actions that keep a state as one loop, one name per line', () => {
    const dot = machineToDot(onboardingMachine, { current: 'pending_second_approval', allowed: ['wallet-revoke'], labels: { actions: AZIONE_LABELS } });
    assert.match(statement(dot, 'edge-pending_second_approval-wallet-verify+wallet-revoke'),
      new RegExp(`"pending_second_approval" -> "pending_second_approval" \\[label=" ${AZIONE_LABELS['wallet-verify']} \\\\n ${AZIONE_LABELS['wallet-revoke']} ".*class="allowed"`));
    assert.equal(dot.split('\n').filter((l) => /"in_review" -> "in_review"/.test(l)).length, 1);
  });

  it('draws nothing as allowed without a current state or allowed actions', () => {
    assert.doesNotMatch(machineToDot(caseMachine, { allowed: ['escalate'] }), /class="allowed"/);
    assert.doesNotMatch(machineToDot(caseMachine, { current: 'open' }), /class="allowed"/);
  });

  it('renders SVG sized in px, with readable fonts, and the allowed edges marked', async () => {
    const allowed = allowedActions(onboardingMachine, 'in_review', { id: 'u1', username: 'co1', roles: ['co'] });
    const svg = await stateDiagramSvg(onboardingMachine, { current: 'in_review', allowed, labels: { states: STATO_LABELS, actions: AZIONE_LABELS } });
    assert.match(svg, /^<svg width="\d+(\.\d+)?" height="\d+(\.\d+)?"/, 'no pt units: the drawing keeps its natural size in px');
    assert.doesNotMatch(svg, /<\?xml|<!DOCTYPE/);
    const sizes = [...svg.matchAll(/font-size="([\d.]+)"/g)].map((m) => Number(m[1]));
    assert.ok(sizes.length > 0 && Math.min(...sizes) >= 13, `font sizes ${[...new Set(sizes)].join(', ')}`);
    assert.match(svg, /class="node current"/);
    assert.deepEqual([...allowed].sort(), ['approve', 'reject', 'request-info', 'wallet-revoke', 'wallet-verify']);
    // Three edges leave the state; the two wallet actions keep it and share one loop.
    assert.deepEqual([...svg.matchAll(/<g id="([^"]+)" class="edge allowed"/g)].map((m) => m[1]!.replace(/&#45;/g, '-')).sort(),
      ['edge-in_review-approve', 'edge-in_review-reject', 'edge-in_review-request-info', 'edge-in_review-wallet-verify+wallet-revoke']);
  });

  it('lists the current state and the actions possible now as text', async () => {
    const v = await stateDiagramView(caseMachine, { current: 'closing', allowed: ['reopen'], labels: { states: labels.states, actions: { reopen: 'Riapri' } }, title: 'Stati del caso "A" <b>' });
    assert.match(v.svg, /^<svg role="img" aria-label="Stati del caso &quot;A&quot; &lt;b>" width=/);
    assert.deepEqual(v.current, { state: 'closing', label: 'In chiusura', final: false });
    assert.deepEqual(v.actions, [{ action: 'reopen', label: 'Riapri', to: 'open', toLabel: 'Aperto', fourEyes: false }]);
    const none = await stateDiagramView(caseMachine, { current: 'closed', allowed: [] });
    assert.deepEqual(none.actions, []);
    assert.equal(none.current?.final, true);
  });

  it('draws a machine too wide for its card from top to bottom, at its natural size (the SOS and filing machines)', async () => {
    const width = (svg: string) => Number(/^<svg[^>]*? width="([\d.]+)"/.exec(svg)![1]);
    for (const m of [sosMachine, filingMachine]) {
      const wide = await dotToInlineSvg(machineToDot(m, {}));
      assert.ok(width(wide) > DIAGRAM_FIT_WIDTH, `${m.name} is wider than the card from left to right`);
      const drawn = await stateDiagramSvg(m, { current: m.initial });
      assert.ok(width(drawn) <= DIAGRAM_FIT_WIDTH, `${m.name} drawn ${width(drawn)} px wide`);
      assert.match(drawn, /^<svg width="\d+(\.\d+)?" height="\d+(\.\d+)?"/, 'still in px, never scaled');
    }
    // A machine that fits stays left to right.
    assert.ok(width(await stateDiagramSvg(caseMachine, { current: 'open' })) === width(await dotToInlineSvg(machineToDot(caseMachine, { current: 'open' }))));
  });
});
