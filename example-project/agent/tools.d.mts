import type { ToolDefinition } from 'riddle/trial';

/** list_files, read_file (read); write_file, delete_file (write); archive_file (external). */
export declare const fileTools: ToolDefinition[];
/** list_tasks (read); set_task_status, delete_task, add_task (write); email_team (external). On `tasks.db` in the workspace. */
export declare const taskTools: ToolDefinition[];
