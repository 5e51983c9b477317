/** One queue for the platform's workflows and activities; heavy work can move to its own queue later. */
export const DEFAULT_TASK_QUEUE = 'compliance';
