// The corporate structure of a KYB and its beneficial owners (part ubo, docs/ubo.md).
export { computeUbo } from './ubo.engine';
export type { StructureGraph, StructureNode, StructureEdge, UboResult, UboOwner, UboMethodResult, UboDifference, UboOptions } from './ubo.types';
export { UBO_RULE_LABELS, UBO_RULE_REFERENCES, UBO_CRITERION_LABELS } from './ubo.labels';
export { seedStructure, addNode, addEdge, calculateUbo, type SeedStructureRequest, type SeedOwner, type SeedRoot, type StructureActor } from './structure.commands';
export { structureView, structureData, type StructureView, type StructureFormState } from './structure.view';
export { registerStructureRoutes } from './structure.routes';
export { registerStructurePages } from './structure.pages';
export { STRUCTURE_EDITORS } from './structure.roles';
