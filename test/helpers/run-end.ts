/**
 * What shared test fixtures (the browser, ...) need done once the whole run is over: the root
 * hooks' global teardown (test/helpers/hooks.ts) runs these, newest first, before it stops the
 * shared stack. A module of its own so the hooks need not import the fixtures' libraries.
 */
const closers: (() => Promise<void>)[] = [];

export function atRunEnd(close: () => Promise<void>): void {
  closers.push(close);
}

export async function runEndClosers(): Promise<void> {
  for (const close of closers.splice(0).reverse()) await close().catch((e) => console.error('teardown step failed', e));
}
