// The SOS area's public surface: nothing of a report leaves the area (docs/sos.md, "Tipping-off").
// Other areas link to /sos/nuova?origine=...&origine_ref=... to start one.
export { SOS_ACCESS } from './sos.routes';
// The report's own audit chain, for another area's record that belongs to a report (a reserved goAML filing).
export { appendSosAudit } from './sos.audit';
