import { Client, Connection } from '@temporalio/client';
import { readFileSync } from 'node:fs';
import type { TemporalConfig } from '../src/config';

export function connectionOptions(cfg: TemporalConfig, address: string) {
  const tls = cfg.tlsCertPath && cfg.tlsKeyPath
    ? { clientCertPair: { crt: readFileSync(cfg.tlsCertPath), key: readFileSync(cfg.tlsKeyPath) } }
    : cfg.apiKey ? true : undefined;
  return { address, tls, apiKey: cfg.apiKey };
}

/** A lazily connected client: building the app (for example to list routes) never dials Temporal. */
export class TemporalClientProvider {
  private client?: Promise<Client>;
  constructor(private readonly cfg: TemporalConfig, private readonly address: () => string) {}

  get(): Promise<Client> {
    if (!this.client) {
      const attempt = Connection.connect(connectionOptions(this.cfg, this.address())).then(
        (connection) => new Client({ connection, namespace: this.cfg.namespace }),
      );
      this.client = attempt;
      // A failed attempt is not kept: the next call (a request, a health check) dials again.
      attempt.catch(() => { if (this.client === attempt) this.client = undefined; });
    }
    return this.client;
  }

  get namespace() { return this.cfg.namespace; }
  get taskQueue() { return this.cfg.taskQueue; }

  /** Link to a workflow in the Temporal Web UI, shown on every record's page. */
  webUiLink(workflowId: string): string {
    return `${this.cfg.webUiUrl}/namespaces/${encodeURIComponent(this.cfg.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
  }

  async close(): Promise<void> {
    if (!this.client) return;
    const c = await this.client.catch(() => undefined);
    await c?.connection.close();
  }
}
