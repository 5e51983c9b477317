import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jurisdictionConfig, type CodeListName, type JurisdictionConfig } from './jurisdiction';
import type { CodeLists } from './rules';
import { parseSchemaModel, type SchemaModel } from './xsd-model';

/** A jurisdiction with its schema and code lists read from the goAML data directory. */
export interface LoadedJurisdiction {
  config: JurisdictionConfig;
  schemaText: string;
  model: SchemaModel;
  codeLists: CodeLists;
  /** Code -> label, for pages and previews. */
  labels: Partial<Record<CodeListName, Map<string, string>>>;
}

const cache = new Map<string, Promise<LoadedJurisdiction>>();

async function load(dataDir: string, config: JurisdictionConfig): Promise<LoadedJurisdiction> {
  const schemaText = await readFile(join(dataDir, config.schemaFile), 'utf8');
  const codeLists: CodeLists = {};
  const labels: LoadedJurisdiction['labels'] = {};
  for (const [name, file] of Object.entries(config.lookups) as [CodeListName, string][]) {
    const rows = JSON.parse(await readFile(join(dataDir, file), 'utf8')) as { code: string; label: string }[];
    codeLists[name] = new Set(rows.map((r) => r.code));
    labels[name] = new Map(rows.map((r) => [r.code, r.label]));
  }
  return { config, schemaText, model: parseSchemaModel(schemaText), codeLists, labels };
}

/** Loaded once per process and data directory; a failed load is not cached. */
export function loadJurisdiction(dataDir: string, id: string): Promise<LoadedJurisdiction> {
  const config = jurisdictionConfig(id);
  if (!config) return Promise.reject(new Error(`unknown goAML jurisdiction ${id}`));
  const key = `${dataDir}\u0000${id}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = load(dataDir, config);
    cache.set(key, hit);
    hit.catch(() => cache.delete(key));
  }
  return hit;
}
