import assert from 'node:assert/strict';
import { embeddedSettings } from '../../src/infra/embedded-pg';

const GB = 1024 ** 3;
const setting = (machine: number, name: string) => embeddedSettings(machine).find((s) => s.startsWith(`${name}=`))?.split('=')[1];

describe('embedded PostgreSQL: settings sized from the machine', () => {
  it('gives the buffers an eighth of the memory, within PostgreSQL\'s stock 128 MB and 4 GB', () => {
    assert.equal(setting(24 * GB, 'shared_buffers'), '3072MB');
    assert.equal(setting(512 * 1024 ** 2, 'shared_buffers'), '128MB');
    assert.equal(setting(256 * GB, 'shared_buffers'), '4096MB');
  });

  it('spaces checkpoints for bulk loads and compresses the pages written whole into the WAL', () => {
    const s = embeddedSettings(8 * GB);
    assert.ok(s.includes('max_wal_size=4GB'));
    assert.ok(s.includes('checkpoint_timeout=15min'));
    assert.ok(s.includes('wal_compression=on'));
    assert.equal(setting(8 * GB, 'effective_cache_size'), '4096MB');
    assert.equal(setting(8 * GB, 'maintenance_work_mem'), '256MB');
  });
});
