// Areas talk to each other only through their public surface. An area is a folder under
// src/domains/<area>/ plus its processes under workflows/<process>/ and activities/<process>/.
// From outside an area, only these may be imported:
//   src/domains/<area>/index.ts          the area's public functions and types
//   workflows/<process>/*.contract.ts    a process's contract (updates, signals, ids, types)
// The registry (src/areas.ts, the only importer of src/domains/<area>/area.ts) and the app
// it assembles (src/app.ts) are imported by no area.
import { dirname, relative, resolve, sep } from 'node:path';

/** Process folders whose area has another name. */
const PROCESS_AREA = {
  case: 'cases',
  // Verifications (issue 13): the KYC/KYB verification's and the travel-rule transfer's processes.
  verification: 'verifications',
  'travel-rule': 'verifications',
  // Monitoring (issue 23): the alert's table process (monitoring and KYT alerts).
  'monitoring-alert': 'monitoring',
  // ... its evaluation runs (daily batch, replay, backtest) and the release of a rule's draft.
  'monitoring-runs': 'monitoring',
  'monitoring-release': 'monitoring',
  // ... the seed of a demo tenant's labelled year (/api/engine/seed).
  'monitoring-seed': 'monitoring',
  // ... and the decision engine's sync of its copy and its pilot.
  'engine-sync': 'monitoring',
};

function areaOf(rel) {
  const p = rel.split(sep).join('/');
  let m = p.match(/^src\/domains\/([^/]+)\//);
  if (m) return m[1];
  m = p.match(/^(workflows|activities)\/([^/]+)\//);
  if (m && m[2] !== 'lib') return PROCESS_AREA[m[2]] ?? m[2];
  return null;
}

function isPublicSurface(rel) {
  const p = rel.split(sep).join('/').replace(/\.(ts|js)$/, '');
  return /^src\/domains\/[^/]+\/index$/.test(p) || /^workflows\/[^/]+\/[^/]+\.contract$/.test(p);
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'areas import each other only through their public surface' },
    schema: [],
    messages: {
      crossArea: "'{{target}}' is inside area '{{area}}': import its public surface (src/domains/{{area}}/index.ts, or a workflows/<process>/*.contract.ts) instead.",
      registry: "Areas may not import '{{target}}': the registry and the app are assembled from the areas, never the other way round.",
      areaFile: "Only the registry (src/areas.ts) imports an area's definition ('{{target}}').",
    },
  },
  create(context) {
    const root = context.cwd ?? process.cwd();
    const file = relative(root, context.filename);
    const fromArea = areaOf(file);
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = relative(root, resolve(dirname(context.filename), spec));
      const t = target.split(sep).join('/').replace(/\.(ts|js)$/, '');
      if (fromArea && (t === 'src/areas' || t === 'src/app')) {
        context.report({ node, messageId: 'registry', data: { target: t } });
        return;
      }
      if (/^src\/domains\/[^/]+\/area$/.test(t)) {
        if (file.split(sep).join('/') !== 'src/areas.ts') context.report({ node, messageId: 'areaFile', data: { target: t } });
        return;
      }
      const toArea = areaOf(target + '.ts');
      if (!toArea || toArea === fromArea || isPublicSurface(target)) return;
      context.report({ node, messageId: 'crossArea', data: { target: t, area: toArea } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
