/**
 * Role groups the machines share. Workflow code may not import src/, so this mirrors
 * STAFF_WRITE in src/kit/roles.ts (a unit test keeps the two equal).
 */
export const PROCESS_WRITERS = ['co', 'analyst', 'sos', 'admin'] as const;
