import assert from 'node:assert/strict';
import { linkInternalPaths } from '../../src/http/internal-links';

describe('platform paths in text as links (a case opened from an alert)', () => {
  it('links the alert\'s and the KYT decision\'s pages, escapes everything else', () => {
    const id = '0b9f5a3e-2c1d-4e8f-9a7b-123456789abc';
    const html = linkInternalPaths(`Aperto dall'alert KYT ALR-0000007 (/alert/${id}).\nDecisione KYT: /kyt/decision/DEC-20261128-00AB\n<script>x</script> 0x8589427373d6d84e98730d7795d8f6f8731fda16`);
    assert.match(html, new RegExp(`\\(<a class="text-decoration-underline" href="/alert/${id}">/alert/${id}</a>\\)\\.`));
    assert.match(html, /Decisione KYT: <a class="text-decoration-underline" href="\/kyt\/decision\/DEC-20261128-00AB">\/kyt\/decision\/DEC-20261128-00AB<\/a>/);
    assert.match(html, /&lt;script&gt;x&lt;\/script&gt; 0x8589427373d6d84e98730d7795d8f6f8731fda16$/);
    assert.match(html, /dall&#39;alert/);
  });

  it('leaves alone what is not a platform page: other paths, URLs, a path inside a word', () => {
    for (const text of ['vedi /etc/passwd', 'https://example.org/alert/123', 'abc/alert/123', '/alert/', 'javascript:/alert/1']) {
      assert.doesNotMatch(linkInternalPaths(text), /<a /, text);
    }
  });
});
