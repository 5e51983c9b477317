import { fileTypeFromBuffer } from 'file-type';

export type Sniffed<M extends string> = { ok: true; mime: M; ext: string } | { ok: false; reason: 'type' | 'declared'; detected?: string };

/**
 * An upload's type read from its bytes, never from its name or declared content type, and
 * kept only when it is one of `accepted`: a renamed text file, an executable or an SVG (which
 * can carry script) is refused. A declared type that contradicts the bytes is refused too.
 */
export async function sniffUpload<M extends string>(bytes: Buffer, accepted: readonly M[], declaredMime?: string): Promise<Sniffed<M>> {
  const t = await fileTypeFromBuffer(bytes);
  if (!t || !(accepted as readonly string[]).includes(t.mime)) return { ok: false, reason: 'type', ...(t ? { detected: t.mime } : {}) };
  if (declaredMime && declaredMime !== 'application/octet-stream' && declaredMime !== t.mime) return { ok: false, reason: 'declared', detected: t.mime };
  return { ok: true, mime: t.mime as M, ext: t.ext };
}
