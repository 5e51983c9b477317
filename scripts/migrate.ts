// Migrates the database: the embedded one (started for the occasion) or DATABASE_URL.
import { databaseSetup, loadConfigOrExit } from '../src/config';
import { createKnex } from '../src/db/knex';
import { prepareDatabase } from '../src/db/bootstrap';
import { startEmbeddedPostgres } from '../src/infra/embedded-pg';
import { join } from 'node:path';

const config = loadConfigOrExit();
const pg = config.databaseUrl ? undefined : await startEmbeddedPostgres({ dir: join(config.dataDir, 'pg'), port: config.embeddedPgPort });
const owner = createKnex(config.databaseUrl ?? pg!.url, { max: 2 });
try {
  const applied = await prepareDatabase(owner, databaseSetup(config));
  console.log(`migrations applied: ${applied.length ? applied.join(', ') : 'none (up to date)'}`);
} finally {
  await owner.destroy();
  await pg?.stop();
}
