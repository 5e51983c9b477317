import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Uploaded import files, content-addressed under <documentDir>/imports/<tenant>/<sha256>: the web
 * process writes them, the worker's batches read them (a shared volume, like the documents).
 */
export function importFilePath(documentDir: string, codAzienda: string, sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256) || !/^[A-Za-z0-9_-]+$/.test(codAzienda)) throw new Error('invalid import file address');
  return join(documentDir, 'imports', codAzienda, sha256);
}

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Moves an uploaded temporary file to its address (the same bytes twice are kept once). */
export async function storeImportFile(documentDir: string, codAzienda: string, tmpPath: string): Promise<{ sha256: string; size: number }> {
  const sha256 = await sha256OfFile(tmpPath);
  const { size } = await stat(tmpPath);
  const target = importFilePath(documentDir, codAzienda, sha256);
  await mkdir(dirname(target), { recursive: true });
  await rename(tmpPath, target).catch(async (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EXDEV') throw err;
    // Another file system: copy through a temporary name, then rename.
    const { copyFile } = await import('node:fs/promises');
    await copyFile(tmpPath, `${target}.tmp`);
    await rename(`${target}.tmp`, target);
    await rm(tmpPath, { force: true });
  });
  return { sha256, size };
}
