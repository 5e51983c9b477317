/**
 * Offline verification of a signed e-signature bundle:
 *   npm run -s esign:verify -- bundle.json [--cert platform.crt]
 * The bundle is the receipt's JSON (GET …/receipt?format=json) or a bare JWS string.
 * Without --cert it checks the signature against the certificate inside the bundle;
 * with --cert it also requires that certificate to be exactly the given one.
 * Exit code 0: valid; 1: invalid; 2: usage error.
 */
import { readFile } from 'node:fs/promises';
import { verifyBundle } from '../src/domains/esign/esign.bundle';

const args = process.argv.slice(2);
const certAt = args.indexOf('--cert');
const certPath = certAt >= 0 ? args[certAt + 1] : undefined;
const file = args.filter((a, i) => !a.startsWith('--') && (certAt < 0 || i !== certAt + 1))[0];
if (!file || (certAt >= 0 && !certPath)) {
  console.error('uso: npm run -s esign:verify -- bundle.json [--cert certificato.pem]');
  process.exit(2);
}
const raw = (await readFile(file, 'utf8')).trim();
let bundle: unknown;
try { bundle = raw.startsWith('{') ? JSON.parse(raw) : raw; } catch { bundle = raw; }
const cert = certPath ? await readFile(certPath, 'utf8') : undefined;
const r = await verifyBundle(bundle, cert);
if (r.valid) {
  console.log(JSON.stringify({ valid: true, certificate: r.certificate, evidence: r.evidence }, null, 2));
  process.exit(0);
}
console.error(JSON.stringify({ valid: false, reason: r.reason }));
process.exit(1);
