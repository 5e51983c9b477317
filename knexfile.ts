// Knex CLI configuration (`npx knex --knexfile knexfile.ts migrate:status`). The app migrates itself through
// src/db/bootstrap.ts; this file exists for operators who prefer the CLI against DATABASE_URL.
import { migrationsDir } from './src/db/bootstrap';

export default {
  client: 'pg',
  connection: process.env.DATABASE_URL,
  migrations: { directory: migrationsDir, loadExtensions: ['.ts'] },
};
