// Mocha's spec reporter plus one plain closing line, "N passed, N failed, N skipped", that CI tools read,
// and where the run's time went: the ten slowest test files and the total, printed at the end of every
// run (so every CI log shows it), and written in full, with each slow hook (> 300 ms), slowest first,
// to TEST_TIMINGS (default test-artifacts/test-timings.json).
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_HOOK_END } = Mocha.Runner.constants;

const SHOWN = 10;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

class SpecWithSummary extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = process.env.TEST_TIMINGS || path.join('test-artifacts', 'test-timings.json');
    const started = Date.now();
    const files = new Map();
    const hooks = [];
    const top = (s) => s.file && s.parent && s.parent.root;
    const fileOf = (r) => { let s = r.parent; while (s && !s.file && s.parent) s = s.parent; return (s && s.file) || '?'; };
    runner.on(EVENT_SUITE_BEGIN, (s) => { if (top(s) && !files.has(s.file)) files.set(s.file, { start: Date.now() }); });
    runner.on(EVENT_SUITE_END, (s) => { if (top(s)) files.get(s.file).end = Date.now(); });
    runner.on(EVENT_HOOK_END, (h) => { if (h.duration > 300) hooks.push({ file: fileOf(h), hook: h.title, ms: h.duration }); });
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats || {};
      const ms = Date.now() - started;
      const perFile = [...files].map(([file, t]) => ({ file: path.relative(process.cwd(), file), ms: (t.end || Date.now()) - t.start })).sort((a, b) => b.ms - a.ms);
      const lines = [`\ntests: ${s.passes || 0} passed, ${s.failures || 0} failed, ${s.pending || 0} skipped`];
      if (perFile.length > 1) {
        lines.push(`time: ${seconds(ms)} in all, ${perFile.length} files; the ${Math.min(SHOWN, perFile.length)} slowest:`);
        const width = Math.max(...perFile.slice(0, SHOWN).map((f) => seconds(f.ms).length));
        for (const f of perFile.slice(0, SHOWN)) lines.push(`  ${seconds(f.ms).padStart(width)}  ${f.file}`);
      }
      try {
        fs.mkdirSync(path.dirname(out), { recursive: true });
        fs.writeFileSync(out, JSON.stringify({ ms, files: perFile, hooks: hooks.sort((a, b) => b.ms - a.ms) }, null, 1));
        if (perFile.length > 1) lines.push(`(every file's and slow hook's time: ${out})`);
      } catch (e) {
        lines.push(`(timings not written to ${out}: ${e.message})`);
      }
      process.stdout.write(lines.join('\n') + '\n');
    });
  }
}
module.exports = SpecWithSummary;
