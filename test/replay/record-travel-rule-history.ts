/**
 * Records the history of a real travel-rule transfer on the dev server into test/replay/histories/:
 * an incoming transfer with the beneficiary's name missing, screened, an approval refused by the
 * rules, held, completed (screened again at once) and approved. Run it again when a deliberate,
 * patched change needs a new baseline; old histories stay, so the new code must still replay them.
 *   node --import tsx test/replay/record-travel-rule-history.ts [file name, default travel-rule-held-completed-approved.json]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { temporalCliPath } from '../../temporal/binaries';
import { decideTransfer, recordTransfer, transitionTransfer } from '../../src/domains/verifications';
import { getTestEnv, stopTestEnv } from '../helpers/env';
import { ivms101Payload } from '../helpers/travel-rule-fixture';

async function main() {
  const env = await getTestEnv();
  try {
    const tenant = await env.createTenant('REPLAYTRR');
    const u = await env.createUser({ tenant, roles: ['co'] });
    const co = { id: u.cod_utente, username: u.username, roles: ['co'] };
    const deps = { db: env.deps.db, client: env.temporal, taskQueue: env.deps.config.temporal.taskQueue };
    const { record } = await recordTransfer(deps, {
      codAzienda: tenant, actor: co, input: {
        riferimento_esterno: 'REPLAY-1', direzione: 'in_entrata', cod_anagrafe: null, asset: 'ETH', rete: 'ETH', importo: '1.5', importo_eur: 4200, tx_hash: null,
        indirizzo_originatore: '0x1111111111111111111111111111111111111111', indirizzo_beneficiario: '0x2222222222222222222222222222222222222222',
        tipo_wallet: 'vasp', vasp_controparte: 'Krypto Bank AG', prova_controllo: null, ivms101: ivms101Payload({ senzaNomeBeneficiario: true }),
      },
    });
    const cod = record.cod_transazione;
    await transitionTransfer(deps, { codAzienda: tenant, actor: co, codTransazione: cod, action: 'screen' });
    await decideTransfer(deps, { codAzienda: tenant, actor: co, codTransazione: cod, decisione: 'approved' }).catch(() => undefined); // refused by the rules
    await decideTransfer(deps, { codAzienda: tenant, actor: co, codTransazione: cod, decisione: 'held', motivo: 'Richiesto il nome del beneficiario' });
    await transitionTransfer(deps, { codAzienda: tenant, actor: co, codTransazione: cod, action: 'complete', ivms101: ivms101Payload() });
    await decideTransfer(deps, { codAzienda: tenant, actor: co, codTransazione: cod, decisione: 'approved' });
    await env.temporal.workflow.getHandle(record.workflow_id).result();
    // The CLI writes proto3 JSON, the format Worker.runReplayHistories reads back.
    const json = execFileSync(temporalCliPath(), ['workflow', 'show', '--workflow-id', record.workflow_id, '--address', env.temporalAddress,
      '--namespace', env.deps.config.temporal.namespace, '--output', 'json'], { encoding: 'utf8' });
    const file = join(import.meta.dirname, 'histories', process.argv[2] ?? 'travel-rule-held-completed-approved.json');
    writeFileSync(file, json);
    console.log(`wrote ${file} (${JSON.parse(json).events.length} events)`);
  } finally {
    await stopTestEnv();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
