// Mocha's spec reporter plus one plain closing line, "N passed, N failed, N skipped", that CI tools read.
// With TEST_TIMINGS=file.json it also writes how long each test file and each slow hook (> 300 ms) took,
// slowest first: where a run's time goes.
const fs = require('node:fs');
const Mocha = require('mocha');
const { Spec } = Mocha.reporters;
const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_HOOK_END } = Mocha.Runner.constants;

class SpecWithSummary extends Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = process.env.TEST_TIMINGS;
    const started = Date.now();
    const files = new Map();
    const hooks = [];
    if (out) {
      const top = (s) => s.file && s.parent && s.parent.root;
      const fileOf = (r) => { let s = r.parent; while (s && !s.file && s.parent) s = s.parent; return (s && s.file) || '?'; };
      runner.on(EVENT_SUITE_BEGIN, (s) => { if (top(s) && !files.has(s.file)) files.set(s.file, { start: Date.now() }); });
      runner.on(EVENT_SUITE_END, (s) => { if (top(s)) files.get(s.file).end = Date.now(); });
      runner.on(EVENT_HOOK_END, (h) => { if (h.duration > 300) hooks.push({ file: fileOf(h), hook: h.title, ms: h.duration }); });
    }
    runner.once(EVENT_RUN_END, () => {
      const s = runner.stats || {};
      process.stdout.write(`\ntests: ${s.passes || 0} passed, ${s.failures || 0} failed, ${s.pending || 0} skipped\n`);
      if (out) {
        const perFile = [...files].map(([file, t]) => ({ file, ms: (t.end || Date.now()) - t.start })).sort((a, b) => b.ms - a.ms);
        fs.writeFileSync(out, JSON.stringify({ ms: Date.now() - started, files: perFile, hooks: hooks.sort((a, b) => b.ms - a.ms) }, null, 1));
      }
    });
  }
}
module.exports = SpecWithSummary;
