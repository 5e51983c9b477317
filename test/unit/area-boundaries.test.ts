import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { projectRoot } from '../../src/config';

/** Lints a snippet as if it were the given file of the project, with the project's configuration. */
async function lint(file: string, code: string) {
  const eslint = new ESLint({ cwd: projectRoot });
  const [r] = await eslint.lintText(code, { filePath: join(projectRoot, file) });
  return r!.messages.filter((m) => m.ruleId === 'house/area-boundaries').map((m) => m.message);
}

describe('lint: areas import each other only through their public surface', function () {
  this.timeout(60_000);

  it('fails on an import of another area\'s internals, from a page, an activity or a workflow', async () => {
    assert.equal((await lint('src/domains/screening/x.ts', "import { listCases } from '../cases/cases.repo';\nexport const f = listCases;\n")).length, 1);
    assert.equal((await lint('activities/case/x.ts', "import { getSetting } from '../../src/domains/admin/admin.settings';\nexport const f = getSetting;\n")).length, 1);
    assert.equal((await lint('workflows/onboarding/x.ts', "import type { EsignStatus } from '../esign/esign.machine';\nexport type T = EsignStatus;\n")).length, 1);
  });

  it('fails when an area imports the registry, the app, or another area\'s definition', async () => {
    assert.equal((await lint('src/domains/cases/x.ts', "import { AREAS } from '../../areas';\nexport const a = AREAS;\n")).length, 1);
    assert.equal((await lint('src/domains/cases/x.ts', "import { createApp } from '../../app';\nexport const a = createApp;\n")).length, 1);
    assert.equal((await lint('src/domains/cases/x.ts', "import { esignArea } from '../esign/area';\nexport const a = esignArea;\n")).length, 1);
  });

  it('accepts the public surface, the area\'s own files and the shared kit', async () => {
    assert.deepEqual(await lint('src/domains/screening/x.ts', "import { getSetting } from '../admin';\nimport { appendAudit } from '../audit/index';\nexport const f = [getSetting, appendAudit];\n"), []);
    assert.deepEqual(await lint('src/domains/cases/x.ts', "import { listCases } from './cases.repo';\nimport { staff } from '../../kit/access';\nexport const f = [listCases, staff];\n"), []);
    assert.deepEqual(await lint('workflows/onboarding/x.ts', "import { esignWorkflowId } from '../esign/esign.contract';\nexport const f = esignWorkflowId;\n"), []);
    assert.deepEqual(await lint('activities/case/x.ts', "import { appendAudit } from '../../src/domains/audit';\nimport { caseWorkflowId } from '../../workflows/case/case.contract';\nexport const f = [appendAudit, caseWorkflowId];\n"), []);
  });
});
